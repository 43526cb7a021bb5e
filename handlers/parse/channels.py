"""The channel commands: `设置 渠道 [微信|企业微信]`, `设置 备用 ...`, `绑定 ...`, `解绑 ...`.

Pure and total like the rest of the parser: `read_channels` returns a command, None
(not a channel command: the other readers go on), or raises ParseError. It is asked
before the `设置` keyword reader, whose own settings do not include 渠道 or 备用.
`绑定 小程序` belongs to the mini-program's reader: None.

Forms (PROVIDERS.md): a WxPusher UID is `UID_` and letters/digits (`_`, `-` are let
through as keeper's other UID check does); a Server酱 Turbo SendKey is `SCT` and
letters/digits. Server酱³ keys (`sctp<uid>t...`) need another endpoint: refused
with a clear word. A malformed value is never echoed back (it may be a key).

`handlers/parse/key_mask.py` takes any key-like run out of a message's text before
it is stored in `inbound_messages`, where only the sealed copy may live.
"""

from __future__ import annotations

import re

from handlers import channel_texts as t
from handlers.channel_commands import (
    BindableChannel,
    BindReceiver,
    ChannelCommand,
    ConfirmChannelTest,
    SendChannelTest,
    SetFallbackChannel,
    SetPrimaryChannel,
    ShowChannels,
    Target,
    UnbindReceiver,
)
from handlers.commands import ParseError

UID = re.compile(r"UID_[A-Za-z0-9_-]{4,60}")
SENDKEY = re.compile(r"SCT[A-Za-z0-9]{8,80}")
SC3_KEY = re.compile(r"sctp\d+t[A-Za-z0-9]+", re.IGNORECASE)

CHANNEL_WORDS: dict[str, BindableChannel] = {
    "wxpusher": "wxpusher",
    "wx pusher": "wxpusher",
    "server酱": "serverchan_user",
    "serverchan": "serverchan_user",
    "server chan": "serverchan_user",
    "方糖": "serverchan_user",
    "sct": "serverchan_user",
}
TARGET_WORDS: dict[str, Target] = {
    **CHANNEL_WORDS,
    "微信": "wechat",
    "个人微信": "wechat",
    "企业微信": "wecom_app",
    "企微": "wecom_app",
    "应用": "wecom_app",
    "企业微信应用": "wecom_app",
}
OFF_WORDS = frozenset({"关", "关闭", "无", "没有", "不要", "取消", "off", "none"})
SHOW = frozenset(
    {"设置 渠道", "设置渠道", "渠道", "通道", "设置 通道", "我的渠道", "查看渠道", "渠道设置"}
)
_PRIMARY = re.compile(r"设置\s*(?:主)?(?:渠道|通道)\s*(.+)")
_FALLBACK = re.compile(r"设置\s*备用(?:渠道|通道)?\s*(.*)")
_BIND = re.compile(r"(绑定|解绑)\s*(.*)")
_TRY = r"(?:测试|测一下|测一测|测测|试试|试一下|检查|检查一下)"
_TEST = re.compile(
    # `测试 渠道 WxPusher`, `测一下渠道`, `试试推送能不能收到`, `测试一下WxPusher`
    rf"{_TRY}\s*(?:一下)?\s*(?:我的)?\s*(?:(?:渠道|通道|推送|提醒)\s*)?(?P<name>.*?)"
    r"\s*(?:能不能收到|能否收到|能收到吗|收不收得到|通不通|好不好使)?"
    # `发条测试消息`, `给我发一条测试消息`
    r"|(?:给我)?发(?:一)?条测试(?:消息|推送)?(?:给我)?(?:看看)?(?P<none>)"
)
_CONFIRM = re.compile(r"(?:收到了|已收到|收到)\s*(?P<name>[^\s].*)")


def read_channels(text: str) -> ChannelCommand | None:
    """The channel command in a tidied message, None when it is none (see module)."""
    text = text.strip()
    if text in SHOW:
        return ShowChannels()
    if found := _PRIMARY.fullmatch(text):
        return SetPrimaryChannel(target=_target(found[1], t.PRIMARY_HOW))
    if found := _FALLBACK.fullmatch(text):
        word = found[1].strip()
        if word.casefold() in OFF_WORDS:
            return SetFallbackChannel(target=None)
        return SetFallbackChannel(target=_target(word, t.FALLBACK_HOW))
    if (found := _TEST.fullmatch(text)) is not None and (tested := _tested(found)):
        return tested
    if (found := _CONFIRM.fullmatch(text)) is not None:
        target = TARGET_WORDS.get(found["name"].strip().casefold())
        return None if target is None else ConfirmChannelTest(target=target)
    if found := _BIND.fullmatch(text):
        rest = found[2].strip()
        if "小程序" in rest:
            return None  # the mini-program's own binding
        if found[1] == "解绑":
            return UnbindReceiver(channel=_channel(rest, t.UNBIND_HOW))
        return _bind(rest)
    return None


def _tested(found: re.Match[str]) -> SendChannelTest | None:
    """The test a `_TEST` match asks for; None when the words after the test verb
    name no channel (`测试 一下体重`: not ours). A bare test verb needs 渠道 words."""
    if found["none"] is not None:
        return SendChannelTest()  # 发条测试消息
    name = (found["name"] or "").strip()
    if not name:
        return SendChannelTest() if any(w in found[0] for w in _TEST_NOUNS) else None
    target = TARGET_WORDS.get(name.casefold())
    return None if target is None else SendChannelTest(target=target)


_TEST_NOUNS = ("渠道", "通道", "推送", "提醒")


def _target(word: str, how: str) -> Target:
    target = TARGET_WORDS.get(word.strip().casefold())
    if target is None:
        raise ParseError(how)
    return target


def _channel(word: str, how: str) -> BindableChannel:
    channel = CHANNEL_WORDS.get(word.strip().casefold())
    if channel is None:
        raise ParseError(how)
    return channel


def _bind(rest: str) -> BindReceiver:
    """`<channel word> <value>`: the word may touch the value (`绑定WxPusherUID_x`)."""
    folded = rest.casefold()
    for word in sorted(CHANNEL_WORDS, key=len, reverse=True):
        if folded.startswith(word) and word != "sct":
            channel, value = CHANNEL_WORDS[word], rest[len(word) :].strip(" :：")
            return BindReceiver(channel=channel, value=_checked(channel, value))
    if SENDKEY.fullmatch(rest) or SC3_KEY.fullmatch(rest):
        return BindReceiver(channel="serverchan_user", value=_checked("serverchan_user", rest))
    if UID.fullmatch(rest):
        return BindReceiver(channel="wxpusher", value=rest)
    raise ParseError(t.BIND_HOW)


_KEY_WORDS = re.compile(r"sendkey|key|uid|密钥|是|为|的|我|[\s,，。.:：!！]", re.IGNORECASE)


def _key_in(pattern: re.Pattern[str], value: str) -> str:
    """The one key in `value` said with words around it (`key是SCT…。`), or `value`
    as it was when there is not exactly one, or other words are left."""
    found = pattern.findall(value)
    if len(found) != 1 or _KEY_WORDS.sub("", value.replace(found[0], "")):
        return value
    return str(found[0])


def _checked(channel: BindableChannel, value: str) -> str:
    value = _key_in(UID if channel == "wxpusher" else SENDKEY, value)
    if channel == "wxpusher":
        if not UID.fullmatch(value):
            raise ParseError(t.BAD_UID)
        return value
    if SC3_KEY.fullmatch(value):
        raise ParseError(t.SC3_KEY)
    if not SENDKEY.fullmatch(value):
        raise ParseError(t.BAD_SENDKEY)
    return value


def mask(value: str) -> str:
    """A receiver as the user sees it again: `UID_ab…9f`, `SCT12…xy`."""
    keep = 6 if value.startswith("UID_") else 5
    if len(value) <= keep + 4:
        return value[:3] + "…"
    return f"{value[:keep]}…{value[-2:]}"
