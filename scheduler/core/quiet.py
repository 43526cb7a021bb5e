"""Quiet time (`免打扰 2小时`): what happens to a notification due while it lasts.

The user's quiet time is one aware end instant, `quiet_until`. For a job due at
`now` the decision is (each kind's part is its row in `scheduler.core.rule_kinds`:
`high_sends_in_quiet`, then `quiet`):

- no quiet time, or `quiet_until <= now` (it has ended; the end instant itself is
  no longer quiet) -> "send";
- kind "water" -> `Move(quiet_until)`: the reminder still matters after the quiet
  time, and the water plan expects its reminder to come eventually;
- kinds "digest_morning" / "digest_evening" -> "suppress": a digest is a snapshot of
  a moment; sent hours late it is stale, and the next one is due anyway;
- priority "high" (event and task reminders, custom reminders marked important) ->
  "send": the user asked for quiet, not to miss an appointment;
- kind "nag" (直到完成, not important) -> "suppress": the repeat is dropped and the nag
  carries on after quiet time with its next repeat; moved, every dropped repeat
  would land at the end of quiet time together (`scheduler.core.nag`). A nag that has
  sent nothing yet starts over at the end of quiet time instead
  (`scheduler.nag_kind.quiet_time`), so quiet time never swallows a whole nag;
- anything else (plain custom reminders, the weekly review) -> `Move(quiet_until)`:
  the week's review is as true an hour later, and it comes once a week.

The kind is looked at before the priority: water and digests follow their rule even
if a rule row were marked high (their rows' `high_sends_in_quiet` is false).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal
from zoneinfo import ZoneInfo

from scheduler.core import rule_kinds
from storage.vocabulary import Priority

MAX_QUIET = dt.timedelta(days=7)
"""The longest quiet time one command may set; longer reads as a mistake (or `关闭`)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Move:
    """Send at the end of the quiet time instead (an aware instant)."""

    until: dt.datetime

    def __post_init__(self) -> None:
        _require_aware(self.until)


Decision = Literal["send", "suppress"] | Move


def during_quiet(
    kind: str, priority: str, quiet_until: dt.datetime | None, now: dt.datetime
) -> Decision:
    """Whether a job of `kind` and `priority` due at `now` is sent, suppressed or moved.

    See the module docstring for the rules, in order.

    Raises:
        ValueError: a naive datetime, or a priority other than high/normal/low.
    """
    _require_aware(now)
    level = Priority(priority)
    if quiet_until is None:
        return "send"
    _require_aware(quiet_until)
    # In UTC: two datetimes sharing a tzinfo compare by wall clock, wrong across DST.
    if quiet_until.astimezone(dt.UTC) <= now.astimezone(dt.UTC):
        return "send"
    row = rule_kinds.row(kind)
    if row.high_sends_in_quiet and level is Priority.HIGH:
        return "send"
    return Move(until=quiet_until) if row.quiet == "move" else "suppress"


def quiet_end(
    now: dt.datetime,
    *,
    minutes: int | None = None,
    until_local: dt.datetime | None = None,
    tz: ZoneInfo,
) -> dt.datetime:
    """The aware UTC end of a quiet time that starts at `now`.

    Give exactly one of `minutes` (a duration) or `until_local` (a naive wall-clock
    time in `tz`, as the user said it). A wall-clock time skipped or repeated by a
    DST change resolves the way zoneinfo does with fold=0 (the earlier offset).

    Raises:
        ValueError: `now` naive or `until_local` aware; not exactly one of the two;
            an end not after `now`; a quiet time longer than `MAX_QUIET`.
    """
    _require_aware(now)
    start = now.astimezone(dt.UTC)  # real minutes, not wall-clock ones, across DST
    if (minutes is None) == (until_local is None):
        raise ValueError("give exactly one of minutes or until_local")
    if until_local is not None:
        if until_local.tzinfo is not None:
            raise ValueError("until_local is a wall-clock time; pass it naive")
        end = until_local.replace(tzinfo=tz).astimezone(dt.UTC)
    else:
        end = start + dt.timedelta(minutes=minutes or 0)
    if end <= start:
        raise ValueError("quiet time must end after now")
    if end - start > MAX_QUIET:
        raise ValueError("quiet time longer than MAX_QUIET")
    return end


def _require_aware(when: dt.datetime) -> None:
    if when.tzinfo is None:
        raise ValueError("naive datetime; pass an aware one")
