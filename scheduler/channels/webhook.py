"""The shell the key-in-the-URL channels share: one HTTP call, classified, budgeted.

The group robot, WxPusher, Server酱 and wecomchan are each one request per message
with a static credential (no token to fetch). `WebhookChannel` does what is the
same for all of them, in the order `send` shows: refuse what cannot be sent without
a call, keep the channel's own budget, make the call (never raising for a network
failure: `wecom_app.transport_signal` says whether the request was written),
classify the reply with the channel's table, redact the channel's credential from
the error text, log one line. A subclass says only what is its own: how to build
the request, how to read the answer, which values are secret.

The budget is counted in this process, from the calls this channel object made
(every call written counts, whatever its answer: providers count requests, not
successes). A caller that wants the count across processes keeps it in the
database, as the delivery code does for the WeCom app, from `windows`.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp

from scheduler.channels.budget import Defer, window_decision
from scheduler.channels.errors import Rule, Verdict, describe, lookup
from scheduler.channels.http_client import SessionHolder
from scheduler.channels.wecom_app import transport_signal
from scheduler.core.channel import OutboundMessage, SendResult
from scheduler.core.redact import (
    ERROR_MAX_CHARS,
    REDACTED,
    mask_user,
    redact,
    secret_values,
)
from storage.vocabulary import AttemptOutcome, ErrorClass

__all__ = ["Reply", "Request", "Timeouts", "WebhookChannel"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True, kw_only=True, slots=True)
class Timeouts:
    """Seconds to open a connection, and for the whole call."""

    connect: float = 5.0
    total: float = 15.0

    def __post_init__(self) -> None:
        if not 0 < self.connect <= self.total:
            raise ValueError("need 0 < connect timeout <= total timeout")


@dataclass(frozen=True, kw_only=True, slots=True)
class Request:
    """One HTTP request: a JSON body or a form body (never both), query parameters."""

    method: str
    url: str
    params: Mapping[str, str] | None = None
    json: Mapping[str, Any] | None = None
    form: Mapping[str, str] | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Reply:
    """What came back: the status, the raw body, the raw `Retry-After` header."""

    status: int
    body: bytes
    retry_after: str | None = None


def _utc_now() -> datetime:
    return datetime.now(UTC)


class WebhookChannel(SessionHolder, ABC):
    """A `Channel` that is one HTTP call per message; subclasses fill in the four hooks.

    Use as `async with Channel(config) as channel:` (it owns a session) or pass
    `session=` (the caller closes it). `now` and `monotonic` are the clocks.
    """

    name = "webhook"
    table: Mapping[int | str, Rule]

    def __init__(
        self,
        *,
        timeouts: Timeouts,
        windows: tuple[tuple[timedelta, int], ...],
        session: aiohttp.ClientSession | None = None,
        now: Callable[[], datetime] = _utc_now,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(session)
        self.windows = windows
        self._now, self._monotonic = now, monotonic
        self._timeout = aiohttp.ClientTimeout(
            total=timeouts.total, connect=timeouts.connect, sock_connect=timeouts.connect
        )
        self._calls: deque[datetime] = deque()

    # -- the hooks ------------------------------------------------------------------

    @abstractmethod
    def refuse(self, recipient: str, message: OutboundMessage) -> Verdict | None:
        """A verdict when the message cannot be sent at all (no call is made)."""

    @abstractmethod
    def request(self, recipient: str, message: OutboundMessage) -> Request:
        """The HTTP request that sends `message`."""

    @abstractmethod
    def classify(self, reply: Reply, recipient: str) -> Verdict:
        """The verdict for the provider's reply."""

    @abstractmethod
    def secrets(self) -> tuple[str, ...]:
        """The credential values that must never leave in an error or a log line."""

    # -- the shell ------------------------------------------------------------------

    async def send(self, recipient: str, message: OutboundMessage) -> SendResult:
        """Send `message` for `recipient` and say what happened; never raises for a
        provider or network failure (see the module docstring for the order)."""
        started = self._monotonic()
        verdict = self.refuse(recipient, message) or self._over_budget()
        if verdict is None:
            verdict = await self._exchange(recipient, message)
        result = self._result(verdict, started, recipient)
        self._log(recipient, result)
        return result

    def _over_budget(self) -> Verdict | None:
        now = self._now()
        longest = max((window for window, _ in self.windows), default=timedelta(0))
        while self._calls and now - self._calls[0] >= longest:
            self._calls.popleft()
        decision = window_decision(self._calls, now, self.windows)
        if not isinstance(decision, Defer):
            self._calls.append(now)
            return None
        wait = (decision.until - now).total_seconds()
        return lookup(
            self.table, "over_budget", detail=f"next call in {wait:.0f} s", retry_after=wait
        )

    async def _exchange(self, recipient: str, message: OutboundMessage) -> Verdict:
        request = self.request(recipient, message)
        try:
            reply = await self._call(request)
        except (aiohttp.ClientError, TimeoutError) as exc:
            return lookup(self.table, transport_signal(exc), detail=describe(exc))
        return self.classify(self._scrubbed(reply), recipient)

    def _scrubbed(self, reply: Reply) -> Reply:
        """The reply with every credential taken out of its body before anything reads
        it: error tables cut a non-JSON page to a snippet, and a page that echoes the
        request (a proxy's "Cannot POST /SCT....send") must not leave half a key behind
        the cut, where no later redaction could recognise it."""
        body = reply.body
        for secret in secret_values(self.secrets()):
            body = body.replace(secret.encode(), REDACTED.encode())
        return reply if body is reply.body else dataclasses.replace(reply, body=body)

    async def _call(self, request: Request) -> Reply:
        session = self.require_session()
        async with session.request(
            request.method,
            request.url,
            params=request.params,
            json=request.json,
            data=request.form,
            timeout=self._timeout,
        ) as response:
            body = await response.read()
            return Reply(
                status=response.status, body=body, retry_after=response.headers.get("Retry-After")
            )

    def _result(self, verdict: Verdict, started: float, recipient: str) -> SendResult:
        rule = verdict.rule
        error = "" if rule.outcome == AttemptOutcome.ACCEPTED else f"{rule.note}; {verdict.detail}"
        # An error page may echo the request body, and with it the recipient.
        error = redact(error, self.secrets(), users=(recipient,), max_length=ERROR_MAX_CHARS)
        return SendResult(
            outcome=rule.outcome,
            error_class=rule.error_class,
            provider_code=verdict.provider_code,
            provider_message_id=verdict.message_id,
            error=error,
            retry_after=verdict.retry_after if rule.outcome == AttemptOutcome.RETRY else None,
            duration_ms=round((self._monotonic() - started) * 1000),
        )

    def _log(self, recipient: str, result: SendResult) -> None:
        level = logging.INFO if result.outcome == AttemptOutcome.ACCEPTED else logging.WARNING
        if result.error_class == ErrorClass.CONFIG:
            level = logging.ERROR  # every message on this channel fails until an admin acts
        extra = {
            "channel": self.name,
            "recipient": mask_user(recipient),
            "outcome": result.outcome,
            "error_class": result.error_class,
            "provider_code": result.provider_code,
            "provider_message_id": result.provider_message_id,
            "duration_ms": result.duration_ms,
        }
        error = result.error or "ok"
        logger.log(level, "%s send %s: %s", self.name, result.outcome, error, extra=extra)
