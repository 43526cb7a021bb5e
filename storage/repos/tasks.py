"""Tasks and their short numbers."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import Row, delete, func, insert, select, update

from storage.database import Session
from storage.dialect import insert_returning_id
from storage.models import TASKS
from storage.records import TaskRecord
from storage.repos.numbers import smallest_free
from storage.vocabulary import TaskStatus


def _record(row: Row[Any]) -> TaskRecord:
    return TaskRecord(
        id=row.id,
        number=row.number,
        title=row.title,
        due_date=row.due_date,
        due_time=row.due_time,
        status=row.status,
    )


async def _free_number(session: Session, user_id: int) -> int:
    """The smallest positive number not held by one of the user's open tasks."""
    stmt = select(TASKS.c.number).where(TASKS.c.user_id == user_id, TASKS.c.number.is_not(None))
    return smallest_free((await session.execute(stmt)).scalars())


async def add_task(
    session: Session,
    *,
    user_id: int,
    title: str,
    due_date: dt.date | None,
    due_time: dt.time | None,
    now: dt.datetime,
    source_key: str,
) -> TaskRecord:
    number = await _free_number(session, user_id)
    task_id = await insert_returning_id(
        session,
        insert(TASKS).values(
            user_id=user_id,
            number=number,
            title=title,
            due_date=due_date,
            due_time=due_time,
            status=TaskStatus.OPEN,
            created_at=now,
            source_key=source_key,
        ),
    )
    return TaskRecord(
        id=int(task_id),
        number=number,
        title=title,
        due_date=due_date,
        due_time=due_time,
        status=TaskStatus.OPEN,
    )


async def open_tasks(session: Session, user_id: int) -> list[TaskRecord]:
    """Open tasks: dated ones first by date and time, then undated, each by number."""
    stmt = (
        select(TASKS)
        .where(TASKS.c.user_id == user_id, TASKS.c.status == TaskStatus.OPEN)
        .order_by(
            TASKS.c.due_date.is_(None),
            TASKS.c.due_date,
            TASKS.c.due_time.is_(None),
            TASKS.c.due_time,
            TASKS.c.number,
        )
    )
    return [_record(r) for r in await session.execute(stmt)]


async def find_open_by_number(session: Session, user_id: int, number: int) -> TaskRecord | None:
    stmt = select(TASKS).where(
        TASKS.c.user_id == user_id, TASKS.c.status == TaskStatus.OPEN, TASKS.c.number == number
    )
    row = (await session.execute(stmt)).first()
    return None if row is None else _record(row)


async def close_task(session: Session, task_id: int, *, status: str, now: dt.datetime) -> None:
    """Mark done or cancelled and release the short number."""
    await session.execute(
        update(TASKS)
        .where(TASKS.c.id == task_id, TASKS.c.status == TaskStatus.OPEN)
        .values(status=status, closed_at=now, number=None)
    )


async def reopen_task(session: Session, task_id: int, user_id: int) -> TaskRecord | None:
    """Undo a close: open again with a fresh short number."""
    number = await _free_number(session, user_id)
    await session.execute(
        update(TASKS)
        .where(TASKS.c.id == task_id, TASKS.c.user_id == user_id, TASKS.c.status != TaskStatus.OPEN)
        .values(status=TaskStatus.OPEN, closed_at=None, number=number)
    )
    stmt = select(TASKS).where(TASKS.c.id == task_id, TASKS.c.user_id == user_id)
    row = (await session.execute(stmt)).first()
    return None if row is None else _record(row)


async def delete_task(session: Session, task_id: int, user_id: int) -> TaskRecord | None:
    """Undo a creation. Returns what was deleted, or None if it was already gone."""
    mine = (TASKS.c.id == task_id, TASKS.c.user_id == user_id)
    row = (await session.execute(select(TASKS).where(*mine))).first()
    if row is None:
        return None
    await session.execute(delete(TASKS).where(*mine))
    return _record(row)


async def count_done_between(
    session: Session, user_id: int, start: dt.datetime, end: dt.datetime
) -> int:
    stmt = (
        select(func.count())
        .select_from(TASKS)
        .where(
            TASKS.c.user_id == user_id,
            TASKS.c.status == TaskStatus.DONE,
            TASKS.c.closed_at >= start,
            TASKS.c.closed_at < end,
        )
    )
    return int((await session.execute(stmt)).scalar_one())


async def get(session: Session, task_id: int) -> TaskRecord | None:
    row = (await session.execute(select(TASKS).where(TASKS.c.id == task_id))).first()
    return None if row is None else _record(row)


async def owner_of(session: Session, task_id: int) -> int | None:
    stmt = select(TASKS.c.user_id).where(TASKS.c.id == task_id)
    owner: int | None = (await session.execute(stmt)).scalar_one_or_none()
    return owner


async def set_due(session: Session, task_id: int, *, due_date: dt.date | None) -> None:
    """Move an open task to another day (明天再说); its time of day stays."""
    await session.execute(
        update(TASKS)
        .where(TASKS.c.id == task_id, TASKS.c.status == TaskStatus.OPEN)
        .values(due_date=due_date)
    )
