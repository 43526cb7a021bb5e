"""What the conversation knows of the deployment it answers in: `Deployment`.

Built once by the composition root (`bot.app.deployment_of`) and carried in every
`Context`: a handler reads `ctx.deployment.web.public_url`,
`ctx.deployment.channels.user_channels`, `ctx.deployment.backup.on`, and so on.

Why here and why protocols: handlers may not import `bot` (`tests/unit/test_layers.py`),
where the settings are read and validated (`bot.settings`). Each group below names only
the few fields the conversation reads; bot's settings groups (`WebSettings`,
`ChannelSettings`, ...) have them, so the composition root hands those groups over as
they are and no setting is copied field by field. The groups the conversation never
reads (WeCom's credentials, the database URL) are not carried at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol
from zoneinfo import ZoneInfo

from storage.secret_box import KeyRing


class Operations(Protocol):
    """`bot.settings.OperationsSettings`, as far as the conversation reads it."""

    @property
    def timezone(self) -> ZoneInfo: ...  # a new member's zone (KEEPER_TIMEZONE)
    @property
    def admins(self) -> frozenset[str]: ...  # KEEPER_ADMINS' UserIDs


class Web(Protocol):
    """`bot.settings.WebSettings`, as far as the conversation reads it."""

    @property
    def public_url(self) -> str: ...  # where the pages are; empty: not published


class Channels(Protocol):
    """`bot.settings.ChannelSettings`, as far as the conversation reads it."""

    @property
    def alert_channel(self) -> str: ...  # as the scheduler names it; empty: the WeCom app
    @property
    def user_channels(self) -> frozenset[str]: ...  # the channels a user's reminders may take


class MiniProgram(Protocol):
    """`bot.settings.MiniProgramSettings`, as far as the conversation reads it."""

    @property
    def configured(self) -> bool: ...  # KEEPER_MP_APPID and its secret are set


class Backup(Protocol):
    """`bot.settings.BackupSettings`, as far as the conversation reads it."""

    @property
    def on(self) -> bool: ...  # scheduled backups are made (KEEPER_BACKUP_DIR), for 管理 状态


@dataclass(frozen=True, kw_only=True, slots=True)
class Deployment:
    """The settings groups the conversation reads, and the keys derived from the
    deployment's secrets. They are required: an empty default would seal nothing at
    the first 绑定 without saying why, or store link codes under an empty key."""

    operations: Operations
    web: Web
    channels: Channels
    mp: MiniProgram
    backup: Backup
    data_keys: KeyRing = field(repr=False)
    """The keys sealing and opening users' SendKeys (`bot.settings.Settings.key_ring`;
    `storage.secret_box`); without a current one, binding a SendKey is refused."""
    mp_link_key: bytes = field(repr=False)
    """The key link codes are stored under (`bot.mp.auth.link_code_key`;
    `services.mp_link.code_hash`)."""
