"""Guesses kept with the user (handlers/confirm.py): what is stored, what a yes is,
and the question's wording; pure parts only (the flow is in tests/acceptance)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from handlers import confirm, texts
from handlers.commands import (
    AddEvent,
    AddTask,
    CheckInWater,
    Command,
    MoveTasks,
    RecordLedger,
    RecordWeight,
    SetBudget,
    ShowToday,
)

TODAY = dt.date(2026, 12, 1)
GUESSES: list[Command] = [
    RecordLedger(direction="expense", amount=Decimal("35.00"), category="其他", note=""),
    RecordLedger(direction="income", amount=Decimal("8000.50"), category="工资", note="十二月"),
    RecordWeight(kg=Decimal("70.00")),
    CheckInWater(glasses=3),
    AddTask(title="交材料", due_date=dt.date(2026, 12, 4), due_time=None),
    AddTask(title="取快递", due_date=None, due_time=None),
    AddEvent(title="开会", day=dt.date(2026, 12, 2), start=dt.time(15), end=dt.time(16, 30)),
]


@pytest.mark.parametrize("guess", GUESSES, ids=repr)
def test_a_guess_survives_the_round_trip_through_storage(guess: Command) -> None:
    stored = confirm.encode(guess)
    assert stored is not None
    assert confirm.decode(stored) == guess


def test_only_record_commands_are_kept_as_guesses() -> None:
    assert confirm.encode(ShowToday()) is None


@pytest.mark.parametrize("stored", ["", "{", "[]", '{"type": "Nope", "fields": {}}',
                                    '{"type": "RecordWeight", "fields": {"kg": "x"}}',
                                    '{"type": "RecordWeight", "fields": {"pounds": "1"}}'])  # fmt: skip
def test_an_unreadable_stored_guess_is_dropped_not_raised(stored: str) -> None:
    assert confirm.decode(stored) is None


@pytest.mark.parametrize(
    "text", ["是", "是的", "对", "嗯", "嗯嗯", "ok", "OK", "好", "好的！", " 是 "]
)
def test_the_short_yes_words_confirm(text: str) -> None:
    assert confirm.is_yes(text)


@pytest.mark.parametrize("text", ["不是", "不", "否", "是什么", "35", "今天", ""])
def test_anything_else_is_no_yes(text: str) -> None:
    assert not confirm.is_yes(text)


@pytest.mark.parametrize(
    ("guess", "question"),
    [
        (GUESSES[0], "记一笔支出 35.00 元（其他）？回「是」记下"),
        (GUESSES[2], "记体重 70 kg？回「是」记下"),
        (GUESSES[3], "记喝水 3 杯？回「是」记下"),
        (GUESSES[4], "加待办：交材料，12月4日 周五？回「是」记下"),
        (GUESSES[6], "加日程：明天 15:00-16:30 开会？回「是」记下"),
    ],
)
def test_the_question_names_the_guess_in_canonical_form(guess: Command, question: str) -> None:
    assert texts.confirm_question(confirm.describe(guess, TODAY)) == question


def test_help_pages_and_misses_fit_a_phone_screen() -> None:
    pages = [texts.help_page(topic) for topic in ("", *texts.HELP_PAGES)]
    for page in pages:
        assert len(page.encode()) < 1024, page
        assert len(page.splitlines()) <= 5, page
    misses = [texts.miss(hint_words[0]) for hint_words, _ in texts.MISS_HINTS] + [texts.miss("")]
    for message in misses:
        assert len(message.splitlines()) <= 3, message
        assert len(message.encode()) <= 300, message


SUGGESTIONS: list[Command] = [
    SetBudget(category="餐饮", amount=Decimal("200")),
    AddTask(title="安排 3 次运动", due_date=dt.date(2026, 12, 7)),
    MoveTasks(task_ids=(4, 17), to=dt.date(2026, 12, 7)),
]


@pytest.mark.parametrize("suggestion", SUGGESTIONS, ids=repr)
def test_a_review_suggestion_survives_the_round_trip_and_is_marked_as_one(
    suggestion: Command,
) -> None:
    stored = confirm.encode(suggestion, suggestion=True)
    assert stored is not None
    assert confirm.decode(stored) == suggestion
    assert confirm.is_suggestion(stored)


@pytest.mark.parametrize("guess", GUESSES, ids=repr)
def test_a_guess_is_not_a_suggestion(guess: Command) -> None:
    stored = confirm.encode(guess)
    assert stored is not None
    assert not confirm.is_suggestion(stored)


@pytest.mark.parametrize("stored", ["", "not json", "[1, 2]", '{"suggestion": "yes"}'])
def test_an_unreadable_slot_is_not_a_suggestion(stored: str) -> None:
    assert not confirm.is_suggestion(stored)


def test_a_suggestion_keeps_a_day_and_a_guess_ten_minutes() -> None:
    assert (
        dt.timedelta(hours=24),
        dt.timedelta(minutes=10),
    ) == (confirm.SUGGESTION_FOR, confirm.PENDING_FOR)
