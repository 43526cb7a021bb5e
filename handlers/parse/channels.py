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
from handlers.parse.lexicon import UNBIND_WORDS
from handlers.parse.patterns import (
    BIND_VALUE_MARKS,
    CHANNEL_BIND_PATTERN,
    CHANNEL_CONFIRM_PATTERN,
    CHANNEL_FALLBACK_PATTERN,
    CHANNEL_NOT_TEST_WORDS,
    CHANNEL_OFF_WORDS,
    CHANNEL_PRIMARY_PATTERN,
    CHANNEL_SHOW,
    CHANNEL_TEST_CUES,
    CHANNEL_TEST_MESSAGES,
    CHANNEL_TEST_NOUNS,
    CHANNEL_TEST_PATTERN,
    CHANNEL_WORDS,
    KEY_WORDS_PATTERN,
    MAX_CHANNEL_TEST,
    MINI_PROGRAM,
    MY_OWN,
    TARGET_WORDS,
)

UID = re.compile(r"UID_[A-Za-z0-9_-]{4,60}")
SENDKEY = re.compile(r"SCT[A-Za-z0-9]{8,80}")
SC3_KEY = re.compile(r"sctp\d+t[A-Za-z0-9]+", re.IGNORECASE)

_PRIMARY = re.compile(CHANNEL_PRIMARY_PATTERN)
_FALLBACK = re.compile(CHANNEL_FALLBACK_PATTERN)
_BIND = re.compile(CHANNEL_BIND_PATTERN)
_TEST = re.compile(CHANNEL_TEST_PATTERN)
_CONFIRM = re.compile(CHANNEL_CONFIRM_PATTERN)


def read_channels(text: str) -> ChannelCommand | None:
    """The channel command in a tidied message, None when it is none (see module)."""
    text = text.strip()
    if text in CHANNEL_SHOW:
        return ShowChannels()
    if found := _PRIMARY.fullmatch(text):
        return SetPrimaryChannel(target=_target(found[1], t.PRIMARY_HOW))
    if found := _FALLBACK.fullmatch(text):
        word = found[1].strip()
        if word.casefold() in CHANNEL_OFF_WORDS:
            return SetFallbackChannel(target=None)
        return SetFallbackChannel(target=_target(word, t.FALLBACK_HOW))
    if (found := _TEST.fullmatch(text)) is not None and (tested := _tested(found)):
        return tested
    if (found := _CONFIRM.fullmatch(text)) is not None:
        target = TARGET_WORDS.get(found["name"].strip().casefold())
        return None if target is None else ConfirmChannelTest(target=target)
    if found := _BIND.fullmatch(text):
        rest = found[2].strip()
        if MINI_PROGRAM in rest:
            return None  # the mini-program's own binding
        if found[1].casefold() in UNBIND_WORDS:
            return UnbindReceiver(channel=_channel(rest, t.UNBIND_HOW))
        return _bind(rest)
    return _test_named(text)


def _test_named(text: str) -> SendChannelTest | None:
    """A test cue and one channel's name anywhere in a short message (`测试下wxpusher
    通不通`, `发个测试消息试试 Server酱`); two names test every channel; None otherwise."""
    said = text.casefold()
    if len(said) > MAX_CHANNEL_TEST or any(ch.isdigit() for ch in said):
        return None
    if not any(cue in said for cue in CHANNEL_TEST_CUES):
        return None
    if any(word in said for word in CHANNEL_NOT_TEST_WORDS):
        return None
    named = {target for word, target in TARGET_WORDS.items() if word.casefold() in said}
    if not named:  # 发个测试消息看看通不通, 测试下渠道 看推送通不通: every channel
        nouns = (*CHANNEL_TEST_MESSAGES, *CHANNEL_TEST_NOUNS)
        return SendChannelTest() if any(w in said for w in nouns) else None
    return SendChannelTest(target=named.pop()) if len(named) == 1 else SendChannelTest()


def _tested(found: re.Match[str]) -> SendChannelTest | None:
    """The test a `_TEST` match asks for; None when the words after the test verb
    name no channel (`测试 一下体重`: not ours). A bare test verb needs 渠道 words."""
    if found["none"] is not None:
        return SendChannelTest()  # 发条测试消息
    if found["pushed"] is not None:
        return SendChannelTest()  # 推一条测试消息过来看看
    said = found["name"] or found["to"] or found["onto"] or found["asked"] or found["first"] or ""
    name = said.strip()  # 给WxPusher发个测试消息, 发条测试看看wxpusher通不通
    if not name:
        return SendChannelTest() if any(w in found[0] for w in CHANNEL_TEST_NOUNS) else None
    target = TARGET_WORDS.get(name.casefold())
    return None if target is None else SendChannelTest(target=target)


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
    rest = rest.removeprefix(MY_OWN).strip()  # 绑定我的Server酱，SendKey为SCT…
    folded = rest.casefold()
    for word in sorted(CHANNEL_WORDS, key=len, reverse=True):
        if folded.startswith(word) and word != "sct":
            channel, value = CHANNEL_WORDS[word], rest[len(word) :].strip(BIND_VALUE_MARKS)
            return BindReceiver(channel=channel, value=_checked(channel, value))
    if SENDKEY.fullmatch(rest) or SC3_KEY.fullmatch(rest):
        return BindReceiver(channel="serverchan_user", value=_checked("serverchan_user", rest))
    if UID.fullmatch(rest):
        return BindReceiver(channel="wxpusher", value=rest)
    raise ParseError(t.BIND_HOW)


_KEY_WORDS = re.compile(KEY_WORDS_PATTERN, re.IGNORECASE)


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
