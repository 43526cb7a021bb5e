"""Per-recipient send budget under WeCom's message limits. Pure: no I/O, `now` injected.

WeCom lets one app send one member at most 30 messages a minute and 1000 an hour,
and silently drops the excess although the API answers errcode 0. So an `accepted`
is only as good as this budget: before sending, the caller loads the recipient's
recent accepted-send times (from the database, so every process sees the same
history) and asks `budget_decision`.

Decisions:

- Margin: by default we stop at 25 a minute and 900 an hour (`SAFE_PER_MINUTE`,
  `SAFE_PER_HOUR`), leaving room for clock skew between our processes and WeCom,
  for sends another tool makes with the same app, and for the odd send in flight
  whose acceptance is not yet recorded. A caller may ask for up to WeCom's own
  limits, never beyond them.
- Windows slide: a send at `t` counts while `now - t < window`. WeCom does not say
  how it aligns its windows; any fixed window is one of the sliding windows, so
  staying under the limit in every sliding window also stays under it in WeCom's.
- Sends stamped in the future (another host's clock ahead of ours) count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

__all__ = [
    "SAFE_PER_HOUR",
    "SAFE_PER_MINUTE",
    "WECOM_PER_HOUR",
    "WECOM_PER_MINUTE",
    "Allowed",
    "Defer",
    "budget_decision",
    "window_decision",
]

WECOM_PER_MINUTE = 30  # documented: per app and member
WECOM_PER_HOUR = 1000
SAFE_PER_MINUTE = 25
SAFE_PER_HOUR = 900
MINUTE = timedelta(minutes=1)
HOUR = timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class Allowed:
    """Send now."""


@dataclass(frozen=True, slots=True)
class Defer:
    """Do not send before `until` (merge, postpone, or fold into the next digest)."""

    until: datetime


def budget_decision(
    sent_at: Sequence[datetime],
    now: datetime,
    *,
    per_minute: int = SAFE_PER_MINUTE,
    per_hour: int = SAFE_PER_HOUR,
) -> Allowed | Defer:
    """May one more message go to this recipient at `now`?

    Args:
        sent_at: the recipient's accepted sends on this channel, at least those of
            the last hour, in any order; aware datetimes only.
        now: aware.
        per_minute, per_hour: the budget, at most WeCom's 30 and 1000.

    Returns:
        `Allowed()`, or `Defer(until)` with the earliest time one more send fits
        both windows.
    """
    _check(sent_at, now, per_minute, per_hour)
    recent = sorted((t for t in sent_at if now - t < HOUR), reverse=True)
    until = max(_free_at(recent, MINUTE, per_minute, now), _free_at(recent, HOUR, per_hour, now))
    return Allowed() if until <= now else Defer(until)


def _free_at(
    newest_first: list[datetime], window: timedelta, limit: int, now: datetime
) -> datetime:
    """When the window holds fewer than `limit` sends again (`now` if it does now).

    With the sends newest first, the window holds fewer than `limit` once the
    `limit`-th newest has left it, at that send's time + window.
    """
    if len(newest_first) < limit:
        return now
    return newest_first[limit - 1] + window


def _check(sent_at: Sequence[datetime], now: datetime, per_minute: int, per_hour: int) -> None:
    if now.tzinfo is None or any(t.tzinfo is None for t in sent_at):
        raise ValueError("naive datetime; pass aware ones")
    if not (1 <= per_minute <= WECOM_PER_MINUTE and 1 <= per_hour <= WECOM_PER_HOUR):
        raise ValueError("budget must be positive and within WeCom's 30/minute, 1000/hour")


def window_decision(
    sent_at: Sequence[datetime], now: datetime, windows: Sequence[tuple[timedelta, int]]
) -> Allowed | Defer:
    """May one more call go out at `now` under any provider's sliding windows?

    The same rule as `budget_decision`, for limits other than WeCom's per-member
    ones (a group robot's 20 a minute, WxPusher's 20 per 10 seconds): each
    `(window, limit)` allows at most `limit` calls in any `window`.

    Args:
        sent_at: the calls already made, at least those inside the longest window;
            aware datetimes only.
        now: aware.
        windows: (window, limit) pairs, each limit at least 1.

    Returns:
        `Allowed()`, or `Defer(until)` with the earliest time one more call fits every
        window.
    """
    if now.tzinfo is None or any(t.tzinfo is None for t in sent_at):
        raise ValueError("naive datetime; pass aware ones")
    if any(limit < 1 or window <= timedelta(0) for window, limit in windows):
        raise ValueError("each window needs a positive length and a limit of at least 1")
    newest_first = sorted(sent_at, reverse=True)
    until = max(
        (_free_at([t for t in newest_first if now - t < w], w, n, now) for w, n in windows),
        default=now,
    )
    return Allowed() if until <= now else Defer(until)
