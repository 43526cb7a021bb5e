"""The weekly review's settings, its suggestion done on 好, and the weight goal
(`handlers/review.py`). Neutral and brief: no praise, no blame, nothing about days
without records. The review itself is the scheduler's:
`scheduler/core/texts/review_text.py`."""

from __future__ import annotations

import datetime as dt

WEEKDAY_NAMES = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")
GOAL_WEIGHT_HINT = "写成：目标体重 68（公斤，也可以写 136斤）"
REVIEW_TIME_HINT = "写成：设置 周报 周日 20:00"
GOAL_CLEARED = "目标体重已取消。"
GOAL_NOT_SET = "还没有设目标体重。"
SUGGESTION_GONE = "要挪的任务都已经不在了，没有改动。"


def review_when(weekday: int, at: dt.time) -> str:
    return f"每{WEEKDAY_NAMES[weekday]} {at.strftime('%H:%M')}"


def review_set(when: str | None) -> str:
    if when is None:
        return "周报已关闭。想再收就发「开启 周报」。"
    return f"周报时间：{when}。这周没有记录就不发。"


def goal_weight_set(kg: str, distance: str | None) -> str:
    tail = "" if distance is None else f"，离目标还差 {distance} kg"
    if distance == "0":
        tail = "，已到目标"
    return f"目标体重：{kg} kg{tail}。周报里会显示距离和趋势。"


def goal_line(distance: str) -> str:
    return f"离目标体重：{distance} kg" if distance != "0" else "已到目标体重"


def tasks_moved(count: int, to: str, day: dt.date) -> str:
    return f"好的，{count} 个任务挪到了{to}（{day.month}/{day.day}）。"
