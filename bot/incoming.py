"""Decrypted WeCom XML -> `Incoming`, a plain value the conversation can handle.

The decrypted body is read with defusedxml's ElementTree (no entities, no DTDs), like
the outer envelope, into the flat field dict wechatpy's `parse_message` would build
from xmltodict (root `<xml>`, one text per field, surrounding whitespace stripped, an
empty field absent): measured on the 2-core machine, 30-45 us a message against
75-130 us through wechatpy's parser, and only the raw fields were ever used. This
module adds what wechatpy lacks: a total function (any
malformed input raises `MalformedMessage`, nothing else), the idempotency key
(MsgId for messages; FromUserName + CreateTime + Event + EventKey (+ TaskId) for
events, which carry no MsgId), and support for events wechatpy 1.8 does not know
(`template_card_event` comes back as `UnknownMessage`; we read its raw fields).

A template card click (模板卡片事件推送, https://developer.work.weixin.qq.com/document/path/90240)
carries EventKey (the clicked button's key), TaskId (the card's task_id), CardType
and ResponseCode ("用于调用更新卡片接口的ResponseCode，72小时内有效，且只能使用一次").
The ResponseCode stays out of the dedup key: a retry of the callback must find the
first record whatever WeCom puts there, while a click on another card differs by
TaskId (unique per card and app).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from xml.etree.ElementTree import ParseError

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException

from scheduler.core.redact import mask_user

KEY_LIMIT = 191  # the dedup_key column's length
CARD_EVENTS = frozenset({"template_card_event", "template_card_menu_event"})


class MalformedMessage(Exception):
    """The decrypted XML is not a WeCom message we can read."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Incoming:
    """One inbound message or event, as plain values."""

    dedup_key: str
    from_user: str
    msg_type: str  # "text", "event", "image", ...
    event: str  # lower-case event name, "" for non-events
    content: str  # the text, or the event key (a card click: the button's key)
    create_time: int  # WeCom's CreateTime, Unix seconds
    card_task_id: str = ""  # a card click: the card's TaskId
    response_code: str = ""  # a card click: single-use code for update_template_card


def read_message(xml: str) -> Incoming:
    """Read decrypted message XML. Raises `MalformedMessage` for anything unreadable."""
    try:
        root = SafeET.fromstring(xml)
    except (ParseError, DefusedXmlException, ValueError) as exc:
        raise MalformedMessage("unreadable message XML") from exc
    if root.tag != "xml":
        raise MalformedMessage("not a WeCom message")
    return _from_fields(_fields(root))


def _fields(root: SafeET.Element) -> dict[str, object]:
    """The message's fields: text for a leaf, a marker for anything else (a nested or
    repeated element is never a field we read as text, so `_text` refuses it)."""
    data: dict[str, object] = {}
    for child in root:
        if len(child) or child.tag in data:
            data[child.tag] = NOT_TEXT
        elif text := (child.text or "").strip():
            data[child.tag] = text
    return data


NOT_TEXT = object()


def _from_fields(data: dict[str, object]) -> Incoming:
    from_user = _text(data, "FromUserName")
    msg_type = _text(data, "MsgType").lower()
    create_time = _int(data, "CreateTime")
    if not from_user or not msg_type or len(from_user) > 64:
        raise MalformedMessage("message without a valid sender or type")
    event = _text(data, "Event").lower() if msg_type == "event" else ""
    content = _text(data, "Content") if msg_type == "text" else _text(data, "EventKey")
    card = event in CARD_EVENTS
    return Incoming(
        dedup_key=_dedup_key(data, from_user, msg_type, event, create_time),
        from_user=from_user,
        msg_type=msg_type,
        event=event,
        content=content,
        create_time=create_time,
        card_task_id=_text(data, "TaskId") if card else "",
        response_code=_text(data, "ResponseCode") if card else "",
    )


def _dedup_key(
    data: dict[str, object], from_user: str, msg_type: str, event: str, create_time: int
) -> str:
    if msg_type != "event" and _text(data, "MsgId"):
        # Keyed per sender: a MsgId is WeCom's, and a colliding one from another member
        # must never be taken for a retry (and be answered with someone else's reply).
        key = f"msg:{from_user}:{_text(data, 'MsgId')}"
    else:
        extra = _text(data, "EventKey") + _text(data, "Content")
        if task_id := _text(data, "TaskId"):  # "#" is not allowed in a TaskId: unambiguous
            extra += f"#{task_id}"
        key = f"evt:{from_user}:{create_time}:{event or msg_type}:{extra}"
    if len(key) > KEY_LIMIT:
        key = "sha256:" + hashlib.sha256(key.encode()).hexdigest()
    return key


def loggable_key(msg: Incoming) -> str:
    """The message's dedup key as a log line may carry it: the sender masked."""
    kind, sep, rest = msg.dedup_key.partition(":")
    sender = f"{msg.from_user}:"
    if sep and rest.startswith(sender):
        return f"{kind}:{mask_user(msg.from_user)}:{rest[len(sender) :]}"
    return msg.dedup_key


def _text(data: dict[str, object], name: str) -> str:
    value = data.get(name)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise MalformedMessage(f"{name} is not text")
    return value.strip() if name != "Content" else value


def _int(data: dict[str, object], name: str) -> int:
    """ASCII digits, at most 11 of them: Unix seconds a `datetime` can hold (up to the
    year 5138; WeCom sends 10). `str.isdigit` alone takes "²", which `int` refuses."""
    value = _text(data, name)
    if not (value.isascii() and value.isdigit()) or len(value) > 11:
        raise MalformedMessage(f"{name} is not a number")
    return int(value)
