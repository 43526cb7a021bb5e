"""Tasks and their short numbers."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from storage.dialect import insert_returning_id
from storage.models import Task
from storage.records import TaskRecord

OPEN, DONE, CANCELLED = "open", "done", "cancelled"


def _record(row: Task) -> TaskRecord:
    return TaskRecord(
        id=row.id,
        number=row.number,
        title=row.title,
        due_date=row.due_date,
        due_time=row.due_time,
        status=row.status,
    )


async def _free_number(session: AsyncSession, user_id: int) -> int:
    """The smallest positive number not held by one of the user's open tasks."""
    stmt = select(Task.number).where(Task.user_id == user_id, Task.number.is_not(None))
    taken = set((await session.execute(stmt)).scalars())
    number = 1
    while number in taken:
        number += 1
    return number


async def add_task(
    session: AsyncSession,
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
        insert(Task).values(
            user_id=user_id,
            number=number,
            title=title,
            due_date=due_date,
            due_time=due_time,
            status=OPEN,
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
        status=OPEN,
    )


async def open_tasks(session: AsyncSession, user_id: int) -> list[TaskRecord]:
    """Open tasks: dated ones first by date and time, then undated, each by number."""
    stmt = (
        select(Task)
        .where(Task.user_id == user_id, Task.status == OPEN)
        .order_by(
            Task.due_date.is_(None),
            Task.due_date,
            Task.due_time.is_(None),
            Task.due_time,
            Task.number,
        )
    )
    return [_record(r) for r in (await session.execute(stmt)).scalars()]


async def find_open_by_number(
    session: AsyncSession, user_id: int, number: int
) -> TaskRecord | None:
    stmt = select(Task).where(Task.user_id == user_id, Task.status == OPEN, Task.number == number)
    row = (await session.execute(stmt)).scalar_one_or_none()
    return None if row is None else _record(row)


async def find_open_by_title(session: AsyncSession, user_id: int, text: str) -> list[TaskRecord]:
    """Open tasks whose title equals `text`, else those containing it."""
    tasks = await open_tasks(session, user_id)
    exact = [t for t in tasks if t.title == text]
    return exact or [t for t in tasks if text in t.title]


async def close_task(session: AsyncSession, task_id: int, *, status: str, now: dt.datetime) -> None:
    """Mark done or cancelled and release the short number."""
    await session.execute(
        update(Task)
        .where(Task.id == task_id, Task.status == OPEN)
        .values(status=status, closed_at=now, number=None)
    )


async def reopen_task(session: AsyncSession, task_id: int, user_id: int) -> TaskRecord | None:
    """Undo a close: open again with a fresh short number."""
    number = await _free_number(session, user_id)
    await session.execute(
        update(Task)
        .where(Task.id == task_id, Task.user_id == user_id, Task.status != OPEN)
        .values(status=OPEN, closed_at=None, number=number)
    )
    stmt = select(Task).where(Task.id == task_id, Task.user_id == user_id)
    row = (await session.execute(stmt)).scalar_one_or_none()
    return None if row is None else _record(row)


async def delete_task(session: AsyncSession, task_id: int, user_id: int) -> TaskRecord | None:
    """Undo a creation. Returns what was deleted, or None if it was already gone."""
    row = (
        await session.execute(select(Task).where(Task.id == task_id, Task.user_id == user_id))
    ).scalar_one_or_none()
    if row is None:
        return None
    record = _record(row)
    await session.delete(row)
    return record


async def count_done_between(
    session: AsyncSession, user_id: int, start: dt.datetime, end: dt.datetime
) -> int:
    stmt = (
        select(func.count())
        .select_from(Task)
        .where(
            Task.user_id == user_id,
            Task.status == DONE,
            Task.closed_at >= start,
            Task.closed_at < end,
        )
    )
    return int((await session.execute(stmt)).scalar_one())
