"""Nag until done (`提醒 明天 9:00 交材料 直到完成`): the repeats and their words (pure).

A nag is a one-off reminder that repeats every `every` minutes until the user answers
(`收到`, a bare `完成`, or the card's 知道了 button) or `cap` messages have gone out.
No provider has a read receipt; the user's answer is the only receipt there is.

Decisions written down here (the issue is silent on them):
- The cap counts every slot, the first one included: cap 6 means at most six
  messages in all. The last one carries the stop line (`⏰ 最后一次提醒：交材料，之后
  不再提醒`), so stopping costs no seventh message. The messages carry no count: slots
  dropped in quiet time or superseded after an outage were never seen, so "第 5 次"
  on the user's third message would be false.
- Each repeat is its own job slot `start + i * every` (i < cap), planned by the tick
  as the rule's next occurrence, so the jobs' unique key (user, rule, slot) prevents
  doubles even under racing workers.
- Each repeat is at most once: the point of a nag is repetition, so a lost or unknown
  repeat is covered by the next one and is never resent. A repeat whose successor is
  already due (after an outage, a long budget deferral) is dropped as superseded, so
  the user never gets a burst of queued repeats. Two can still come closer than the
  interval: a repeat the budget deferred goes out late, and the next one keeps its
  own slot (a minute later, at worst).
- Quiet time drops a plain nag's repeats (each still counts toward the cap); the nag
  carries on with the first repeat due after quiet time, so at most one message comes
  when it ends (`scheduler.core.quiet`). A nag none of whose messages has gone out starts
  over when quiet time ends, with its full cap (`scheduler.nag_kind.quiet_time`):
  otherwise quiet time could swallow it whole, unseen and untold. A nag marked 重要 passes quiet time, like every
  important reminder.
- Only one-off reminders nag: a recurring one (`每天 ... 直到完成`) is refused by the
  parser, because a receipt for Monday's pill must not silence Tuesday's.
- A repeat that failed or whose fate is unknown is told to the user on their next
  message like any reminder's (a broken channel must not nag in silence).
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass

from scheduler.core.messages import REMINDER_TITLE_MAX_CHARS, clip_title

DEFAULT_EVERY = 10
"""Minutes between repeats when the user says none."""
EVERY_RANGE = (5, 120)
"""The repeat intervals a user may choose, in minutes (inclusive)."""
DEFAULT_CAP = 6
"""Messages in all (the first included) when the user says none."""
CAP_RANGE = (2, 20)
"""The caps a user may choose with `最多N次` (inclusive)."""

# --- what the user reads ---
_FIRST = "⏰ 提醒：{title}（{hint}）"
_AGAIN = "⏰ 再次提醒：{title}（{hint}）"
_HINT = "回复「收到」就不再提醒"
_TASK_HINT = "做完回复「完成」"
_LAST = "⏰ 最后一次提醒：{title}，之后不再提醒"
CARD_TITLE = "⏰ 提醒"
# --- end of user-facing text ---


@dataclass(frozen=True, kw_only=True, slots=True)
class NagSpec:
    """A nag's repeats: the first at `start` (aware), then every `every` minutes, `cap`
    messages at most. Stored as the rule's spec (`to_json` / `from_json`).

    Raises:
        ValueError: a naive start, or an interval or cap out of range.
    """

    start: dt.datetime
    every: int = DEFAULT_EVERY
    cap: int = DEFAULT_CAP

    def __post_init__(self) -> None:
        if self.start.tzinfo is None:
            raise ValueError("a nag starts at an aware instant")
        if not EVERY_RANGE[0] <= self.every <= EVERY_RANGE[1]:
            raise ValueError(f"nag interval {self.every} out of range")
        if not CAP_RANGE[0] <= self.cap <= CAP_RANGE[1]:
            raise ValueError(f"nag cap {self.cap} out of range")

    @property
    def step(self) -> dt.timedelta:
        return dt.timedelta(minutes=self.every)

    def to_json(self) -> str:
        start = self.start.astimezone(dt.UTC).isoformat()
        return json.dumps({"start": start, "every": self.every, "cap": self.cap})

    @classmethod
    def from_json(cls, text: str) -> NagSpec:
        """The spec a rule stored; ValueError (or KeyError, TypeError) if malformed."""
        data = json.loads(text)
        start = dt.datetime.fromisoformat(data["start"])
        return cls(start=start, every=int(data["every"]), cap=int(data["cap"]))


def slot_at(spec: NagSpec, index: int) -> dt.datetime:
    """The slot of message `index` (0 is the first)."""
    return spec.start.astimezone(dt.UTC) + index * spec.step


def index_of(spec: NagSpec, slot: dt.datetime) -> int | None:
    """Which message `slot` is (0 the first), or None when it is not one of the nag's
    slots (before the start, off the grid, or past the cap)."""
    offset = slot.astimezone(dt.UTC) - spec.start.astimezone(dt.UTC)
    index, rest = divmod(offset, spec.step)
    if offset < dt.timedelta(0) or rest or index >= spec.cap:
        return None
    return int(index)


def following(spec: NagSpec, slot: dt.datetime) -> dt.datetime | None:
    """The slot after `slot`, or None when `slot` is the last (the cap) or not a slot."""
    index = index_of(spec, slot)
    if index is None or index + 1 >= spec.cap:
        return None
    return slot_at(spec, index + 1)


def first_after(spec: NagSpec, now: dt.datetime) -> dt.datetime | None:
    """The first slot after `now` (a nag switched back on), None when none is left."""
    offset = now.astimezone(dt.UTC) - spec.start.astimezone(dt.UTC)
    if offset < dt.timedelta(0):
        return slot_at(spec, 0)
    index = offset // spec.step + 1
    return slot_at(spec, index) if index < spec.cap else None


@dataclass(frozen=True, kw_only=True, slots=True)
class Repeat:
    """Send message `index` (0 the first); `last` when it is the cap's (stop line)."""

    index: int
    last: bool


@dataclass(frozen=True, kw_only=True, slots=True)
class Drop:
    """Do not send this slot; why."""

    reason: str


def verdict(spec: NagSpec, slot: dt.datetime, now: dt.datetime, *, answered: bool) -> Repeat | Drop:
    """Whether the job of `slot`, claimed at `now`, goes out.

    Never after the answer, never past the cap, and never once the next slot is due
    (the next repeat covers it: no burst of queued repeats). The last slot has no
    successor, so it goes out within its catch-up window like any reminder.
    """
    if answered:
        return Drop(reason="nag answered")
    index = index_of(spec, slot)
    if index is None:
        return Drop(reason="not a slot of this nag")
    last = index + 1 >= spec.cap
    if not last and now >= slot_at(spec, index + 1):
        return Drop(reason="superseded by the next repeat")
    return Repeat(index=index, last=last)


def text(title: str, repeat: Repeat, *, task: bool = False) -> str:
    """The words of one message of the nag (`task`: a task's, answered by 完成)."""
    title = clip_title(title, REMINDER_TITLE_MAX_CHARS)
    hint = _TASK_HINT if task else _HINT
    if repeat.last and repeat.index > 0:
        return _LAST.format(title=title)
    if repeat.index == 0:
        return _FIRST.format(title=title, hint=hint)
    return _AGAIN.format(title=title, hint=hint)
