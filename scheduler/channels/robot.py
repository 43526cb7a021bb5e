"""The WeCom group robot channel: `POST {api_base}/cgi-bin/webhook/send?key=KEY`.

The robot posts into the one group it belongs to; the key in the URL is its whole
credential. `recipient` is the member's UserID, @-mentioned in a text message so
that their phone rings (a markdown message cannot mention by list, so it only
posts). `@all` is refused, as on every channel. Cards are not sent: the robot's
template_card takes no callback, so the message's text goes instead.

Limits (official robot page): text at most 2048 bytes, markdown 4096 (UTF-8); a
longer message is refused here without a call, so it is never cut. 20 messages a
minute per robot: the channel's budget (`windows`), counted in this process.
Accepted means the robot took it; no message id comes back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Literal

from scheduler.channels.errors import Verdict, lookup
from scheduler.channels.robot_errors import TABLE, classify_reply
from scheduler.channels.webhook import Reply, Request, Timeouts, WebhookChannel
from scheduler.core.channel import OutboundMessage

__all__ = ["MAX_BYTES", "PER_MINUTE", "RobotChannel", "RobotConfig", "robot_payload"]

SEND_PATH = "/cgi-bin/webhook/send"
MAX_BYTES = {"text": 2048, "markdown": 4096}  # content, UTF-8
PER_MINUTE = 20  # documented, per robot
USER_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}")  # as wecom_app: refuses @all


@dataclass(frozen=True, kw_only=True, slots=True)
class RobotConfig:
    """One group robot. The key never shows in a repr."""

    api_base: str
    key: str = field(repr=False)
    msgtype: Literal["text", "markdown"] = "text"
    timeouts: Timeouts = field(default_factory=Timeouts)
    per_minute: int = PER_MINUTE

    def __post_init__(self) -> None:
        if not 1 <= self.per_minute <= PER_MINUTE:
            raise ValueError(f"per_minute must be within 1..{PER_MINUTE}")


def robot_payload(recipient: str, text: str, msgtype: str) -> dict[str, Any]:
    """The webhook/send body: text mentioning `recipient`, or plain markdown."""
    if msgtype == "markdown":
        return {"msgtype": "markdown", "markdown": {"content": text}}
    return {"msgtype": "text", "text": {"content": text, "mentioned_list": [recipient]}}


class RobotChannel(WebhookChannel):
    """`Channel` over one WeCom group robot (see the module docstring)."""

    name = "wecom_robot"
    table = TABLE

    def __init__(self, config: RobotConfig, **kw: Any) -> None:
        window = ((timedelta(minutes=1), config.per_minute),)
        super().__init__(timeouts=config.timeouts, windows=window, **kw)
        self.config = config

    def refuse(self, recipient: str, message: OutboundMessage) -> Verdict | None:
        if not USER_ID.fullmatch(recipient):
            return lookup(TABLE, "recipient_refused", detail="recipient must be one UserID")
        size, limit = len(message.text.encode()), MAX_BYTES[self.config.msgtype]
        if size > limit:
            return lookup(TABLE, "too_long", detail=f"{size} bytes, limit {limit}")
        return None

    def request(self, recipient: str, message: OutboundMessage) -> Request:
        return Request(
            method="POST",
            url=self.config.api_base.rstrip("/") + SEND_PATH,
            params={"key": self.config.key},
            json=robot_payload(recipient, message.text, self.config.msgtype),
        )

    def classify(self, reply: Reply, recipient: str) -> Verdict:
        return classify_reply(reply.status, reply.body, retry_after=reply.retry_after)

    def secrets(self) -> tuple[str, ...]:
        return (self.config.key,)
