"""Reading decrypted WeCom XML into `Incoming`, with idempotency keys."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.incoming import MalformedMessage, read_message
from bot.sandbox.wecom_side import event_xml, text_message_xml


def test_a_text_message_is_keyed_by_its_sender_and_msg_id() -> None:
    xml = text_message_xml(
        corp_id="ww", user="alice", text="喝水", create_time=1700000000, msg_id=42, agent_id=1
    )
    msg = read_message(xml)
    assert (msg.dedup_key, msg.from_user, msg.msg_type, msg.content) == (
        "msg:alice:42",
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
    assert msg.dedup_key == "evt:bob:1700000002:template_card_event:done#t9"
    assert (msg.content, msg.card_task_id, msg.response_code) == ("done", "t9", "")


# The documented sample (模板卡片事件推送, developer.work.weixin.qq.com/document/path/90240),
# button key and task id as keeper's cards carry them.
CARD_CLICK = """<xml>
<ToUserName><![CDATA[toUser]]></ToUserName>
<FromUserName><![CDATA[FromUser]]></FromUserName>
<CreateTime>123456789</CreateTime>
<MsgType><![CDATA[event]]></MsgType>
<Event><![CDATA[template_card_event]]></Event>
<EventKey><![CDATA[keeper:task:done:42]]></EventKey>
<TaskId><![CDATA[keeper-task-7-1]]></TaskId>
<CardType><![CDATA[button_interaction]]></CardType>
<ResponseCode><![CDATA[ResponseCode]]></ResponseCode>
<AgentID>1</AgentID>
<SelectedItems>
    <SelectedItem>
        <QuestionKey><![CDATA[QuestionKey1]]></QuestionKey>
        <OptionIds>
            <OptionId><![CDATA[OptionId1]]></OptionId>
            <OptionId><![CDATA[OptionId2]]></OptionId>
        </OptionIds>
    </SelectedItem>
</SelectedItems>
</xml>"""


def test_a_card_click_carries_the_button_key_the_card_and_its_response_code() -> None:
    msg = read_message(CARD_CLICK)
    assert (msg.msg_type, msg.event, msg.from_user) == ("event", "template_card_event", "FromUser")
    assert (msg.content, msg.card_task_id) == ("keeper:task:done:42", "keeper-task-7-1")
    assert (msg.response_code, msg.create_time) == ("ResponseCode", 123456789)
    assert msg.dedup_key == (
        "evt:FromUser:123456789:template_card_event:keeper:task:done:42#keeper-task-7-1"
    )


def test_a_retried_card_click_gets_the_same_key() -> None:
    assert read_message(CARD_CLICK).dedup_key == read_message(CARD_CLICK).dedup_key


def card_click(*, task_id: str, key: str = "keeper:water:done", code: str = "rc") -> str:
    extra = [("TaskId", task_id), ("CardType", "button_interaction"), ("ResponseCode", code)]
    return event_xml(
        corp_id="ww",
        user="bob",
        event="template_card_event",
        create_time=1700000003,
        agent_id=1,
        event_key=key,
        extra=extra,
    )


def test_the_same_button_on_another_card_in_the_same_second_gets_another_key() -> None:
    first = read_message(card_click(task_id="keeper-water-1-1"))
    second = read_message(card_click(task_id="keeper-water-2-1"))
    assert first.dedup_key != second.dedup_key


def test_the_response_code_does_not_change_the_key_of_a_retried_click() -> None:
    # A retry must find the first record even if WeCom handed out a new code in it.
    first = read_message(card_click(task_id="t1", code="code-a"))
    again = read_message(card_click(task_id="t1", code="code-b"))
    assert first.dedup_key == again.dedup_key
    assert (first.response_code, again.response_code) == ("code-a", "code-b")


def test_a_key_and_task_id_cannot_be_confused_with_another_split() -> None:
    # "#" is outside WeCom's task_id alphabet, so the split is unambiguous.
    a = read_message(card_click(key="done", task_id="t9"))
    b = read_message(card_click(key="don", task_id="et9"))
    assert a.dedup_key != b.dedup_key


def test_other_events_leave_the_card_fields_empty() -> None:
    xml = event_xml(
        corp_id="ww", user="bob", event="click", create_time=1, agent_id=1, event_key="k"
    )
    msg = read_message(xml)
    assert (msg.card_task_id, msg.response_code) == ("", "")


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
        # digits str.isdigit takes but int() refuses, and a time no datetime holds
        "<xml><FromUserName>a</FromUserName><MsgType>text</MsgType><CreateTime>²</CreateTime></xml>",
        "<xml><FromUserName>a</FromUserName><MsgType>text</MsgType><CreateTime>999999999999</CreateTime></xml>",
    ],
)
def test_malformed_xml_raises_malformed_message(xml: str) -> None:
    with pytest.raises(MalformedMessage):
        read_message(xml)


@given(st.text(max_size=300))
def test_any_text_reads_or_raises_malformed_message_only(xml: str) -> None:
    with contextlib.suppress(MalformedMessage):
        read_message(xml)
