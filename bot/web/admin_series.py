"""The admin page's 14-day figures, per local day (pure: rows in, series out).

Days are the deployment's (KEEPER_TIMEZONE): a send at 23:30 Shanghai time is that
day's, not the next UTC day's. Each series is a list in day order, oldest first,
and `as_data` gives it as plain JSON the page carries next to its chart, so a
reader (or a test) gets the figures without reading the SVG.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from storage.repos.admin_days import Reminder, Send
from storage.vocabulary import AttemptOutcome

DAYS = 14


def day_axis(today: dt.date, days: int = DAYS) -> list[dt.date]:
    """The `days` local days ending with `today`, oldest first."""
    return [today - dt.timedelta(days=back) for back in range(days - 1, -1, -1)]


def first_instant(today: dt.date, tz: ZoneInfo, days: int = DAYS) -> dt.datetime:
    """The first instant of the axis's first day, in UTC (what the queries read from)."""
    first = today - dt.timedelta(days=days - 1)
    return dt.datetime.combine(first, dt.time(), tz).astimezone(dt.UTC)


def _index(axis: Sequence[dt.date]) -> dict[dt.date, int]:
    return {day: i for i, day in enumerate(axis)}


def _day(at: dt.datetime, tz: ZoneInfo) -> dt.date:
    return at.astimezone(tz).date()


@dataclass(frozen=True, kw_only=True, slots=True)
class ChannelDays:
    """One channel's sends by outcome and its reminders answered, per day."""

    channel: str
    days: list[dt.date]
    accepted: list[int]
    failed: list[int]
    unknown: list[int]
    reminders: list[int]
    answered: list[int]


def channel_days(
    channel: str,
    sends: Iterable[Send],
    reminders: Iterable[Reminder],
    tz: ZoneInfo,
    today: dt.date,
) -> ChannelDays:
    """The channel's figures; rows of other channels or outside the axis are left out."""
    axis = day_axis(today)
    where = _index(axis)
    by_outcome = {
        o: [0] * len(axis)
        for o in (AttemptOutcome.ACCEPTED, AttemptOutcome.FAILED, AttemptOutcome.UNKNOWN)
    }
    for s in sends:
        i = where.get(_day(s.at, tz))
        if s.channel == channel and i is not None and s.outcome in by_outcome:
            by_outcome[AttemptOutcome(s.outcome)][i] += 1
    sent, answered = [0] * len(axis), [0] * len(axis)
    for r in reminders:
        i = where.get(_day(r.at, tz))
        if r.channel == channel and i is not None:
            sent[i] += 1
            answered[i] += int(r.answered)
    return ChannelDays(
        channel=channel,
        days=axis,
        accepted=by_outcome[AttemptOutcome.ACCEPTED],
        failed=by_outcome[AttemptOutcome.FAILED],
        unknown=by_outcome[AttemptOutcome.UNKNOWN],
        reminders=sent,
        answered=answered,
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class CallbackDays:
    """Callbacks handled per day, and the p95 of their handling time (None: no timed one)."""

    days: list[dt.date]
    handled: list[int]
    p95_ms: list[int | None]


def callback_days(
    rows: Iterable[tuple[dt.datetime, int | None]], tz: ZoneInfo, today: dt.date
) -> CallbackDays:
    """Count every message of the axis's days; time those whose time was kept."""
    axis = day_axis(today)
    where = _index(axis)
    handled = [0] * len(axis)
    times: list[list[int]] = [[] for _ in axis]
    for at, ms in rows:
        i = where.get(_day(at, tz))
        if i is None:
            continue
        handled[i] += 1
        if ms is not None:
            times[i].append(ms)
    return CallbackDays(days=axis, handled=handled, p95_ms=[p95(t) for t in times])


def p95(values: Sequence[int]) -> int | None:
    """The 95th percentile by nearest rank: the smallest value at least 95% of the
    values are at or under (of 20 values the 19th smallest). None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[math.ceil(0.95 * len(ordered)) - 1]


def as_data(figures: ChannelDays | CallbackDays) -> dict[str, Any]:
    """The figures as JSON values: days as ISO dates, the rest as they are."""
    data = dataclasses.asdict(figures)
    data["days"] = [d.isoformat() for d in figures.days]
    return data
