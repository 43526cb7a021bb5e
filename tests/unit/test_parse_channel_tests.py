"""`测试 渠道` and `收到 <渠道>` in the parser (`handlers.parse.channels`), as tables:
what they read, and what they leave to the other readers."""

from __future__ import annotations

import datetime as dt

import pytest

from handlers.channel_commands import ConfirmChannelTest, SendChannelTest
from handlers.commands import AnswerNag, Command, ParseError
from handlers.parse import parse
from handlers.parse.channels import read_channels

TODAY = dt.date(2026, 11, 25)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("测试 渠道", SendChannelTest()),
        ("测试渠道", SendChannelTest()),
        ("测一下渠道", SendChannelTest()),
        ("测试一下通道", SendChannelTest()),
        ("发条测试消息", SendChannelTest()),
        ("给我发一条测试消息", SendChannelTest()),
        ("试试推送能不能收到", SendChannelTest()),
        ("测试 渠道 WxPusher", SendChannelTest(target="wxpusher")),
        ("测试一下WxPusher", SendChannelTest(target="wxpusher")),
        ("测试 渠道 企业微信", SendChannelTest(target="wecom_app")),
        ("测试 Server酱", SendChannelTest(target="serverchan_user")),
        ("测试 渠道 微信", SendChannelTest(target="wechat")),
        ("收到 WxPusher", ConfirmChannelTest(target="wxpusher")),
        ("收到 企业微信应用", ConfirmChannelTest(target="wecom_app")),
        ("收到了 Server酱", ConfirmChannelTest(target="serverchan_user")),
        ("收到", AnswerNag(word="收到")),  # bare: the nag, else a waiting test
    ],
)
def test_a_channel_test_and_its_answer_are_read(text: str, expected: Command) -> None:
    assert parse(text, today=TODAY) == expected


@pytest.mark.parametrize("text", ["收到快递", "测试一下体重", "测试", "收到 工资"])
def test_other_words_after_the_verbs_are_left_to_the_other_readers(text: str) -> None:
    assert read_channels(text) is None
    try:
        found = parse(text, today=TODAY)
    except ParseError:
        return  # not understood, as before
    assert not isinstance(found, SendChannelTest | ConfirmChannelTest)
