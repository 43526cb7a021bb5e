"""The water plan's next-time rule (pure); a reply names the time with `scheduler.core.times`.

DESIGN §6: next time = check-in time + interval; before wake -> wake that day; at or
after sleep -> the next day's wake; daily goal reached -> the next day's wake.

Time zones and daylight saving (decided here, the brief is silent):

- The interval is elapsed time. "Every 120 minutes" means 120 real minutes, so it is
  added to the UTC instant, never to the wall clock: across a DST change the reminder
  still comes two hours after the glass, not one or three.
- The waking window is wall-clock time in the user's zone: "08:00" is 08:00 on the
  user's clock on every day of the year, whatever its UTC offset that day.
- A wake time that does not exist on a spring-forward day (02:30 in New York) is read
  with the offset before the change, which lands it just after the gap (03:30); an
  ambiguous one on a fall-back day is the first of the two, unless the candidate being
  clamped is itself in the second pass, in which case it is the second (so the answer
  is never earlier than the candidate).
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo


def next_reminder(
    *,
    checkin_at: dt.datetime,
    tz: ZoneInfo,
    interval: dt.timedelta,
    wake: dt.time,
    sleep: dt.time,
    goal_reached: bool,
) -> dt.datetime:
    """When the next water reminder is due after a check-in.

    Args:
        checkin_at: when the user checked in (aware; any offset).
        tz: the user's time zone; `wake` and `sleep` are wall-clock times in it.
        interval: time between a check-in and the reminder after it (positive).
        wake, sleep: the waking window, same day only: `wake < sleep` is required, so a
            window that runs past midnight (22:00-02:00) is refused, not guessed at.
        goal_reached: the day's goal is met; the next reminder waits for tomorrow.

    Returns:
        An aware UTC datetime, strictly after `checkin_at`, whose local wall-clock time
        lies in `[wake, sleep)` (but see the module note on non-existent wake times).

    Raises:
        ValueError: naive `checkin_at`, non-positive interval, or `wake >= sleep`.
    """
    _check(checkin_at=checkin_at, interval=interval, wake=wake, sleep=sleep)
    if goal_reached:
        return _at(checkin_at.astimezone(tz).date() + dt.timedelta(days=1), wake, tz)
    candidate = (checkin_at.astimezone(dt.UTC) + interval).astimezone(tz)
    if candidate.time() < wake:
        return _at(candidate.date(), wake, tz, fold=candidate.fold)
    if candidate.time() >= sleep:
        return _at(candidate.date() + dt.timedelta(days=1), wake, tz)
    return candidate.astimezone(dt.UTC)


def _check(
    *, checkin_at: dt.datetime, interval: dt.timedelta, wake: dt.time, sleep: dt.time
) -> None:
    if checkin_at.tzinfo is None:
        raise ValueError("naive checkin_at; pass an aware datetime")
    if interval <= dt.timedelta(0):
        raise ValueError(f"interval must be positive, got {interval}")
    if wake.tzinfo is not None or sleep.tzinfo is not None:
        raise ValueError("wake and sleep are wall-clock times; pass them without tzinfo")
    if not wake < sleep:
        raise ValueError(f"the waking window must start before it ends: {wake}-{sleep}")


def _at(day: dt.date, wall: dt.time, tz: ZoneInfo, *, fold: int = 0) -> dt.datetime:
    """The UTC instant of a wall-clock time on a local day (see the module note)."""
    local = dt.datetime.combine(day, wall, tzinfo=tz).replace(fold=fold)
    return local.astimezone(dt.UTC)
