"""Time as an injected dependency.

Logic never reads the wall clock itself: it receives `now` or a `Clock`. Production
uses `SystemClock`; tests and the terminal demo use `FakeClock`, which only moves
when told to (`/time +2h` in `keeper chat`).
"""

from __future__ import annotations

import datetime as dt
from typing import Protocol


class Clock(Protocol):
    """Anything that can say what time it is, as an aware UTC datetime."""

    def now(self) -> dt.datetime: ...


class SystemClock:
    """The real clock."""

    def now(self) -> dt.datetime:
        return dt.datetime.now(dt.UTC)


class FakeClock:
    """A clock that stands still until moved. Rejects naive datetimes."""

    def __init__(self, start: dt.datetime) -> None:
        self._now = _aware(start)

    def now(self) -> dt.datetime:
        return self._now

    def set(self, when: dt.datetime) -> None:
        self._now = _aware(when)

    def advance(self, delta: dt.timedelta) -> None:
        self._now += delta


def _aware(when: dt.datetime) -> dt.datetime:
    if when.tzinfo is None:
        raise ValueError("naive datetime; pass an aware one")
    return when.astimezone(dt.UTC)
