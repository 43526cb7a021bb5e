"""Decrypted WeCom XML -> `Incoming`, a plain value the conversation can handle.

wechatpy does the parsing; this module adds what it lacks: a total function (any
malformed input raises `MalformedMessage`, nothing else), the idempotency key
(MsgId for messages; FromUserName + CreateTime + Event + EventKey for events, which
carry no MsgId), and support for events wechatpy 1.8 does not know
(`template_card_event` comes back as `UnknownMessage`; we read its raw fields).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from wechatpy.enterprise import parse_message

KEY_LIMIT = 191  # the dedup_key column's length


class MalformedMessage(Exception):
    """The decrypted XML is not a WeCom message we can read."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Incoming:
    dedup_key: str
    from_user: str
    msg_type: str  # "text", "event", "image", ...
    event: str  # lower-case event name, "" for non-events
    content: str  # the text, or the event key
    create_time: int  # WeCom's CreateTime, Unix seconds


def read_message(xml: str) -> Incoming:
    """Read decrypted message XML. Raises `MalformedMessage` for anything unreadable."""
    try:
        message = parse_message(xml)
        data = dict(message._data)  # raw fields: covers events wechatpy does not model
    except Exception as exc:  # wechatpy/xmltodict raise assorted errors on bad XML
        raise MalformedMessage("unreadable message XML") from exc
    return _from_fields(data)


def _from_fields(data: dict[str, object]) -> Incoming:
    from_user = _text(data, "FromUserName")
    msg_type = _text(data, "MsgType").lower()
    create_time = _int(data, "CreateTime")
    if not from_user or not msg_type or len(from_user) > 64:
        raise MalformedMessage("message without a valid sender or type")
    event = _text(data, "Event").lower() if msg_type == "event" else ""
    content = _text(data, "Content") if msg_type == "text" else _text(data, "EventKey")
    return Incoming(
        dedup_key=_dedup_key(data, from_user, msg_type, event, create_time),
        from_user=from_user,
        msg_type=msg_type,
        event=event,
        content=content,
        create_time=create_time,
    )


def _dedup_key(
    data: dict[str, object], from_user: str, msg_type: str, event: str, create_time: int
) -> str:
    if msg_type != "event" and _text(data, "MsgId"):
        key = f"msg:{_text(data, 'MsgId')}"
    else:
        extra = _text(data, "EventKey") + _text(data, "TaskId") + _text(data, "Content")
        key = f"evt:{from_user}:{create_time}:{event or msg_type}:{extra}"
    if len(key) > KEY_LIMIT:
        key = "sha256:" + hashlib.sha256(key.encode()).hexdigest()
    return key


def _text(data: dict[str, object], name: str) -> str:
    value = data.get(name)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise MalformedMessage(f"{name} is not text")
    return value.strip() if name != "Content" else value


def _int(data: dict[str, object], name: str) -> int:
    value = _text(data, name)
    if not value.isdigit() or len(value) > 12:
        raise MalformedMessage(f"{name} is not a number")
    return int(value)
