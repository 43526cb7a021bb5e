"""The wecomchan-compatible channel: POST to the relay's URL with `msg` and `msg_type`.

For people who already run easychen/wecomchan (or anything answering the same
way). `KEEPER_WECOMCHAN_URL` is the relay's whole address including
`?sendkey=...` (PHP: `https://host/index.php?sendkey=...`; Go:
`http://host:8080/wecomchan?sendkey=...`); the message goes as a form body
(`msg`, `msg_type=text`), which both versions read, so the text never sits in a
URL. The relay decides who receives (its `touser`), so `recipient` is only
logged, masked. A POST, never a GET: aiohttp resends an idempotent GET after a
reset on a pooled connection, and a resend here is a second message.

Accepted means WeCom accepted it through the relay (its msgid kept). Budget: the
relay sends through a WeCom app, so WeCom's per-member limits apply to its
recipient: the channel stays under keeper's safe 25 a minute and 900 an hour.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit

from scheduler.channels.budget import HOUR, MINUTE, SAFE_PER_HOUR, SAFE_PER_MINUTE
from scheduler.channels.errors import Verdict, lookup
from scheduler.channels.webhook import Reply, Request, Timeouts, WebhookChannel
from scheduler.channels.wecomchan_errors import TABLE, classify_reply
from scheduler.core.channel import OutboundMessage

__all__ = ["WecomchanChannel", "WecomchanConfig", "sendkey_of"]

WINDOWS: tuple[tuple[timedelta, int], ...] = ((MINUTE, SAFE_PER_MINUTE), (HOUR, SAFE_PER_HOUR))


def sendkey_of(url: str) -> str:
    """The `sendkey` query value of a relay URL ("" when there is none)."""
    values = parse_qs(urlsplit(url).query).get("sendkey", [""])
    return values[0]


@dataclass(frozen=True, kw_only=True, slots=True)
class WecomchanConfig:
    """One relay. Its URL holds the sendkey, so it never shows in a repr."""

    url: str = field(repr=False)
    timeouts: Timeouts = field(default_factory=Timeouts)


class WecomchanChannel(WebhookChannel):
    """`Channel` over a wecomchan-compatible relay (see the module docstring)."""

    name = "wecomchan"
    table = TABLE

    def __init__(self, config: WecomchanConfig, **kw: Any) -> None:
        super().__init__(timeouts=config.timeouts, windows=WINDOWS, **kw)
        self.config = config

    def refuse(self, recipient: str, message: OutboundMessage) -> Verdict | None:
        if not message.text.strip():
            return lookup(TABLE, "empty", detail="empty msg")
        return None

    def request(self, recipient: str, message: OutboundMessage) -> Request:
        return Request(
            method="POST", url=self.config.url, form={"msg": message.text, "msg_type": "text"}
        )

    def classify(self, reply: Reply, recipient: str) -> Verdict:
        return classify_reply(reply.status, reply.body, retry_after=reply.retry_after)

    def secrets(self) -> tuple[str, ...]:
        return (sendkey_of(self.config.url),)
