"""The WxPusher channel: `POST {api_base}/api/send/message` with appToken and one uid.

`recipient` is one WxPusher UID (`UID_...`); topics are never used (a topic is a
broadcast). The message goes as plain text (contentType 1), its first line as the
summary the WeChat notification shows. Accepted means WxPusher created a send task
for this uid (its `sendRecordId` is the message id); sending happens later and may
still not reach WeChat (the ClawBot route's 10-a-day quota, for one), so never
"delivered". Budget: WxPusher allows about 2 requests a second ("每 10 秒最多 20
次"); the channel stays under it in this process.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from scheduler.channels.errors import Verdict, lookup
from scheduler.channels.webhook import Reply, Request, Timeouts, WebhookChannel
from scheduler.channels.wxpusher_errors import TABLE, classify_reply
from scheduler.core.channel import OutboundMessage

__all__ = ["CONTENT_MAX_CHARS", "WxPusherChannel", "WxPusherConfig", "wxpusher_payload"]

SEND_PATH = "/api/send/message"
CONTENT_MAX_CHARS = 40000
SUMMARY_MAX_CHARS = 100
PER_10_SECONDS = 20  # documented: 2 QPS, "每 10 秒最多 20 次"
UID = re.compile(r"UID_[A-Za-z0-9_-]{1,64}")
TEXT = 1  # contentType: 1 text, 2 HTML, 3 markdown


@dataclass(frozen=True, kw_only=True, slots=True)
class WxPusherConfig:
    """One WxPusher app. The appToken never shows in a repr."""

    api_base: str
    app_token: str = field(repr=False)
    timeouts: Timeouts = field(default_factory=Timeouts)
    per_10_seconds: int = PER_10_SECONDS

    def __post_init__(self) -> None:
        if not 1 <= self.per_10_seconds <= PER_10_SECONDS:
            raise ValueError(f"per_10_seconds must be within 1..{PER_10_SECONDS}")


def wxpusher_payload(app_token: str, uid: str, text: str) -> dict[str, Any]:
    """The send/message body: plain text to exactly one uid."""
    first_line = text.strip().split("\n", 1)[0]
    return {
        "appToken": app_token,
        "content": text,
        "summary": first_line[:SUMMARY_MAX_CHARS],
        "contentType": TEXT,
        "uids": [uid],
    }


class WxPusherChannel(WebhookChannel):
    """`Channel` over WxPusher's standard push (see the module docstring)."""

    name = "wxpusher"
    table = TABLE

    def __init__(self, config: WxPusherConfig, **kw: Any) -> None:
        window = ((timedelta(seconds=10), config.per_10_seconds),)
        super().__init__(timeouts=config.timeouts, windows=window, **kw)
        self.config = config

    def refuse(self, recipient: str, message: OutboundMessage) -> Verdict | None:
        if not UID.fullmatch(recipient):
            return lookup(TABLE, "recipient_refused", detail="recipient must be one UID_...")
        if len(message.text) > CONTENT_MAX_CHARS:
            return lookup(TABLE, "too_long", detail=f"{len(message.text)} characters")
        return None

    def request(self, recipient: str, message: OutboundMessage) -> Request:
        return Request(
            method="POST",
            url=self.config.api_base.rstrip("/") + SEND_PATH,
            json=wxpusher_payload(self.config.app_token, recipient, message.text),
        )

    def classify(self, reply: Reply, recipient: str) -> Verdict:
        return classify_reply(reply.status, reply.body, recipient, retry_after=reply.retry_after)

    def secrets(self) -> tuple[str, ...]:
        return (self.config.app_token,)
