"""Tasks: short numbers that stay short, finding, closing, reopening, ordering."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from handlers.naming import named
from scheduler.clock import FakeClock
from storage.models import TASKS
from storage.records import TaskRecord
from storage.repos import tasks
from storage.vocabulary import TaskStatus
from tests.integration.conftest import new_user

Sessions = AsyncEngine  # `async with sessionmaker.begin() as session` (a Core connection)
FRIDAY = dt.date(2026, 11, 27)
TODAY = dt.date(2026, 11, 25)  # the clock's local date in Shanghai
DAY = dt.timedelta(days=1)


async def _add(
    sessionmaker: Sessions,
    clock: FakeClock,
    user_id: int,
    title: str,
    due_date: dt.date | None = None,
    due_time: dt.time | None = None,
) -> TaskRecord:
    async with sessionmaker.begin() as session:
        return await tasks.add_task(
            session,
            user_id=user_id,
            title=title,
            due_date=due_date,
            due_time=due_time,
            now=clock.now(),
            source_key=f"{user_id}:{title}",
        )


async def _close(
    sessionmaker: Sessions, task: TaskRecord, now: dt.datetime, status: str = TaskStatus.DONE
) -> None:
    async with sessionmaker.begin() as session:
        await tasks.close_task(session, task.id, status=status, now=now)


async def _row(sessionmaker: Sessions, task_id: int) -> Any:
    async with sessionmaker.begin() as session:
        return (await session.execute(select(TASKS).where(TASKS.c.id == task_id))).one()


async def _open(sessionmaker: Sessions, user_id: int) -> list[TaskRecord]:
    async with sessionmaker.begin() as session:
        return await tasks.open_tasks(session, user_id)


# --- numbering -----------------------------------------------------------------------


async def test_new_tasks_are_numbered_one_two_three(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)

    added = [
        await _add(sessionmaker, clock, user_id, title) for title in ("交材料", "买菜", "跑步")
    ]

    assert [t.number for t in added] == [1, 2, 3]
    assert [t.status for t in added] == [TaskStatus.OPEN] * 3
    assert await _open(sessionmaker, user_id) == added


async def test_a_closed_task_releases_its_number_for_the_next_new_task(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    _, second, _ = [await _add(sessionmaker, clock, user_id, t) for t in ("a", "b", "c")]

    await _close(sessionmaker, second, clock.now())
    reused = await _add(sessionmaker, clock, user_id, "d")
    after = await _add(sessionmaker, clock, user_id, "e")

    assert (reused.number, after.number) == (2, 4)


async def test_each_user_numbers_their_tasks_from_one(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    zhang = await new_user(sessionmaker, clock)
    li = await new_user(sessionmaker, clock, "lisi")
    await _add(sessionmaker, clock, zhang, "a")
    await _add(sessionmaker, clock, zhang, "b")

    theirs = await _add(sessionmaker, clock, li, "a")

    assert theirs.number == 1


# --- finding -------------------------------------------------------------------------


async def test_find_open_by_number_finds_only_the_users_open_task(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    zhang = await new_user(sessionmaker, clock)
    li = await new_user(sessionmaker, clock, "lisi")
    first = await _add(sessionmaker, clock, zhang, "交材料")
    second = await _add(sessionmaker, clock, zhang, "买菜")
    await _close(sessionmaker, second, clock.now())

    async with sessionmaker.begin() as session:
        found = await tasks.find_open_by_number(session, zhang, 1)
        closed = await tasks.find_open_by_number(session, zhang, 2)
        missing = await tasks.find_open_by_number(session, zhang, 3)
        not_theirs = await tasks.find_open_by_number(session, li, 1)

    assert found == first
    assert (closed, missing, not_theirs) == (None, None, None)


async def test_an_exact_title_beats_titles_that_merely_contain_it(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    await _add(sessionmaker, clock, user_id, "买菜和水果")
    exact = await _add(sessionmaker, clock, user_id, "买菜")

    async with sessionmaker.begin() as session:
        found = named(await tasks.open_tasks(session, user_id), "买菜", _title)

    assert found == [exact]


async def test_a_title_fragment_finds_every_open_task_containing_it(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    zhang = await new_user(sessionmaker, clock)
    li = await new_user(sessionmaker, clock, "lisi")
    undated = await _add(sessionmaker, clock, zhang, "给妈妈打电话")
    dated = await _add(sessionmaker, clock, zhang, "给房东打电话", FRIDAY)
    closed = await _add(sessionmaker, clock, zhang, "给老板打电话")
    await _add(sessionmaker, clock, zhang, "交材料")
    await _add(sessionmaker, clock, li, "给朋友打电话")
    await _close(sessionmaker, closed, clock.now())

    async with sessionmaker.begin() as session:
        found = named(await tasks.open_tasks(session, zhang), "打电话", _title)
        nothing = named(await tasks.open_tasks(session, zhang), "洗车", _title)

    assert found == [dated, undated]  # in the order open_tasks lists them
    assert nothing == []


def _title(task: TaskRecord) -> str:
    return task.title


# --- closing, reopening, deleting ----------------------------------------------------


async def test_closing_a_task_sets_status_and_time_and_releases_its_number(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    task = await _add(sessionmaker, clock, user_id, "交材料")
    closed_at = clock.now() + dt.timedelta(hours=3, microseconds=42)

    await _close(sessionmaker, task, closed_at)
    row = await _row(sessionmaker, task.id)

    assert (row.status, row.number, row.closed_at) == (TaskStatus.DONE, None, closed_at)
    assert await _open(sessionmaker, user_id) == []


async def test_closing_an_already_closed_task_changes_nothing(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    task = await _add(sessionmaker, clock, user_id, "交材料")
    await _close(sessionmaker, task, clock.now())

    await _close(
        sessionmaker, task, clock.now() + dt.timedelta(days=1), status=TaskStatus.CANCELLED
    )
    row = await _row(sessionmaker, task.id)

    assert (row.status, row.closed_at, row.number) == (TaskStatus.DONE, clock.now(), None)


async def test_a_reopened_task_gets_the_smallest_free_number(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    first, _, third = [await _add(sessionmaker, clock, user_id, t) for t in ("a", "b", "c")]
    await _close(sessionmaker, first, clock.now())
    await _close(sessionmaker, third, clock.now(), status=TaskStatus.CANCELLED)

    async with sessionmaker.begin() as session:
        reopened = await tasks.reopen_task(session, third.id, user_id)
    row = await _row(sessionmaker, third.id)

    assert reopened == TaskRecord(
        id=third.id, number=1, title="c", due_date=None, due_time=None, status=TaskStatus.OPEN
    )
    assert (row.status, row.number, row.closed_at) == (TaskStatus.OPEN, 1, None)


async def test_reopening_an_open_task_keeps_its_number(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    await _add(sessionmaker, clock, user_id, "a")
    second = await _add(sessionmaker, clock, user_id, "b")

    async with sessionmaker.begin() as session:
        again = await tasks.reopen_task(session, second.id, user_id)
        missing = await tasks.reopen_task(session, second.id + 100, user_id)

    assert again == second
    assert missing is None


async def test_reopening_another_users_task_returns_nothing_and_leaves_it_closed(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    owner = await new_user(sessionmaker, clock)
    stranger = await new_user(sessionmaker, clock, "lisi")
    task = await _add(sessionmaker, clock, owner, "交材料")
    await _close(sessionmaker, task, clock.now())

    async with sessionmaker.begin() as session:
        returned = await tasks.reopen_task(session, task.id, stranger)
    row = await _row(sessionmaker, task.id)

    assert returned is None
    assert (row.status, row.number) == (TaskStatus.DONE, None)


async def test_delete_task_returns_what_it_deleted_once_and_only_for_its_owner(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    owner = await new_user(sessionmaker, clock)
    stranger = await new_user(sessionmaker, clock, "lisi")
    task = await _add(sessionmaker, clock, owner, "交材料", FRIDAY, dt.time(9, 30))

    async with sessionmaker.begin() as session:
        by_stranger = await tasks.delete_task(session, task.id, stranger)
    async with sessionmaker.begin() as session:
        by_owner = await tasks.delete_task(session, task.id, owner)
    async with sessionmaker.begin() as session:
        again = await tasks.delete_task(session, task.id, owner)

    assert (by_stranger, by_owner, again) == (None, task, None)
    assert await _open(sessionmaker, owner) == []


async def test_a_deleted_tasks_number_is_free_again(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    first = await _add(sessionmaker, clock, user_id, "a")
    await _add(sessionmaker, clock, user_id, "b")
    async with sessionmaker.begin() as session:
        await tasks.delete_task(session, first.id, user_id)

    replacement = await _add(sessionmaker, clock, user_id, "c")

    assert replacement.number == 1


# --- listing and counting ------------------------------------------------------------


async def test_open_tasks_list_dated_ones_by_date_and_time_then_undated_by_number(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    other = await new_user(sessionmaker, clock, "lisi")
    thursday = FRIDAY - dt.timedelta(days=1)
    plan = [
        ("undated-1", None, None),
        ("friday-any-time", FRIDAY, None),
        ("friday-15:00", FRIDAY, dt.time(15, 0)),
        ("done", thursday, dt.time(8, 0)),
        ("undated-2", None, None),
        ("thursday-any-time", thursday, None),
        ("friday-09:30", FRIDAY, dt.time(9, 30)),
    ]
    added = {title: await _add(sessionmaker, clock, user_id, title, d, t) for title, d, t in plan}
    await _add(sessionmaker, clock, other, "theirs", thursday, dt.time(7, 0))
    await _close(sessionmaker, added["done"], clock.now())

    listed = await _open(sessionmaker, user_id)

    assert [t.title for t in listed] == [
        "thursday-any-time",
        "friday-09:30",
        "friday-15:00",
        "friday-any-time",
        "undated-1",
        "undated-2",
    ]
    assert listed[1].due_time == dt.time(9, 30)
    assert listed[1].due_date == FRIDAY


async def test_count_done_between_counts_done_tasks_closed_in_a_half_open_range(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    other = await new_user(sessionmaker, clock, "lisi")
    start = clock.now()
    end = start + dt.timedelta(days=7)
    closings = [
        ("before", start - dt.timedelta(microseconds=1), TaskStatus.DONE),
        ("at-start", start, TaskStatus.DONE),
        ("midweek", start + dt.timedelta(days=3), TaskStatus.DONE),
        ("cancelled", start + dt.timedelta(days=3), TaskStatus.CANCELLED),
        ("at-end", end, TaskStatus.DONE),
    ]
    for title, when, status in closings:
        task = await _add(sessionmaker, clock, user_id, title)
        await _close(sessionmaker, task, when, status)
    await _add(sessionmaker, clock, user_id, "still-open")
    await _close(sessionmaker, await _add(sessionmaker, clock, other, "theirs"), start)

    async with sessionmaker.begin() as session:
        mine = await tasks.count_done_between(session, user_id, start, end)
        theirs = await tasks.count_done_between(session, other, start, end)
        empty = await tasks.count_done_between(session, user_id, end, end)

    assert (mine, theirs, empty) == (2, 1, 0)


# --- tasks ---------------------------------------------------------------------------


async def _task(
    sessionmaker: Sessions, clock: FakeClock, user_id: int, title: str, due: dt.date | None
) -> TaskRecord:
    async with sessionmaker.begin() as session:
        return await tasks.add_task(
            session,
            user_id=user_id,
            title=title,
            due_date=due,
            due_time=dt.time(15, 0),
            now=clock.now(),
            source_key=f"{user_id}:{title}",
        )


async def test_get_and_owner_of_find_a_task_and_say_none_for_a_missing_one(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    li = await new_user(sessionmaker, clock, "lisi")
    task = await _task(sessionmaker, clock, li, "交报告", TODAY)

    async with sessionmaker.begin() as session:
        found, owner = await tasks.get(session, task.id), await tasks.owner_of(session, task.id)
        missing = await tasks.get(session, task.id + 100)
        no_owner = await tasks.owner_of(session, task.id + 100)

    assert (found, owner) == (task, li)
    assert (missing, no_owner) == (None, None)


async def test_set_due_moves_an_open_task_keeping_its_time_and_leaves_a_closed_one(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    open_task = await _task(sessionmaker, clock, user_id, "交报告", TODAY)
    closed = await _task(sessionmaker, clock, user_id, "买菜", TODAY)
    async with sessionmaker.begin() as session:
        await tasks.close_task(session, closed.id, status=TaskStatus.DONE, now=clock.now())

    async with sessionmaker.begin() as session:
        await tasks.set_due(session, open_task.id, due_date=TODAY + DAY)
        await tasks.set_due(session, closed.id, due_date=TODAY + DAY)
        moved, stayed = await tasks.get(session, open_task.id), await tasks.get(session, closed.id)

    assert moved is not None
    assert stayed is not None
    assert (moved.due_date, moved.due_time, moved.status) == (TODAY + DAY, dt.time(15, 0), "open")
    assert (stayed.due_date, stayed.status) == (TODAY, "done")
