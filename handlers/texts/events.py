"""Calendar events (日程): how to write one, the list, cancelling and changing one
(`handlers/events.py`)."""

from __future__ import annotations

import datetime as dt

from scheduler.core.texts.times import hm

EVENT_NEEDS_DAY = "日程要写哪天，比如：日程 周四 14:00-15:00 复诊 或 日程 12月3日 全天 体检"
EVENT_NEEDS_TITLE = "日程要写做什么，比如：日程 明天 9:30 开会"
EVENT_END_BEFORE_START = "结束时间要晚于开始时间，比如：日程 周四 14:00-15:00 复诊"
REMIND_FORMAT = "提前提醒要写成：提前15分钟 或 提前1小时，最多提前 24 小时。"
CANCEL_EVENT_HINT = "取消日程要写编号，比如：取消日程 2。发「日程」看编号。"
EDIT_EVENT_HINT = "改日程写编号和新的时间或名称，比如：改日程 2 周五 15:00。发「日程」看编号。"


def event_added(number: int, day: str, span: str, title: str, remind_at: str | None) -> str:
    reply = f"已加入日程 {number}：{day} {span} {title}。"
    return reply + (f"\n{remind_at} 提醒你。" if remind_at else "")


def event_span(start: dt.time | None, end: dt.time | None) -> str:
    if start is None:
        return "全天"
    return f"{hm(start)}-{hm(end)}" if end else hm(start)


NO_EVENTS = "接下来没有日程。加一个：日程 周四 14:00 复诊"


def events_list(lines: list[str]) -> str:
    return "接下来的日程：\n" + "\n".join(lines) + "\n取消日程 N / 改日程 N 周五 15:00"


def event_line(number: int | None, day: str, span: str, title: str) -> str:
    return f"{number}. {day} {span} {title}"


def event_not_found(number: int) -> str:
    return f"没有编号 {number} 的日程。发「日程」看看列表。"


def event_title_not_found(title: str) -> str:
    return f"接下来没有叫「{title}」的日程。发「日程」看看列表。"


def event_title_ambiguous(title: str, candidates: list[tuple[int | None, str]]) -> str:
    listed = "、".join(f"{n} {t}" for n, t in candidates[:5])
    first = candidates[0][0]
    return f"有 {len(candidates)} 个日程都含「{title}」：{listed}。\n请用编号，比如：改日程 {first} 周五 15:00"


def event_cancelled(title: str) -> str:
    return f"已取消日程：{title}，它的提醒也取消了。"


def event_changed(day: str, span: str, title: str, remind_at: str | None) -> str:
    tail = f"\n{remind_at} 提醒你。" if remind_at else ""
    return f"日程已改为：{day} {span} {title}。{tail}"
