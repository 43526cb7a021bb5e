"""The channel interface: one message to one explicit recipient, one tracked result.

A channel is an adapter to a provider (the WeCom app API first; a WeCom group
robot, WxPusher or ServerChan later). The scheduler hands it an `OutboundMessage`
and records the returned `SendResult` as a `delivery_attempt`; a channel never
raises for a provider or network failure, it classifies it.

The interface sits in the pure core because the retry policy (`outcomes`) reads and
makes `SendResult`; the adapters that implement `Channel` are the engine's
(`scheduler/channels/`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from scheduler.core.redact import ERROR_MAX_CHARS
from storage.vocabulary import AttemptOutcome, ErrorClass

__all__ = ["CardUpdater", "Channel", "OutboundMessage", "SendResult"]


@dataclass(frozen=True, kw_only=True, slots=True)
class OutboundMessage:
    """What to send.

    Attributes:
        text: the text as the recipient will read it.
        dedup: ask the provider to drop an identical repeat (WeCom's
            `enable_duplicate_check`); set for at-least-once rules that may resend.
        card: a provider card payload (WeCom `template_card`); when given it is
            sent instead of `text`.
    """

    text: str
    dedup: bool = False
    card: dict[str, Any] | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class SendResult:
    """The outcome of one channel call, ready to be stored as a delivery attempt.

    `error` is already redacted (no token, secret or key) and at most 500 characters;
    `retry_after` is a lower bound in seconds for the next try, when the provider
    hinted one; `provider_message_id` is kept only for accepted sends.
    """

    outcome: AttemptOutcome
    error_class: ErrorClass
    provider_code: int | None = None
    provider_message_id: str | None = None
    error: str = ""
    retry_after: float | None = None
    duration_ms: int = 0

    def __post_init__(self) -> None:
        if len(self.error) > ERROR_MAX_CHARS:
            raise ValueError(f"error text longer than {ERROR_MAX_CHARS} characters")
        if (self.outcome == AttemptOutcome.ACCEPTED) != (self.error_class == ErrorClass.NONE):
            raise ValueError("error_class 'none' goes with outcome 'accepted' only")


class Channel(Protocol):
    """A way to reach a person. Implementations classify, they never raise on failure."""

    name: str

    async def send(self, recipient: str, message: OutboundMessage) -> SendResult:
        """Send `message` to exactly one `recipient` (a provider user id, never a
        broadcast) and say what happened."""
        ...


class CardUpdater(Protocol):
    """A channel that can grey out the button of an interactive card it sent.

    Classified exactly like `Channel.send`: it never raises for a provider or
    network failure. On WeCom a `response_code` is single-use and expires (72 h),
    so a refused code is a permanent failure: nothing to retry.
    """

    async def update_card(
        self, recipient: str, response_code: str, replace_name: str
    ) -> SendResult:
        """Replace the clicked card's buttons, for `recipient` only, by one greyed-out
        button labelled `replace_name`, consuming `response_code`."""
        ...
