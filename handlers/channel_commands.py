"""The commands of a user's own channels (issue 12 item 2), as frozen values.

Kept apart from `handlers.commands` (which lists them in its `Command` union) so the
channel grammar's values sit with nothing else. Channel names are the scheduler's
(`scheduler.core.fallback`: `wxpusher`, `serverchan_user`, `wecom_app`); a target of
`wechat` means "my personal WeChat": the bound WxPusher, else the bound Server酱.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

BindableChannel = Literal["wxpusher", "serverchan_user"]
Target = Literal["wecom_app", "wechat", "wxpusher", "serverchan_user"]


@dataclass(frozen=True, kw_only=True, slots=True)
class ShowChannels:
    """`设置 渠道` / `渠道`: the user's channels, their roles and their health."""


@dataclass(frozen=True, kw_only=True, slots=True)
class BindReceiver:
    """`绑定 WxPusher UID_...` / `绑定 Server酱 SCT...`: the value already checked for
    form. A SendKey is a secret: it never shows in a repr (logs, tracebacks)."""

    channel: BindableChannel
    value: str = field(repr=False)


@dataclass(frozen=True, kw_only=True, slots=True)
class UnbindReceiver:
    """`解绑 WxPusher` / `解绑 Server酱`."""

    channel: BindableChannel


@dataclass(frozen=True, kw_only=True, slots=True)
class SetPrimaryChannel:
    """`设置 渠道 微信` / `设置 渠道 企业微信` (or a channel by name)."""

    target: Target


@dataclass(frozen=True, kw_only=True, slots=True)
class SetFallbackChannel:
    """`设置 备用 微信` / `设置 备用 企业微信` / `设置 备用 关` (target None)."""

    target: Target | None


@dataclass(frozen=True, kw_only=True, slots=True)
class SendChannelTest:
    """`测试 渠道` / `测试 渠道 WxPusher`: a short test through each of the user's
    channels (or the one named), each waiting 30 minutes for its `收到`."""

    target: Target | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class ConfirmChannelTest:
    """`收到 WxPusher` / `收到 企业微信`: the test on that channel was seen on the
    phone. (A bare `收到` is `AnswerNag`, which confirms a test when no nag waits.)"""

    target: Target


ChannelCommand = (
    ShowChannels
    | BindReceiver
    | UnbindReceiver
    | SetPrimaryChannel
    | SetFallbackChannel
    | SendChannelTest
    | ConfirmChannelTest
)
