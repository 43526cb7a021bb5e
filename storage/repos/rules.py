"""Reminder rules: the due scan and the moving of `next_fire_at`."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Row, func, select, update

from storage.database import Session
from storage.delivery_models import RULES
from storage.dialect import insert_into, insert_returning_id


@dataclass(frozen=True, kw_only=True, slots=True)
class RuleRecord:
    id: int
    user_id: int
    kind: str
    status: str
    policy: str
    priority: str
    channel: str
    next_fire_at: dt.datetime | None
    spec: str


def _record(row: Row[Any]) -> RuleRecord:
    return RuleRecord(
        id=row.id,
        user_id=row.user_id,
        kind=row.kind,
        status=row.status,
        policy=row.policy,
        priority=row.priority,
        channel=row.channel,
        next_fire_at=row.next_fire_at,
        spec=row.spec,
    )


async def create(
    session: Session,
    *,
    user_id: int,
    kind: str,
    policy: str,
    priority: str,
    channel: str,
    now: dt.datetime,
    next_fire_at: dt.datetime | None = None,
    status: str = "active",
    spec: str = "",
) -> int:
    values = {
        "user_id": user_id,
        "kind": kind,
        "status": status,
        "policy": policy,
        "priority": priority,
        "channel": channel,
        "next_fire_at": next_fire_at,
        "spec": spec,
        "created_at": now,
        "updated_at": now,
    }
    return await insert_returning_id(session, insert_into(RULES), values)


async def get(session: Session, rule_id: int) -> RuleRecord | None:
    row = (await session.execute(select(RULES).where(RULES.c.id == rule_id))).first()
    return None if row is None else _record(row)


async def of_user(session: Session, user_id: int, kind: str | None = None) -> list[RuleRecord]:
    stmt = select(RULES).where(RULES.c.user_id == user_id).order_by(RULES.c.id)
    if kind is not None:
        stmt = stmt.where(RULES.c.kind == kind)
    return [_record(r) for r in await session.execute(stmt)]


async def due(session: Session, *, now: dt.datetime, limit: int) -> list[RuleRecord]:
    """Active rules whose `next_fire_at` has come, oldest first, at most `limit`.

    Uses the (status, next_fire_at) index: the cost is the number of due rules, not
    the number of rules. On MySQL/MariaDB the rows are locked with SKIP LOCKED so
    concurrent ticks split the work; the job's unique slot key makes a race harmless.
    """
    stmt = (
        select(RULES)
        .where(RULES.c.status == "active", RULES.c.next_fire_at <= now)
        .order_by(RULES.c.next_fire_at, RULES.c.id)
        .limit(limit)
    )
    if session.dialect.name != "sqlite":
        stmt = stmt.with_for_update(skip_locked=True)
    return [_record(r) for r in await session.execute(stmt)]


async def set_next_fire(
    session: Session,
    rule_id: int,
    next_fire_at: dt.datetime | None,
    *,
    now: dt.datetime,
    expected: dt.datetime | None = None,
) -> bool:
    """Move the rule's next occurrence. With `expected`, only if it still is that."""
    stmt = update(RULES).where(RULES.c.id == rule_id)
    if expected is not None:
        stmt = stmt.where(RULES.c.next_fire_at == expected)
    result = await session.execute(stmt.values(next_fire_at=next_fire_at, updated_at=now))
    return bool(result.rowcount)


async def set_status(session: Session, rule_id: int, status: str, *, now: dt.datetime) -> None:
    await session.execute(
        update(RULES).where(RULES.c.id == rule_id).values(status=status, updated_at=now)
    )


async def next_fire_min(session: Session) -> dt.datetime | None:
    """The earliest `next_fire_at` of any active rule (for the demo's clock jumps)."""
    stmt = select(func.min(RULES.c.next_fire_at)).where(RULES.c.status == "active")
    earliest: dt.datetime | None = (await session.execute(stmt)).scalar_one_or_none()
    return earliest
