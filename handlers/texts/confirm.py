"""Questions about a guess (`handlers/confirm.py`): the guess in canonical form and
how to say yes."""

from __future__ import annotations

from decimal import Decimal

from handlers.texts.records import ledger_entry
from handlers.texts.units import kg

CONFIRM_TAIL = "？回「是」记下"
YES_WORDS = frozenset(
    [
        "是",
        "是的",
        "对",
        "对的",
        "嗯",
        "嗯嗯",
        "好",
        "好的",
        "ok",
        "okay",
        "行",
        "可以",
        "确认",
        "记吧",
        "记下",
        "记上",
        "yes",
        "y",
        "没错",
    ]
)
"""The answers that say yes to the question (`handlers.confirm.is_yes`), compared
after normalising and case-folding."""
DISMISSED = "好的，没有记。"
THANKED = "不客气。"


def confirm_question(what: str) -> str:
    """One short question: the guess in canonical form, and how to say yes."""
    return f"{what}{CONFIRM_TAIL}"


def guess_ledger(direction: str, amount: Decimal, category: str, note: str) -> str:
    return f"记一笔{ledger_entry(direction, amount, category, note)}"


def guess_weight(value: Decimal) -> str:
    return f"记体重 {kg(value)} kg"


def guess_water(glasses: int) -> str:
    return f"记喝水 {glasses} 杯"


def guess_task(title: str, due: str | None) -> str:
    return f"加待办：{title}" + (f"，{due}" if due else "")


def guess_event(day: str, span: str, title: str) -> str:
    return f"加日程：{day} {span} {title}"


def guess_move(event: str, when: str) -> str:
    return f"把日程「{event}」改到 {when}"


GUESS_OTHER = "照这样做"
