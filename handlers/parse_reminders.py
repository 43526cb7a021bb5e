"""Parsing the reminder commands: 开启/暂停/恢复/关闭 喝水, 设置 ..., 提醒.

Split from `handlers.parser` to keep each module about one thing; the keyword
table there routes these words here. Pure and total like the rest of the parser.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Protocol

from handlers import texts
from handlers.commands import (
    AdminSettle,
    AdminStatus,
    Command,
    ParseError,
    SetDayWindow,
    SetWaterGoal,
    SetWaterInterval,
    SwitchWater,
    WaterAction,
)

SWITCHES: dict[str, WaterAction] = {
    "开启": "enable",
    "暂停": "pause",
    "恢复": "resume",
    "关闭": "close",
}
WATER_TARGETS = ("喝水", "喝水提醒", "喝水 提醒")
INTERVAL_RANGE = (30, 480)
GOAL_RANGE = (1, 30)
_WINDOW = re.compile(
    r"(?P<wh>[0-9]{1,2})[:：](?P<wm>[0-9]{2})\s*(?:-|~|到|至)\s*(?P<sh>[0-9]{1,2})[:：](?P<sm>[0-9]{2})"
)
_NUMBER = re.compile(r"(?P<n>[0-9]{1,4})\s*(?:分钟|分|杯|min)?")


class Body(Protocol):
    @property
    def keyword(self) -> str: ...

    @property
    def text(self) -> str: ...


def parse_switch(body: Body) -> Command:
    """`开启 喝水`; other targets (晚报, 提醒 ...) arrive with the next release."""
    target = body.text.strip()
    if target in WATER_TARGETS:
        return SwitchWater(action=SWITCHES[body.keyword])
    if not target:
        raise ParseError(texts.SWITCH_NEEDS_TARGET.format(keyword=body.keyword))
    raise ParseError(texts.SWITCH_NOT_YET)


def parse_setting(body: Body) -> Command:
    """`设置 作息 08:00-22:00` / `设置 喝水间隔 120` / `设置 喝水目标 8`."""
    name, _, value = body.text.partition(" ")
    value = value.strip()
    if name == "作息":
        return _day_window(value)
    if name == "喝水间隔":
        return SetWaterInterval(minutes=_number(value, INTERVAL_RANGE, texts.INTERVAL_HINT))
    if name == "喝水目标":
        return SetWaterGoal(glasses=_number(value, GOAL_RANGE, texts.GOAL_HINT))
    raise ParseError(texts.SETTING_UNKNOWN)


def _day_window(value: str) -> SetDayWindow:
    match = _WINDOW.fullmatch(value)
    if match is None:
        raise ParseError(texts.WINDOW_HINT)
    try:
        wake = dt.time(int(match["wh"]), int(match["wm"]))
        sleep = dt.time(int(match["sh"]), int(match["sm"]))
    except ValueError:
        raise ParseError(texts.WINDOW_HINT) from None
    if wake >= sleep:
        raise ParseError(texts.WINDOW_ORDER)
    return SetDayWindow(wake=wake, sleep=sleep)


def _number(value: str, bounds: tuple[int, int], hint: str) -> int:
    match = _NUMBER.fullmatch(value)
    if match is None or not bounds[0] <= int(match["n"]) <= bounds[1]:
        raise ParseError(hint)
    return int(match["n"])


_SETTLE = re.compile(r"对账\s*#?(?P<job>[0-9]{1,12})\s*(?P<word>已收到|未收到)")


def parse_admin(body: Body) -> Command:
    """`管理 状态` / `管理 对账 12 已收到` (whether the user may is the handler's call)."""
    text = body.text.strip()
    if text == "状态":
        return AdminStatus()
    if match := _SETTLE.fullmatch(text):
        return AdminSettle(job_id=int(match["job"]), received=match["word"] == "已收到")
    raise ParseError(texts.ADMIN_HINT)
