"""The water plan's rows: the plan and its grants.

The rules about which state follows which live in `scheduler.core.water_plan`; these
functions store the result. Grant changes name the state they expect, so a grant
is reserved, consumed or invalidated at most once.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import bindparam, select, update

from storage.database import Session
from storage.delivery_models import WATER_GRANTS, WATER_PLANS
from storage.dialect import insert_into, insert_returning_id, insert_unless_exists
from storage.models import USERS
from storage.records import Habit, PlanRecord
from storage.vocabulary import GrantStatus, PlanState


async def plan_of(session: Session, user_id: int, *, lock: bool = False) -> PlanRecord | None:
    """The user's plan. `lock`: hold its row (MySQL/MariaDB) until the caller's
    transaction ends, so the plan acted on is the plan written back: the tick locks it,
    and a user's 暂停 committing meanwhile waits instead of being overwritten."""
    stmt = _PLAN_LOCKED if lock and session.dialect.name != "sqlite" else _PLAN
    row = (await session.execute(stmt, {"user_id": user_id})).first()
    if row is None:
        return None
    return PlanRecord(
        id=row.id,
        user_id=row.user_id,
        rule_id=row.rule_id,
        state=row.state,
        parked_request_key=row.parked_request_key,
        parked_next_at=row.parked_next_at,
        pause_notice=row.pause_notice,
    )


# Built once (a water check-in reads the plan on every message), the user bound at execution.
_PLAN = select(WATER_PLANS).where(WATER_PLANS.c.user_id == bindparam("user_id"))
_PLAN_LOCKED = _PLAN.with_for_update()


async def create_plan(session: Session, *, user_id: int, rule_id: int, now: dt.datetime) -> int:
    values = {
        "user_id": user_id,
        "rule_id": rule_id,
        "state": PlanState.DISABLED,
        "parked_request_key": None,
        "parked_next_at": None,
        "pause_notice": None,
        "updated_at": now,
    }
    return await insert_returning_id(session, insert_into(WATER_PLANS), values)


async def save_plan(
    session: Session,
    plan_id: int,
    *,
    state: str,
    parked_request_key: str | None,
    parked_next_at: dt.datetime | None,
    pause_notice: str | None,
    now: dt.datetime,
) -> None:
    """Store the plan as the state machine left it."""
    values = {
        "state": state,
        "parked_request_key": parked_request_key,
        "parked_next_at": parked_next_at,
        "pause_notice": pause_notice,
        "updated_at": now,
    }
    await session.execute(update(WATER_PLANS).where(WATER_PLANS.c.id == plan_id).values(values))


async def habit(session: Session, user_id: int) -> Habit:
    row = (await session.execute(select(USERS).where(USERS.c.id == user_id))).one()
    return Habit(
        timezone=row.timezone,
        wake_at=row.wake_at,
        sleep_at=row.sleep_at,
        interval_minutes=row.water_interval_minutes,
        goal=row.water_goal,
    )


async def set_habit(session: Session, user_id: int, **changes: object) -> None:
    """Change any of wake_at, sleep_at, water_interval_minutes, water_goal."""
    allowed = {"wake_at", "sleep_at", "water_interval_minutes", "water_goal"}
    if not changes or set(changes) - allowed:
        raise ValueError(f"unknown habit fields: {sorted(set(changes) - allowed)}")
    await session.execute(update(USERS).where(USERS.c.id == user_id).values(changes))


async def add_grant(
    session: Session, *, plan_id: int, request_key: str, now: dt.datetime
) -> int | None:
    """A new available grant for this request; None if the request already made one."""
    values = {
        "plan_id": plan_id,
        "request_key": request_key,
        "state": GrantStatus.AVAILABLE,
        "job_id": None,
        "created_at": now,
        "updated_at": now,
    }
    return await insert_unless_exists(session, WATER_GRANTS, values)


async def grant_in(session: Session, plan_id: int, state: str) -> int | None:
    """The id of one grant of the plan in `state` (the oldest), if any."""
    stmt = (
        select(WATER_GRANTS.c.id)
        .where(WATER_GRANTS.c.plan_id == plan_id, WATER_GRANTS.c.state == state)
        .order_by(WATER_GRANTS.c.id)
        .limit(1)
    )
    return (await session.execute(stmt)).scalar_one_or_none()


async def move_grant(
    session: Session,
    grant_id: int,
    *,
    expected: str,
    to: str,
    now: dt.datetime,
    job_id: int | None = None,
) -> bool:
    """Move one grant from `expected` to `to`. False if it was not in `expected`."""
    values: dict[str, object] = {"state": to, "updated_at": now}
    if job_id is not None:
        values["job_id"] = job_id
    stmt = update(WATER_GRANTS).where(
        WATER_GRANTS.c.id == grant_id, WATER_GRANTS.c.state == expected
    )
    return bool((await session.execute(stmt.values(values))).rowcount)


async def release_grant(session: Session, plan_id: int, *, now: dt.datetime) -> bool:
    """The plan's reserved grant back to `available`, bound to no job (its reminder
    never left). False if the plan holds no reserved grant."""
    stmt = (
        update(WATER_GRANTS)
        .where(WATER_GRANTS.c.plan_id == plan_id, WATER_GRANTS.c.state == GrantStatus.RESERVED)
        .values(state=GrantStatus.AVAILABLE, job_id=None, updated_at=now)
    )
    return bool((await session.execute(stmt)).rowcount)


async def invalidate_open_grants(session: Session, plan_id: int, *, now: dt.datetime) -> int:
    """Every grant not yet consumed becomes invalid (the user turned reminders off)."""
    stmt = (
        update(WATER_GRANTS)
        .where(
            WATER_GRANTS.c.plan_id == plan_id,
            WATER_GRANTS.c.state.in_((GrantStatus.AVAILABLE, GrantStatus.RESERVED)),
        )
        .values(state=GrantStatus.INVALID, updated_at=now)
    )
    return int((await session.execute(stmt)).rowcount)


async def reserved_for_job(session: Session, plan_id: int, job_id: int) -> bool:
    """Whether the plan's reserved grant was reserved by this job (a retried send)."""
    stmt = select(WATER_GRANTS.c.id).where(
        WATER_GRANTS.c.plan_id == plan_id,
        WATER_GRANTS.c.state == GrantStatus.RESERVED,
        WATER_GRANTS.c.job_id == job_id,
    )
    return (await session.execute(stmt)).first() is not None
