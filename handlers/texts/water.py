"""Water reminders: the plan's states, switching it, the check-in's next time, the
habit settings (作息, 喝水间隔, 喝水目标) and 稍后 (`handlers/water.py`)."""

from __future__ import annotations

import datetime as dt

from scheduler.core.texts.times import hm
from storage.vocabulary import JobStatus, PlanState

WINDOW_HINT = "作息写成两个时间，比如：设置 作息 08:00-22:00"
WINDOW_ORDER = "起床时间要早于睡觉时间，比如：设置 作息 08:00-22:00"
INTERVAL_HINT = "喝水间隔写分钟数，30 到 480，比如：设置 喝水间隔 120"
GOAL_HINT = "喝水目标写每天几杯，1 到 30，比如：设置 喝水目标 8"
WATER_STATE: dict[str, str] = {
    PlanState.DISABLED: "未开启",
    PlanState.SCHEDULED: "开启",
    PlanState.SENDING: "正在发送",
    PlanState.AWAITING_CHECKIN: "等你回复「喝水」",
    PlanState.PAUSED: "已暂停",
}


def water_enabled(next_at: str) -> str:
    return f"喝水提醒已开启，下次提醒 {next_at}。\n喝完回复「喝水」，我按你的节奏安排下一次。"


def water_resumed(next_at: str) -> str:
    return f"喝水提醒已恢复，下次提醒 {next_at}。"


WATER_PAUSED = "喝水提醒已暂停。想继续就发「恢复 喝水」。"
WATER_CLOSED = "喝水提醒已关闭，之前排好的也都取消了。想再开就发「开启 喝水」。"
WATER_REFUSED = {
    "already_enabled": "喝水提醒本来就开着。发「提醒」看下次时间。",
    "not_paused": "喝水提醒没有暂停，不用恢复。",
    "plan_disabled": "喝水提醒还没开启。发「开启 喝水」开启。",
    "already_disabled": "喝水提醒本来就是关着的。",
    "already_paused": "喝水提醒已经暂停了。想继续就发「恢复 喝水」。",
}
WATER_REFUSED_OTHER = "现在不能这样操作喝水提醒，发「提醒」看看它的状态。"
WATER_NOTICE: dict[str, str] = {
    JobStatus.UNKNOWN: "（上一次喝水提醒没能确认是否送达，为免重复，提醒先暂停了。发「喝水」或「恢复 喝水」继续。）",
    JobStatus.FAILED: "（上一次喝水提醒没发出去，提醒先暂停了。发「喝水」或「恢复 喝水」继续。）",
}


def checkin_next(next_at: str, today_total: int, goal: int) -> str:
    if today_total >= goal:
        return f"今天的 {goal} 杯目标达成 🎉 下次提醒 {next_at}。"
    return f"目标 {goal} 杯，还差 {goal - today_total} 杯。下次提醒 {next_at}。"


def water_habit(wake: dt.time, sleep: dt.time, interval: int, goal: int) -> str:
    """The water settings in one phrase, for the 提醒 list."""
    return f"作息 {hm(wake)}-{hm(sleep)}，每 {interval} 分钟，目标 {goal} 杯"


def window_set(window: str) -> str:
    return f"作息已设为 {window}，提醒只在这段时间里发。"


def interval_set(minutes: int) -> str:
    return f"喝水间隔已设为 {minutes} 分钟，从下一次喝水开始算。"


def goal_set(glasses: int) -> str:
    return f"喝水目标已设为每天 {glasses} 杯，达标后当天不再提醒。"


def snoozed(at: str) -> str:
    return f"好的，{at} 再提醒你喝水。"


SNOOZE_OFF = "喝水提醒没开着。发「开启 喝水」打开。"
