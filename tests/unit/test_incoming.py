"""Reading decrypted WeCom XML into `Incoming`, with idempotency keys."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.incoming import MalformedMessage, read_message
from bot.sandbox.wecom_side import event_xml, text_message_xml


def test_a_text_message_is_keyed_by_its_msg_id() -> None:
    xml = text_message_xml(
        corp_id="ww", user="alice", text="喝水", create_time=1700000000, msg_id=42, agent_id=1
    )
    msg = read_message(xml)
    assert (msg.dedup_key, msg.from_user, msg.msg_type, msg.content) == (
        "msg:42",
        "alice",
        "text",
        "喝水",
    )
    assert msg.create_time == 1700000000


def test_an_event_is_keyed_by_sender_time_event_and_key() -> None:
    xml = event_xml(
        corp_id="ww",
        user="bob",
        event="click",
        create_time=1700000001,
        agent_id=1,
        event_key="today",
    )
    msg = read_message(xml)
    assert msg.dedup_key == "evt:bob:1700000001:click:today"
    assert (msg.msg_type, msg.event, msg.content) == ("event", "click", "today")


def test_a_template_card_event_unknown_to_wechatpy_is_read_from_raw_fields() -> None:
    xml = event_xml(
        corp_id="ww",
        user="bob",
        event="template_card_event",
        create_time=1700000002,
        agent_id=1,
        event_key="done",
        extra=[("TaskId", "t9")],
    )
    msg = read_message(xml)
    assert msg.event == "template_card_event"
    assert msg.dedup_key == "evt:bob:1700000002:template_card_event:donet9"


def test_an_overlong_key_is_hashed_to_fit_the_column() -> None:
    xml = event_xml(
        corp_id="ww", user="bob", event="click", create_time=1, agent_id=1, event_key="k" * 300
    )
    key = read_message(xml).dedup_key
    assert key.startswith("sha256:")
    assert len(key) <= 191


@pytest.mark.parametrize(
    "xml",
    [
        "",
        "not xml",
        "<xml></xml>",
        "<xml><MsgType>text</MsgType></xml>",
        "<xml><FromUserName>a</FromUserName><MsgType>text</MsgType><CreateTime>soon</CreateTime></xml>",
        "<xml><FromUserName><b>x</b></FromUserName><MsgType>text</MsgType><CreateTime>1</CreateTime></xml>",
        "<other/>",
    ],
)
def test_malformed_xml_raises_malformed_message(xml: str) -> None:
    with pytest.raises(MalformedMessage):
        read_message(xml)


@given(st.text(max_size=300))
def test_any_text_reads_or_raises_malformed_message_only(xml: str) -> None:
    with contextlib.suppress(MalformedMessage):
        read_message(xml)
