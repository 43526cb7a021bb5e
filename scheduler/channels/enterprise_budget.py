"""WeCom's limits per enterprise, shared by every worker. Pure: no I/O, `now` injected.

WeCom allows each API at most 10,000 calls a minute and 150,000 an hour per
enterprise, and an app at most (licensed members x 200) recipient-sends a day
(`KEEPER_WECOM_DAILY_CAP`). The counts live in the database (`storage.repos.api_budget`)
so that several workers spend one budget; this module only does the arithmetic.

How a window is counted without a row per call: each window is cut into `buckets`
equal buckets (a minute into 5 s ones, an hour into 5 min ones), and a batch's calls
are added to the bucket of the moment they are reserved. A reservation in bucket `b`
is granted only while buckets `b-k-1 .. b` (k = `buckets`) stay within the limit.
Why the two extra buckets: WeCom does not say how it aligns its windows, so every
sliding window of the window's length must stay within the limit. Such a window,
shifted back by at most one bucket (a batch's sends start at most one bucket after
their reservation: `Window.slack`, enforced by the delivery window), meets at most
k + 2 buckets. Since reservations only go to the current bucket, every run of k + 2
buckets is within the limit, so every sliding window is. The price: a steady stream
gets k / (k + 2) of the limit (10,000 a minute becomes 8,571).

The day is WeCom's calendar day (China time), one bucket; a send reserved just before
midnight that leaves just after is counted on the day before.

Priority: high jobs (events, tasks, 重要) may use the whole budget; the others
(`normal` digests and plain reminders, `low` water) only `SHARED_FRACTION` of each
window, so that when the budget runs short the rest is still there for what matters,
even when another worker holds a batch of water reminders. Within a batch, high
goes first. What is not granted waits (`retry_wait`) until the next bucket, inside
its catch-up window; past it, it expires as any late job does.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from storage.vocabulary import Priority

__all__ = [
    "MESSAGE_SEND",
    "SHARED_FRACTION",
    "UPDATE_CARD",
    "WECOM_PER_HOUR",
    "WECOM_PER_MINUTE",
    "EnterpriseLimits",
    "Grant",
    "Window",
    "enterprise_windows",
    "grant",
]

WECOM_PER_MINUTE = 10_000  # documented: per API and enterprise
WECOM_PER_HOUR = 150_000
MESSAGE_SEND = "message/send"
UPDATE_CARD = "message/update_template_card"
SHARED_FRACTION = 0.8
"""The part of each window that jobs below high priority may use."""
WECOM_DAY_ZONE = ZoneInfo("Asia/Shanghai")


@dataclass(frozen=True, kw_only=True, slots=True)
class EnterpriseLimits:
    """The limits one deployment spends: WeCom's per API, and the app's daily cap
    (`KEEPER_WECOM_DAILY_CAP`; None: not counted). `channel` is the channel whose
    calls count (the WeCom app's)."""

    per_minute: int = WECOM_PER_MINUTE
    per_hour: int = WECOM_PER_HOUR
    daily: int | None = None
    channel: str = "wecom_app"

    def windows(self, api: str) -> tuple[Window, ...]:
        """The windows of `api`: the daily cap counts message/send only."""
        daily = self.daily if api == MESSAGE_SEND else None
        return enterprise_windows(per_minute=self.per_minute, per_hour=self.per_hour, daily=daily)


@dataclass(frozen=True, kw_only=True, slots=True)
class Window:
    """One limit: `limit` calls per `length`, counted in `buckets` buckets (one: a
    calendar day in `WECOM_DAY_ZONE`)."""

    name: str
    length: dt.timedelta
    buckets: int
    limit: int

    @property
    def width(self) -> dt.timedelta:
        return self.length / self.buckets

    @property
    def slack(self) -> dt.timedelta:
        """How long after its reservation a send may still start (one bucket)."""
        return self.width

    def bucket(self, now: dt.datetime) -> dt.datetime:
        """The start of the bucket `now` falls in (UTC)."""
        if self.buckets == 1:  # the calendar day
            local = now.astimezone(WECOM_DAY_ZONE)
            midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
            return midnight.astimezone(dt.UTC)
        width_s = self.width.total_seconds()
        epoch_s = now.timestamp()
        return dt.datetime.fromtimestamp(epoch_s - epoch_s % width_s, dt.UTC)

    def counted(self, now: dt.datetime) -> tuple[dt.datetime, dt.datetime]:
        """The first and last bucket a reservation at `now` is checked against."""
        last = self.bucket(now)
        if self.buckets == 1:
            return last, last
        return last - self.width * (self.buckets + 1), last

    def next_bucket(self, now: dt.datetime) -> dt.datetime:
        """When the oldest counted bucket drops out: the next bucket's start."""
        if self.buckets == 1:
            return self.bucket(self.bucket(now) + dt.timedelta(hours=30))
        return self.bucket(now) + self.width


def enterprise_windows(
    *, per_minute: int = WECOM_PER_MINUTE, per_hour: int = WECOM_PER_HOUR, daily: int | None
) -> tuple[Window, ...]:
    """The windows of one API: a minute and an hour, and a day when `daily` is set (the
    app's daily cap applies to message/send only)."""
    windows = [
        Window(name="minute", length=dt.timedelta(minutes=1), buckets=12, limit=per_minute),
        Window(name="hour", length=dt.timedelta(hours=1), buckets=12, limit=per_hour),
    ]
    if daily is not None:
        windows.append(Window(name="day", length=dt.timedelta(days=1), buckets=1, limit=daily))
    return tuple(windows)


@dataclass(frozen=True, kw_only=True, slots=True)
class Grant:
    """How many of the wanted calls may go now (the first `granted`, in the order
    asked), and when to try the rest (None when all were granted)."""

    granted: int
    retry_at: dt.datetime | None


def grant(
    windows: Sequence[Window],
    used: Mapping[tuple[str, dt.datetime], int],
    priorities: Iterable[str],
    now: dt.datetime,
) -> Grant:
    """Grant calls in the order of `priorities` (sorted high first by the caller).

    Args:
        windows: the API's windows.
        used: (window name, bucket start) -> calls counted there; missing = 0.
        priorities: one priority ("high" / "normal" / "low") per wanted call.
        now: aware.

    Returns:
        The number granted: each call in turn while every window keeps room for it
        (high: up to the limit; others: up to `SHARED_FRACTION` of it); the first
        call refused stops the grant, so order is respected.
    """
    if now.tzinfo is None:
        raise ValueError("naive datetime; pass an aware one")
    spent = {w.name: _spent(w, used, now) for w in windows}
    granted = 0
    for priority in priorities:
        if any(spent[w.name] + granted + 1 > _cap(w, priority) for w in windows):
            full = [w for w in windows if spent[w.name] + granted + 1 > _cap(w, priority)]
            return Grant(granted=granted, retry_at=min(w.next_bucket(now) for w in full))
        granted += 1
    return Grant(granted=granted, retry_at=None)


def _spent(window: Window, used: Mapping[tuple[str, dt.datetime], int], now: dt.datetime) -> int:
    first, last = window.counted(now)
    return sum(
        n for (name, start), n in used.items() if name == window.name and first <= start <= last
    )


def _cap(window: Window, priority: str) -> int:
    return window.limit if priority == Priority.HIGH else int(window.limit * SHARED_FRACTION)
