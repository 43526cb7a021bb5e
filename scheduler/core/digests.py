"""The morning and evening digests, composed from plain facts (DESIGN §6, "Digests").

Pure: the caller reads the user's tasks, events and weight flags into `DayFacts`
(local dates and wall-clock times) and gets text back, or None when there is nothing
worth a message, in which case the job is suppressed. The facts carry titles, dates
and flags only, never journal text or amounts, so a digest cannot leak them.

Decisions:
- Morning lists today's events (all-day first, then by start) and the open tasks due
  today or earlier (overdue first, oldest first, then today's by time, untimed last),
  each task with its number so the user can answer `完成 3`.
- Undated open tasks are not listed. When something dated is listed, one line says
  how many undated ones there are; undated tasks alone never make a morning message
  (they would make the same message every day).
- Tasks due after today are neither listed nor counted: tomorrow's digest has them.
- Evening lists only what is still open: open tasks due today or overdue, and today's
  events starting after `now_local` (all-day events are not "later tonight"), plus a
  one-line nudge when the user tracks weight and has not recorded one today. The
  nudge alone is a message; nothing at all is None.
- Each list shows at most `MAX_ITEMS`, then "还有 N 项"; titles are clipped to
  `TITLE_MAX_CHARS`, so a digest stays far below WeCom's 2048 bytes even with long
  titles; `messages.fit_bytes` is the last guard.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from scheduler.core.messages import clip_title, fit_bytes
from scheduler.core.times import hm

MAX_ITEMS = 8
"""Items per list; a digest is a glance, the full list is one 「任务」 away."""

TITLE_MAX_CHARS = 20
"""Long enough to recognise a task; 8 + 8 clipped lines stay near 1.6 KB at worst."""

MORNING_HEAD = "早上好，今天的安排："
EVENING_TASKS_HEAD = "今天还没完成的："
EVENING_EVENTS_HEAD = "今晚还有："
WEIGHT_NUDGE = "今天还没记体重，称好了发「体重 72.4」。"


@dataclass(frozen=True, kw_only=True, slots=True)
class DigestTask:
    """An open task as a digest shows it: number, title, optional local due date/time."""

    number: int | None
    title: str
    due_date: dt.date | None
    due_time: dt.time | None


@dataclass(frozen=True, kw_only=True, slots=True)
class DigestEvent:
    """An active event on the user's local `day`; `start` None means all day."""

    title: str
    day: dt.date
    start: dt.time | None


@dataclass(frozen=True, kw_only=True, slots=True)
class DayFacts:
    """What a digest needs to know about the user's local day, and nothing more."""

    today: dt.date
    open_tasks: tuple[DigestTask, ...]
    events: tuple[DigestEvent, ...]
    weight_today: bool
    tracks_weight: bool


def morning(facts: DayFacts) -> str | None:
    """Today's events and due or overdue tasks; None when there are neither."""
    events = _sorted_events(e for e in facts.events if e.day == facts.today)
    tasks = _due_tasks(facts)
    if not events and not tasks:
        return None
    lines = [MORNING_HEAD]
    if events:
        lines += ["日程：", *_capped([_event_line(e) for e in events])]
    if tasks:
        lines += ["待办：", *_capped([_task_line(t, facts.today) for t in tasks])]
    undated = sum(1 for t in facts.open_tasks if t.due_date is None)
    if undated:
        lines.append(f"另有 {undated} 项没定日期的待办，发「任务」查看。")
    lines += _done_hint(tasks)
    return fit_bytes("\n".join(lines))


def evening(facts: DayFacts, now_local: dt.time) -> str | None:
    """What is still open tonight, and a weight nudge; None when there is nothing."""
    tasks = _due_tasks(facts)
    later = _sorted_events(
        e
        for e in facts.events
        if e.day == facts.today and e.start is not None and e.start > now_local
    )
    lines: list[str] = []
    if tasks:
        lines += [EVENING_TASKS_HEAD, *_capped([_task_line(t, facts.today) for t in tasks])]
        lines += _done_hint(tasks)
    if later:
        lines += [EVENING_EVENTS_HEAD, *_capped([_event_line(e) for e in later])]
    if facts.tracks_weight and not facts.weight_today:
        lines.append(WEIGHT_NUDGE)
    return fit_bytes("\n".join(lines)) if lines else None


def _due_tasks(facts: DayFacts) -> list[DigestTask]:
    """Open tasks due today or earlier: overdue oldest first, then by time, untimed last."""
    due = [t for t in facts.open_tasks if t.due_date is not None and t.due_date <= facts.today]
    return sorted(due, key=_task_order)


def _task_order(task: DigestTask) -> tuple[dt.date, bool, dt.time]:
    # Only dated tasks get here; the fallback keeps the key total for the type checker.
    return (task.due_date or dt.date.min, task.due_time is None, task.due_time or dt.time.min)


def _sorted_events(events: Iterable[DigestEvent]) -> list[DigestEvent]:
    """All-day first (they frame the day), then by start; ties keep the caller's order."""
    return sorted(events, key=lambda e: (e.start is not None, e.start or dt.time.min))


def _task_line(task: DigestTask, today: dt.date) -> str:
    number = f"{task.number} " if task.number is not None else ""
    title = clip_title(task.title, TITLE_MAX_CHARS)
    due = task.due_date or today  # only due tasks are listed; `or` keeps mypy content
    if due < today:
        note = f"（已过期 {(today - due).days} 天）"
    else:
        note = f"（{hm(task.due_time)}）" if task.due_time else ""
    return f"  {number}{title}{note}"


def _event_line(event: DigestEvent) -> str:
    start = hm(event.start) if event.start is not None else "全天"
    return f"  {start} {clip_title(event.title, TITLE_MAX_CHARS)}"


def _capped(lines: list[str]) -> list[str]:
    """At most `MAX_ITEMS` lines, then one saying how many more there are."""
    if len(lines) <= MAX_ITEMS:
        return lines
    return [*lines[:MAX_ITEMS], f"  还有 {len(lines) - MAX_ITEMS} 项"]


def _done_hint(tasks: list[DigestTask]) -> list[str]:
    """How to answer, with a real number from the list as the example."""
    numbers = [t.number for t in tasks[:MAX_ITEMS] if t.number is not None]
    return [f"做完回复「完成 编号」，比如「完成 {numbers[0]}」。"] if numbers else []
