"""Budgets (`预算 餐饮 1500`) and the weight goal (`目标体重 68`).

A budget is written under the user's row lock (every message holds it), so "insert
unless it exists, else update" cannot race with another message of the same user;
the unique (user, category) key is the last guard.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, cast

from sqlalchemy import CursorResult, delete, select, update

from storage.database import Session
from storage.dialect import insert_unless_exists
from storage.models import USERS
from storage.records import BudgetRecord
from storage.review_models import BUDGETS


async def set_budget(session: Session, user_id: int, category: str, amount: Decimal) -> bool:
    """Set the category's monthly budget; True when it was new. Changing the amount
    forgets the month's nudges (a new budget earns its own 80% and 100%)."""
    values = {"user_id": user_id, "category": category, "amount": amount, "nudged_level": 0}
    if await insert_unless_exists(session, BUDGETS, values) is not None:
        return True
    await session.execute(
        update(BUDGETS)
        .where(BUDGETS.c.user_id == user_id, BUDGETS.c.category == category)
        .values(amount=amount, nudged_month=None, nudged_level=0)
    )
    return False


async def of_user(session: Session, user_id: int) -> list[BudgetRecord]:
    """The user's budgets by category name."""
    stmt = select(BUDGETS).where(BUDGETS.c.user_id == user_id).order_by(BUDGETS.c.category)
    return [
        BudgetRecord(
            category=r.category,
            amount=r.amount,
            nudged_month=r.nudged_month,
            nudged_level=r.nudged_level,
        )
        for r in await session.execute(stmt)
    ]


async def delete_budget(session: Session, user_id: int, category: str) -> bool:
    """Remove the category's budget; False when there was none."""
    stmt = delete(BUDGETS).where(BUDGETS.c.user_id == user_id, BUDGETS.c.category == category)
    result = cast(CursorResult[Any], await session.execute(stmt))
    return bool(result.rowcount)


async def mark_nudged(
    session: Session, user_id: int, category: str, *, month: str, level: int
) -> None:
    """Remember that the `level` threshold was told for `month` ("2026-11")."""
    await session.execute(
        update(BUDGETS)
        .where(BUDGETS.c.user_id == user_id, BUDGETS.c.category == category)
        .values(nudged_month=month, nudged_level=level)
    )


async def goal_weight(session: Session, user_id: int) -> Decimal | None:
    stmt = select(USERS.c.goal_weight).where(USERS.c.id == user_id)
    value: Decimal | None = (await session.execute(stmt)).scalar_one_or_none()
    return value


async def set_goal_weight(session: Session, user_id: int, kg: Decimal | None) -> None:
    await session.execute(update(USERS).where(USERS.c.id == user_id).values(goal_weight=kg))
