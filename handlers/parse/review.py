"""The weekly review's commands: 周报 (whole message, in views), 设置/开启/关闭 周报,
预算 [类别 金额], 取消预算 类别, 目标体重 N, 取消目标体重.

Pure and total like the rest of the parser.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal, InvalidOperation

from handlers import texts
from handlers.commands import (
    CancelBudget,
    Command,
    ParseError,
    SetBudget,
    SetGoalWeight,
    SetReview,
    ShowBudgets,
)
from handlers.parse.body import Body
from handlers.parse.cues import asks_to_see
from handlers.parse.lexicon import EXPENSE_SYNONYMS, WEEKDAYS
from handlers.parse.numbers import parse_weight
from handlers.parse.patterns import (
    BUDGET_CATEGORY_WORD,
    BUDGET_PATTERN,
    REVIEW_AT_PATTERN,
)

BUDGET_MAX = Decimal("1000000")
_BUDGET = re.compile(BUDGET_PATTERN)
_CATEGORY = re.compile(BUDGET_CATEGORY_WORD)
_REVIEW_AT = re.compile(REVIEW_AT_PATTERN)


def parse_budget(body: Body) -> Command:
    """`预算` (list) / `预算 餐饮 1500` / `预算 餐饮 1500元`."""
    text = body.text.strip()
    if not text or asks_to_see(text):
        return ShowBudgets()  # 预算 list, 预算清单
    match = _BUDGET.fullmatch(text)
    if match is None:
        raise ParseError(texts.BUDGET_HINT)
    try:
        amount = Decimal(match["amount"])
    except InvalidOperation:
        raise ParseError(texts.BUDGET_HINT) from None
    if not 0 < amount < BUDGET_MAX:
        raise ParseError(texts.BUDGET_OUT_OF_RANGE)
    return SetBudget(category=category(match["cat"]), amount=amount.quantize(Decimal("0.01")))


def category(word: str) -> str:
    """The ledger's category for `word` (外卖 -> 餐饮), as expenses are booked; a word
    that is none would make a budget nothing ever counts against, so it is refused."""
    found = EXPENSE_SYNONYMS.get(word)
    if found is None:
        raise ParseError(texts.BUDGET_CATEGORY_UNKNOWN)
    return found


def parse_cancel_budget(body: Body) -> Command:
    """`取消预算 餐饮`."""
    text = body.text.strip()
    if not _CATEGORY.fullmatch(text):
        raise ParseError(texts.CANCEL_BUDGET_HINT)
    return CancelBudget(category=EXPENSE_SYNONYMS.get(text, text))


def parse_goal_weight(body: Body) -> Command:
    """`目标体重 68` / `目标体重 68kg` / `目标体重 136斤` (20-300 kg)."""
    kg = parse_weight(body.text.strip(), unit_required=False)
    if kg is None:
        raise ParseError(texts.GOAL_WEIGHT_HINT)
    return SetGoalWeight(kg=kg)


def parse_review_time(value: str) -> SetReview:
    """`周日 20:00` (the value of `设置 周报 ...`)."""
    match = _REVIEW_AT.fullmatch(value.strip())
    if match is None or int(match["h"]) > 23 or int(match["m"]) > 59:
        raise ParseError(texts.REVIEW_TIME_HINT)
    at = dt.time(int(match["h"]), int(match["m"]))
    return SetReview(on=True, weekday=WEEKDAYS[match["wd"]], at=at)
