"""The morning and evening digests' words (`scheduler.core.digests` decides what is
listed, in which order, and how much of it)."""

from __future__ import annotations

import datetime as dt

from scheduler.core.texts.times import hm

MORNING_HEAD = "早上好，今天的安排："
EVENING_TASKS_HEAD = "今天还没完成的："
EVENING_EVENTS_HEAD = "今晚还有："
WEIGHT_NUDGE = "今天还没记体重，称好了发「体重 72.4」。"
EVENTS_HEAD = "日程："
TASKS_HEAD = "待办："


def task_line(number: int | None, title: str, *, overdue_days: int, at: dt.time | None) -> str:
    """`  3 交材料（已过期 2 天）` or `  3 交材料（14:00）`: an overdue task says by how
    many days, a task due today its time if it has one."""
    shown = f"{number} " if number is not None else ""
    if overdue_days > 0:
        return f"  {shown}{title}（已过期 {overdue_days} 天）"
    note = f"（{hm(at)}）" if at else ""
    return f"  {shown}{title}{note}"


def event_line(start: dt.time | None, title: str) -> str:
    """`  14:00 复诊`; an all-day event says 全天."""
    return f"  {hm(start) if start is not None else '全天'} {title}"


def more(count: int) -> str:
    """The line under a capped list."""
    return f"  还有 {count} 项"


def undated(count: int) -> str:
    return f"另有 {count} 项没定日期的待办，发「任务」查看。"


def done_hint(number: int) -> str:
    """How to answer, with a real number from the list as the example."""
    return f"做完回复「完成 编号」，比如「完成 {number}」。"
