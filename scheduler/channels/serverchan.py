"""The Server酱 Turbo channel: `POST {api_base}/<SendKey>.send` with title and desp.

A SendKey belongs to one person, who reads the push in the channel they chose on
sct.ftqq.com (方糖 service account, WeCom, ...): the key is the address, so
`recipient` (that person's keeper UserID) is only logged, masked. The key sits in
the URL path, where the shared URL redaction cannot see it: the channel redacts
its value from every error text.

The title is the message's first line, at most 32 characters and no newline
(Server酱 refuses a newline in it); desp is the whole text (markdown, at most
32 KB). Accepted means Server酱 queued the push (`pushid`); its `wxstatus` says
later whether WeChat took it. Budget: Server酱's limit is a daily quota whose size
depends on the account (UNCONFIRMED: 5 a day on the free tier), so none is counted
here unless `per_day` is set; the quota's answer is a clear failure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from scheduler.channels.errors import Verdict, lookup
from scheduler.channels.serverchan_errors import TABLE, classify_reply
from scheduler.channels.webhook import Reply, Request, Timeouts, WebhookChannel
from scheduler.core.channel import OutboundMessage

__all__ = ["DESP_MAX_BYTES", "TITLE_MAX_CHARS", "ServerChanChannel", "ServerChanConfig", "title_of"]

TITLE_MAX_CHARS = 32
DESP_MAX_BYTES = 32 * 1024


@dataclass(frozen=True, kw_only=True, slots=True)
class ServerChanConfig:
    """One SendKey. The key never shows in a repr."""

    api_base: str
    sendkey: str = field(repr=False)
    timeouts: Timeouts = field(default_factory=Timeouts)
    per_day: int | None = None


def title_of(text: str) -> str:
    """The first non-empty line, cut to 32 characters (the last one `…` when cut)."""
    line = next((part.strip() for part in text.splitlines() if part.strip()), "")
    return line if len(line) <= TITLE_MAX_CHARS else line[: TITLE_MAX_CHARS - 1] + "…"


class ServerChanChannel(WebhookChannel):
    """`Channel` over Server酱 Turbo (see the module docstring)."""

    name = "serverchan"
    table = TABLE

    def __init__(self, config: ServerChanConfig, **kw: Any) -> None:
        window = () if config.per_day is None else ((timedelta(days=1), config.per_day),)
        super().__init__(timeouts=config.timeouts, windows=window, **kw)
        self.config = config

    def refuse(self, recipient: str, message: OutboundMessage) -> Verdict | None:
        if not title_of(message.text):
            return lookup(TABLE, "empty", detail="no text for a title")
        if (size := len(message.text.encode())) > DESP_MAX_BYTES:
            return lookup(TABLE, "too_long", detail=f"{size} bytes, limit {DESP_MAX_BYTES}")
        return None

    def request(self, recipient: str, message: OutboundMessage) -> Request:
        return Request(
            method="POST",
            url=f"{self.config.api_base.rstrip('/')}/{self.config.sendkey}.send",
            form={"title": title_of(message.text), "desp": message.text},
        )

    def classify(self, reply: Reply, recipient: str) -> Verdict:
        return classify_reply(reply.status, reply.body, retry_after=reply.retry_after)

    def secrets(self) -> tuple[str, ...]:
        return (self.config.sendkey,)
