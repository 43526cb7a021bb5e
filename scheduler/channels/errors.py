"""What every channel's error table shares: `Rule`, `Verdict`, and the transport rows.

Each channel keeps one table of its own (`wecom_errors`, `robot_errors`,
`wxpusher_errors`, `serverchan_errors`, `wecomchan_errors`, `mp_subscribe_errors`):
every provider code and every named signal mapped to one `Rule` (an outcome and an
error class), and `lookup` turns a signal into a `Verdict`. A reader needs that
table and this module, nothing else. What is the same for any provider reached over
HTTP is defined once here, for the reasons `wecom_errors` gives:

- no connection (refused, DNS, connect timeout): nothing was written, so retry;
- a timeout, a reset, an HTTP 5xx or a body that is not the provider's answer after
  the request was written: uncertain, because the provider may have acted on it;
- HTTP 429: retry later; any other HTTP 4xx without the provider's answer: config
  (a proxy or a wrong base URL refuses every message until an admin fixes it);
- over the channel's own budget: retry later, nothing was sent.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from scheduler.core.user_ids import ID_CHARACTERS
from storage.vocabulary import AttemptOutcome, ErrorClass

__all__ = [
    "TRANSPORT",
    "Rule",
    "Verdict",
    "accepted",
    "config",
    "describe",
    "http_signal",
    "lookup",
    "permanent",
    "retry_after_seconds",
    "snippet",
    "transient",
    "uncertain",
    "unreadable",
]


@dataclass(frozen=True, slots=True)
class Rule:
    """What one signal means. `retry_after` is a minimum wait hint in seconds."""

    outcome: AttemptOutcome
    error_class: ErrorClass
    note: str
    refresh_token: bool = False
    retry_after: float | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Verdict:
    """A classified call: the signal, its rule, and what the reply carried.

    `detail` is raw (errmsg or exception text); the caller redacts it.
    """

    signal: int | str
    rule: Rule
    provider_code: int | None = None
    message_id: str | None = None
    detail: str = ""
    retry_after: float | None = None


def accepted(note: str) -> Rule:
    return Rule(AttemptOutcome.ACCEPTED, ErrorClass.NONE, note)


def transient(note: str, retry_after: float | None = None) -> Rule:
    return Rule(AttemptOutcome.RETRY, ErrorClass.TRANSIENT, note, retry_after=retry_after)


def config(note: str) -> Rule:
    return Rule(AttemptOutcome.FAILED, ErrorClass.CONFIG, note)


def permanent(note: str) -> Rule:
    return Rule(AttemptOutcome.FAILED, ErrorClass.PERMANENT, note)


def uncertain(note: str) -> Rule:
    return Rule(AttemptOutcome.UNKNOWN, ErrorClass.UNCERTAIN, note)


TRANSPORT: Final[Mapping[int | str, Rule]] = MappingProxyType(
    {
        "connect_failed": transient("could not connect; nothing was sent"),
        "timeout_after_send": uncertain("timed out after the request was sent"),
        "reset_after_send": uncertain("connection lost after the request was sent"),
        "http_5xx": uncertain("HTTP 5xx after the request was sent"),
        "http_429": transient("HTTP 429 from a proxy"),
        "http_4xx": config("HTTP 4xx: a proxy or the base URL refused the request"),
        "bad_body": uncertain("reply is not the provider's answer; it may have been processed"),
        "over_budget": transient("over the channel's send budget; nothing was sent"),
    }
)


def http_signal(status: int) -> str | None:
    if 200 <= status < 300:
        return None
    if status == 429:
        return "http_429"
    return "http_5xx" if status >= 500 else "http_4xx"


def retry_after_seconds(header: str | None) -> float | None:
    """Retry-After in seconds; an HTTP date or nonsense is ignored (the backoff decides)."""
    try:
        seconds = float(header) if header is not None else None
    except ValueError:
        return None
    return max(seconds, 0.0) if seconds is not None and math.isfinite(seconds) else None


def snippet(body: bytes, limit: int = 200) -> str:
    """The start of a body that is not the provider's answer (a proxy's page), on one line.

    A cut text ends in `…`. A word of UserID characters the cut would halve is
    dropped whole: the front half of a UserID is something no later redaction can
    recognise (a longer run cannot be a UserID and is cut as it is)."""
    text = " ".join(body[: limit * 4 + 4].decode("utf-8", "replace").split())
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    if _ID_CHAR.match(text[limit - 1]):
        head = _HALF_ID.sub("", head)
    return head + "…"


_ID_CHAR = re.compile(f"[{ID_CHARACTERS}]")
_HALF_ID = re.compile(f"(?<![{ID_CHARACTERS}])[{ID_CHARACTERS}]{{1,64}}$")


def unreadable(
    table: Mapping[int | str, Rule],
    status: int,
    signal: str | None,
    body: bytes,
    retry_after: str | None,
) -> Verdict:
    """The verdict for a reply that is not the provider's answer: an HTTP failure
    (`signal`), or else a body the table's parser could not read ("bad_body"), with
    the start of the body as the detail."""
    text = snippet(body)
    return lookup(
        table,
        signal or "bad_body",
        detail=f"HTTP {status}: {text}" if text else f"HTTP {status}",
        retry_after=retry_after_seconds(retry_after),
    )


def lookup(
    table: Mapping[int | str, Rule],
    signal: int | str,
    *,
    detail: str = "",
    retry_after: float | None = None,
    message_id: str | None = None,
) -> Verdict:
    """The verdict for `signal` in `table`; an int missing from it is `unknown_code`.

    The int, when there is one, is kept as the provider code; `message_id` is kept
    only when the rule is accepted; `retry_after` falls back to the rule's hint.
    """
    rule = table.get(signal) or table["unknown_code"]
    return Verdict(
        signal=signal,
        rule=rule,
        provider_code=signal if isinstance(signal, int) else None,
        message_id=message_id if rule.outcome == AttemptOutcome.ACCEPTED else None,
        detail=detail,
        retry_after=retry_after if retry_after is not None else rule.retry_after,
    )


def describe(exc: BaseException) -> str:
    """An exception as `Type: text` (the caller redacts it)."""
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
