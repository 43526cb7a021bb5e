"""The extra channels, built from settings: each one only when its credential is set.

`from_settings(settings.channels, session, robot_api_base=...)` returns the group
robot, WxPusher, Server酱 and wecomchan channels that are configured, by name. It
takes any object with the attributes of `ChannelSettings` (bot's settings group of
that name has them), since nothing below `bot/` imports the settings, and the group
robot's host, which is WeCom's (WECOM_API_BASE). The WeCom app channel is built where
it always was (`bot.scheduling`), with its token cache.

Rotation: call it again with the new settings and `previous=` the last result. A
channel whose configuration (credential, base URL, timeouts) is unchanged is the
very same object, its budget history intact; a changed one is built anew, so a
new key never inherits the old key's state, and no other channel notices.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Protocol

import aiohttp

from scheduler.channels.robot import RobotChannel, RobotConfig
from scheduler.channels.serverchan import ServerChanChannel, ServerChanConfig
from scheduler.channels.webhook import Timeouts, WebhookChannel
from scheduler.channels.wecomchan import WecomchanChannel, WecomchanConfig
from scheduler.channels.wxpusher import WxPusherChannel, WxPusherConfig

__all__ = ["ChannelSettings", "configs_from", "from_settings"]

Config = RobotConfig | WxPusherConfig | ServerChanConfig | WecomchanConfig


class ChannelSettings(Protocol):
    """What the factory reads (bot's `settings.channels` has all of it). Empty means "off"."""

    @property
    def robot_key(self) -> str: ...
    @property
    def wxpusher_app_token(self) -> str: ...
    @property
    def wxpusher_api_base(self) -> str: ...
    @property
    def serverchan_sendkey(self) -> str: ...
    @property
    def serverchan_api_base(self) -> str: ...
    @property
    def wecomchan_url(self) -> str: ...


def configs_from(
    settings: ChannelSettings, timeouts: Timeouts, *, robot_api_base: str
) -> dict[str, Config]:
    """The configuration of every channel whose credential is set, by channel name;
    `robot_api_base`: WeCom's host, which also serves the group robot."""
    configs: dict[str, Config] = {}
    if settings.robot_key:
        configs[RobotChannel.name] = RobotConfig(
            api_base=robot_api_base, key=settings.robot_key, timeouts=timeouts
        )
    if settings.wxpusher_app_token:
        configs[WxPusherChannel.name] = WxPusherConfig(
            api_base=settings.wxpusher_api_base,
            app_token=settings.wxpusher_app_token,
            timeouts=timeouts,
        )
    if settings.serverchan_sendkey:
        configs[ServerChanChannel.name] = ServerChanConfig(
            api_base=settings.serverchan_api_base,
            sendkey=settings.serverchan_sendkey,
            timeouts=timeouts,
        )
    if settings.wecomchan_url:
        configs[WecomchanChannel.name] = WecomchanConfig(
            url=settings.wecomchan_url, timeouts=timeouts
        )
    return configs


def _utc_now() -> datetime:
    return datetime.now(UTC)


def from_settings(
    settings: ChannelSettings,
    session: aiohttp.ClientSession,
    *,
    robot_api_base: str,
    timeouts: Timeouts | None = None,
    previous: Mapping[str, WebhookChannel] | None = None,
    now: Callable[[], datetime] = _utc_now,
    monotonic: Callable[[], float] = time.monotonic,
) -> dict[str, WebhookChannel]:
    """The configured extra channels on `session` (the caller closes it), by name.

    With `previous`, a channel whose configuration did not change is reused as is
    (see the module docstring). `robot_api_base`: as for `configs_from`.
    """
    built: dict[str, WebhookChannel] = {}
    for name, config in configs_from(
        settings, timeouts or Timeouts(), robot_api_base=robot_api_base
    ).items():
        old = (previous or {}).get(name)
        if old is not None and getattr(old, "config", None) == config:
            built[name] = old
        else:
            built[name] = _build(config, session=session, now=now, monotonic=monotonic)
    return built


def _build(
    config: Config,
    *,
    session: aiohttp.ClientSession,
    now: Callable[[], datetime],
    monotonic: Callable[[], float],
) -> WebhookChannel:
    kw = {"session": session, "now": now, "monotonic": monotonic}
    if isinstance(config, RobotConfig):
        return RobotChannel(config, **kw)
    if isinstance(config, WxPusherConfig):
        return WxPusherChannel(config, **kw)
    if isinstance(config, ServerChanConfig):
        return ServerChanChannel(config, **kw)
    return WecomchanChannel(config, **kw)
