"""message/send's documented rules, as pure functions, plus what the fake records.

One role: what a valid message/send body is, what a phone shows for it, and
what counts as "the same message" for enable_duplicate_check. `FakeWeCom.send`
(in `fake_api`) applies these rules to its state.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from bot.sandbox.fake_protocol import Json, agent_error

__all__ = [
    "CONTENT_MAX_BYTES",
    "DUPLICATE_WINDOW_DEFAULT_S",
    "DUPLICATE_WINDOW_MAX_S",
    "ReceivedMessage",
    "content_of",
    "duplicate_key",
    "payload_error",
]

DUPLICATE_WINDOW_DEFAULT_S = 1800  # enable_duplicate_check's documented default...
DUPLICATE_WINDOW_MAX_S = 4 * 3600  # ...and maximum
CONTENT_MAX_BYTES = 2048  # text/markdown content limit; WeCom cuts longer text


@dataclass(frozen=True, kw_only=True, slots=True)
class ReceivedMessage:
    """One message the fake accepted for one recipient (as a phone would show it)."""

    recipient: str
    msgtype: str
    content: str  # text/markdown content (cut to 2048 bytes); template_card as JSON
    msgid: str
    received_at: datetime
    payload: Json  # the request body as sent
    response_code: str | None = None  # interactive cards only: good for one update


def payload_error(payload: Json | None, agent_id: int) -> int:
    """0, or the errcode for a body that is not JSON, for another app, or empty."""
    if payload is None:
        return 47001
    if code := agent_error(payload, agent_id):
        return code
    if payload.get("msgtype") not in ("text", "markdown", "template_card"):
        return 40008
    return 44004 if content_of(payload) is None else 0


def content_of(payload: Json) -> str | None:
    """The content as a phone shows it (cut to 2048 bytes), or None when empty."""
    msgtype = payload.get("msgtype")
    section = payload.get(str(msgtype))
    if not isinstance(section, dict) or not section:
        return None
    if msgtype == "template_card":
        return json.dumps(section, ensure_ascii=False, sort_keys=True)
    text = section.get("content")
    if not isinstance(text, str) or not text:
        return None
    return text.encode("utf-8")[:CONTENT_MAX_BYTES].decode("utf-8", "ignore")


def duplicate_key(payload: Json, recipients: list[str]) -> str:
    """What enable_duplicate_check compares: recipients (any case), type and body."""
    msgtype = payload.get("msgtype")
    parts = {"to": sorted(u.lower() for u in recipients), "type": msgtype}
    parts["body"] = payload.get(str(msgtype))
    return json.dumps(parts, ensure_ascii=False, sort_keys=True)
