"""Whether a scheduler is ticking, from the newest heartbeat: pure, shared by
`/healthz` and the watchdog that alerts the admins (`scheduler.watchdog`)."""

from __future__ import annotations

import datetime as dt

SCHEDULER_STALE = dt.timedelta(minutes=10)
CLOCK_SKEW = dt.timedelta(minutes=1)


def tick_age(last: dt.datetime | None, now: dt.datetime) -> dt.timedelta | None:
    """How long ago the last tick was. A heartbeat from the future (a `keeper tick
    --at` run ahead of time) proves nothing about a running scheduler: None; a few
    seconds of skew between machines count as just now."""
    if last is None or last - now > CLOCK_SKEW:
        return None
    return max(now - last, dt.timedelta(0))


def scheduler_health(age: dt.timedelta | None, *, waiting: bool) -> str:
    """`ok` (ticked lately), `idle` (nothing to send, none ticking), or `stopped`
    (rules wait to fire and no scheduler ticked within `SCHEDULER_STALE`)."""
    if age is not None and age <= SCHEDULER_STALE:
        return "ok"
    return "stopped" if waiting else "idle"
