"""The channel commands' grammar (`handlers.parse.channels`), as tables."""

from __future__ import annotations

import datetime as dt

import pytest

from handlers.channel_commands import (
    BindReceiver,
    SetFallbackChannel,
    SetPrimaryChannel,
    ShowChannels,
    UnbindReceiver,
)
from handlers.commands import Command, ParseError
from handlers.parse import parse
from handlers.parse.channels import mask, read_channels
from handlers.parse.key_mask import redact_sendkeys
from handlers.parse.normalise import normalise

TODAY = dt.date(2026, 11, 25)
UID = "UID_AbCd1234efGH"
KEY = "SCT12345TabcdEFGH6789"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("设置 渠道", ShowChannels()),
        ("设置渠道", ShowChannels()),
        ("渠道", ShowChannels()),
        ("设置 渠道 微信", SetPrimaryChannel(target="wechat")),
        ("设置渠道微信", SetPrimaryChannel(target="wechat")),
        ("设置渠道企业微信", SetPrimaryChannel(target="wecom_app")),
        ("设置主渠道WxPusher", SetPrimaryChannel(target="wxpusher")),
        ("设置渠道 个人微信", SetPrimaryChannel(target="wechat")),
        ("设置 渠道 企业微信", SetPrimaryChannel(target="wecom_app")),
        ("设置 主渠道 企微", SetPrimaryChannel(target="wecom_app")),
        ("设置 渠道 WxPusher", SetPrimaryChannel(target="wxpusher")),
        ("设置 渠道 server酱", SetPrimaryChannel(target="serverchan_user")),
        ("设置 备用 微信", SetFallbackChannel(target="wechat")),
        ("设置 备用渠道 企业微信", SetFallbackChannel(target="wecom_app")),
        ("设置 备用 关", SetFallbackChannel(target=None)),
        ("设置 备用 无", SetFallbackChannel(target=None)),
        ("设置 备用 OFF", SetFallbackChannel(target=None)),
        (f"绑定 WxPusher {UID}", BindReceiver(channel="wxpusher", value=UID)),
        (f"绑定 wxpusher {UID}", BindReceiver(channel="wxpusher", value=UID)),
        (f"绑定WxPusher{UID}", BindReceiver(channel="wxpusher", value=UID)),
        (f"绑定 {UID}", BindReceiver(channel="wxpusher", value=UID)),
        (f"绑定 Server酱 {KEY}", BindReceiver(channel="serverchan_user", value=KEY)),
        (f"绑定 server酱 {KEY}", BindReceiver(channel="serverchan_user", value=KEY)),
        (f"绑定 serverchan {KEY}", BindReceiver(channel="serverchan_user", value=KEY)),
        (f"绑定 方糖 {KEY}", BindReceiver(channel="serverchan_user", value=KEY)),
        (f"绑定 {KEY}", BindReceiver(channel="serverchan_user", value=KEY)),
        (f"绑定　Server酱　{KEY}。", BindReceiver(channel="serverchan_user", value=KEY)),
        ("解绑 WxPusher", UnbindReceiver(channel="wxpusher")),
        ("解绑 Server酱", UnbindReceiver(channel="serverchan_user")),
        ("解绑 方糖", UnbindReceiver(channel="serverchan_user")),
    ],
)
def test_channel_commands_are_read(text: str, expected: Command) -> None:
    assert parse(text, today=TODAY) == expected


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("绑定 WxPusher alice", "UID_ 开头"),
        ("绑定 WxPusher UID_", "UID_ 开头"),
        ("绑定 WxPusher UID_ab!cd", "UID_ 开头"),
        ("绑定 Server酱 SCT12", "SCT 开头"),
        ("绑定 Server酱 12345678901", "SCT 开头"),
        ("绑定 Server酱 sctp1234tabcdefgh", "Server酱³"),
        ("绑定", "绑定 WxPusher UID_xxxx"),
        ("绑定 微博 abc", "绑定 WxPusher UID_xxxx"),
        ("解绑 微博", "解绑 WxPusher"),
        ("设置 渠道 短信", "设置 渠道 微信"),
        ("设置 备用 短信", "设置 备用 关"),
    ],
)
def test_a_malformed_channel_command_gets_a_short_answer_without_the_value(
    text: str, answer: str
) -> None:
    with pytest.raises(ParseError) as raised:
        parse(text, today=TODAY)
    assert answer in raised.value.message
    assert "ab!cd" not in raised.value.message
    assert "sctp1234" not in raised.value.message


@pytest.mark.parametrize("text", ["绑定 小程序", "设置 作息 08:00-22:00", "喝水", "渠道费 20"])
def test_other_messages_are_left_to_the_other_readers(text: str) -> None:
    assert read_channels(text) is None


def test_a_bound_key_never_shows_in_a_command_repr() -> None:
    assert KEY not in repr(BindReceiver(channel="serverchan_user", value=KEY))


@pytest.mark.parametrize(
    ("value", "masked"),
    [
        ("UID_ab12345678cd9f", "UID_ab…9f"),
        ("SCT12345TabcdEFGxy", "SCT12…xy"),
        ("UID_abcd", "UID…"),
    ],
)
def test_receivers_are_masked(value: str, masked: str) -> None:
    assert mask(value) == masked


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (f"绑定 Server酱 {KEY}", "绑定 Server酱 SCT12…89"),
        (f"我的key是{KEY}", "我的key是SCT12…89"),
        ("绑定 Server酱 sctp1234tabcdefgh", "绑定 Server酱 sctp1…gh"),
        (f"绑定 WxPusher {UID}", f"绑定 WxPusher {UID}"),  # a UID is an address
        ("SCT 三楼", "SCT 三楼"),
        # glued to the channel word, or typed full-width: the parser binds all three
        (f"绑定 serverchan{KEY}", "绑定 serverchanSCT12…89"),
        (f"绑定 server chan{KEY}", "绑定 server chanSCT12…89"),
        ("绑定 Server酱 ＳＣＴ１２３４５ＴａｂｃｄＥＦＧＨ６７８９", "绑定 Server酱 SCT12…89"),
    ],
)
def test_sendkeys_are_masked_before_a_message_is_stored(text: str, kept: str) -> None:
    assert redact_sendkeys(text) == kept


@pytest.mark.parametrize(
    "text",
    [
        f"绑定 serverchan{KEY}",
        f"绑定 server chan{KEY}",
        "绑定 Server酱 ＳＣＴ１２３４５ＴａｂｃｄＥＦＧＨ６７８９",
        f"绑定 Server酱 {KEY}",
    ],
)
def test_whatever_the_parser_binds_is_masked_in_the_stored_text(text: str) -> None:
    command = parse(text, today=TODAY)
    assert isinstance(command, BindReceiver)
    assert command.value == KEY
    assert KEY not in redact_sendkeys(text)
    assert command.value not in normalise(redact_sendkeys(text))
