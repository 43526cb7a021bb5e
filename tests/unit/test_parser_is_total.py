"""The parser is total: any text gives a Command or a ParseError, never anything else."""

from __future__ import annotations

import dataclasses
import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from handlers.commands import Command, ParseError
from handlers.parse import parse, parse_event_key

KEYWORDS = [
    "体重", "喝水", "记账", "支出", "花了", "收入", "任务", "待办", "完成", "取消", "日程",
    "日记", "今天", "本周", "本月", "账单", "撤销", "帮助", "提醒", "设置", "管理", "",
]  # fmt: skip
PIECES = [
    " ", "\u3000", "\n", "72.4", "７２．４", "kg", "斤", "+", "-", "－", "¥", "元", "#", "3",
    "0", "99999999999999999999", "0.001", ".", ",", ":", "：", "~", "到", "全天", "明天",
    "周五", "下周日", "本周一", "12-01", "2-30", "13-45", "1号", "31号", "12月1日",
    "2026-02-29", "14:00", "24:00", "9点半", "下午3点", "晚上12点", "提前", "提前15分钟",
    "提前半小时", "小时", "杯", "两", "十", "午饭", "😀", "\x00", "\ud800", "?",
]  # fmt: skip
SETTINGS = settings(max_examples=300, deadline=None)

todays = st.dates(min_value=dt.date(2000, 1, 1), max_value=dt.date(2100, 12, 31))
command_texts = st.builds(
    lambda keyword, pieces: keyword + "".join(pieces),
    st.sampled_from(KEYWORDS),
    st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=8),
)


def outcome(text: str, today: dt.date) -> Command | str:
    """The command, or the error message; fails the test on any other exception."""
    try:
        return parse(text, today=today)
    except ParseError as error:
        message = error.message
    assert isinstance(message, str)
    assert message.strip()
    return message


@SETTINGS
@given(text=st.text(), today=todays)
def test_any_text_gives_a_command_or_a_parse_error(text: str, today: dt.date) -> None:
    result = outcome(text, today)
    assert isinstance(result, str) or dataclasses.is_dataclass(result)


@SETTINGS
@given(text=command_texts, today=todays)
def test_any_command_like_text_gives_a_command_or_a_parse_error(text: str, today: dt.date) -> None:
    result = outcome(text, today)
    assert isinstance(result, str) or dataclasses.is_dataclass(result)


@SETTINGS
@given(text=command_texts | st.text(max_size=20), today=todays)
def test_parsing_is_deterministic(text: str, today: dt.date) -> None:
    assert outcome(text, today) == outcome(text, today)


@settings(max_examples=100, deadline=None)
@given(key=st.text(max_size=20), today=todays)
def test_any_menu_key_gives_a_command_or_a_parse_error(key: str, today: dt.date) -> None:
    message = "ok"
    try:
        parse_event_key(key, today=today)
    except ParseError as error:
        message = error.message
    assert message.strip()


@settings(max_examples=50, deadline=None)
@given(today=st.dates())
def test_relative_days_at_the_ends_of_the_calendar_are_parse_errors(today: dt.date) -> None:
    for text in ("任务 明天 交", "任务 下周日 交", "任务 1号 交", "日程 12-31 9:00 会"):
        outcome(text, today)
