"""Reminder rules: creating, the due scan, moving `next_fire_at`, pausing."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from storage.database import Database
from storage.delivery_models import RULES
from storage.records import RuleRecord
from storage.repos import rules
from tests.integration.conftest import new_rule, new_user

Sessions = AsyncEngine  # `async with sessionmaker.begin() as session` (a Core connection)
MINUTE = dt.timedelta(minutes=1)
TICK = dt.timedelta(microseconds=1)


async def _rule(
    sessionmaker: Sessions,
    clock: FakeClock,
    user_id: int,
    next_fire_at: dt.datetime | None,
    *,
    kind: str = "custom",
    status: str = "active",
) -> int:
    return await new_rule(
        sessionmaker,
        clock,
        user_id,
        kind=kind,
        policy="at_least_once",
        next_fire_at=next_fire_at,
        status=status,
        spec='{"every": "day"}',
    )


async def _due(sessionmaker: Sessions, now: dt.datetime, limit: int = 100) -> list[int]:
    async with sessionmaker.begin() as session:
        return [r.id for r in await rules.due(session, now=now, limit=limit)]


async def _row(sessionmaker: Sessions, rule_id: int) -> Any:
    async with sessionmaker.begin() as session:
        return (await session.execute(select(RULES).where(RULES.c.id == rule_id))).one()


# --- creating and reading ------------------------------------------------------------


async def test_a_created_rule_reads_back_with_everything_it_was_given(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    fire_at = clock.now() + dt.timedelta(hours=1, microseconds=7)

    rule_id = await _rule(sessionmaker, clock, user_id, fire_at, kind="water")
    async with sessionmaker.begin() as session:
        found = await rules.get(session, rule_id)
        missing = await rules.get(session, rule_id + 100)
    row = await _row(sessionmaker, rule_id)

    assert found == RuleRecord(
        id=rule_id,
        user_id=user_id,
        kind="water",
        status="active",
        policy="at_least_once",
        priority="normal",
        channel="wecom_app",
        next_fire_at=fire_at,
        spec='{"every": "day"}',
        number=1,
    )
    assert missing is None
    assert (row.created_at, row.updated_at) == (clock.now(), clock.now())


async def test_of_user_lists_only_that_users_rules_in_creation_order_and_filters_by_kind(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    zhang = await new_user(sessionmaker, clock)
    li = await new_user(sessionmaker, clock, "lisi")
    water = await _rule(sessionmaker, clock, zhang, None, kind="water")
    digest = await _rule(sessionmaker, clock, zhang, None, kind="digest_morning")
    await _rule(sessionmaker, clock, li, None, kind="water")
    paused = await _rule(sessionmaker, clock, zhang, None, kind="water", status="paused")

    async with sessionmaker.begin() as session:
        every = await rules.of_user(session, zhang)
        waters = await rules.of_user(session, zhang, "water")
        nothing = await rules.of_user(session, zhang, "task_due")

    assert [r.id for r in every] == [water, digest, paused]
    assert [r.id for r in waters] == [water, paused]
    assert nothing == []


# --- the due scan --------------------------------------------------------------------


async def test_due_returns_active_rules_whose_time_has_come_oldest_first(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    now = clock.now()
    user_id = await new_user(sessionmaker, clock)
    # Created out of time order, so the order cannot come from the ids.
    one_hour_ago = await _rule(sessionmaker, clock, user_id, now - 60 * MINUTE)
    just_now = await _rule(sessionmaker, clock, user_id, now)
    two_hours_ago = await _rule(sessionmaker, clock, user_id, now - 120 * MINUTE)
    await _rule(sessionmaker, clock, user_id, now + TICK)
    await _rule(sessionmaker, clock, user_id, None)

    assert await _due(sessionmaker, now) == [two_hours_ago, one_hour_ago, just_now]


async def test_due_returns_at_most_limit_rules_and_the_oldest_ones(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    now = clock.now()
    user_id = await new_user(sessionmaker, clock)
    ages = [5, 1, 4, 2, 3]
    ids = {age: await _rule(sessionmaker, clock, user_id, now - age * MINUTE) for age in ages}
    same_time = await _rule(sessionmaker, clock, user_id, now - 5 * MINUTE)

    assert await _due(sessionmaker, now, limit=3) == [ids[5], same_time, ids[4]]
    assert await _due(sessionmaker, now, limit=1) == [ids[5]]


async def test_paused_and_disabled_rules_are_not_due_until_active_again(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    now = clock.now()
    user_id = await new_user(sessionmaker, clock)
    paused = await _rule(sessionmaker, clock, user_id, now - MINUTE, status="paused")
    disabled = await _rule(sessionmaker, clock, user_id, now - MINUTE, status="disabled")
    active = await _rule(sessionmaker, clock, user_id, now - MINUTE)

    before = await _due(sessionmaker, now)
    async with sessionmaker.begin() as session:
        await rules.set_status(session, active, "paused", now=now)
        await rules.set_status(session, paused, "active", now=now)

    assert before == [active]
    assert await _due(sessionmaker, now) == [paused]
    assert disabled not in await _due(sessionmaker, now + dt.timedelta(days=365))


async def test_two_concurrent_ticks_split_the_due_rules_between_them(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    """The first tick advances its rules and holds its transaction open meanwhile.

    MariaDB: the second tick runs while the first's rows are locked and skips them.
    SQLite: the gate makes it wait, and it then sees them already advanced.
    """
    now = clock.now()
    user_id = await new_user(engine, clock)
    ids = [await _rule(engine, clock, user_id, now - n * MINUTE) for n in range(6, 0, -1)]
    database, concurrent = Database(engine), engine.dialect.name != "sqlite"
    first_has_taken, second_is_done = asyncio.Event(), asyncio.Event()

    async def first_tick() -> list[int]:
        async with database.transaction() as session:
            taken = await rules.due(session, now=now, limit=4)
            for rule in taken:
                await rules.set_next_fire(session, rule.id, now + 60 * MINUTE, now=now)
            first_has_taken.set()
            if concurrent:
                await second_is_done.wait()
        return [r.id for r in taken]

    async def second_tick() -> list[int]:
        await first_has_taken.wait()
        async with database.transaction() as session:
            taken = await rules.due(session, now=now, limit=10)
        second_is_done.set()
        return [r.id for r in taken]

    first, second = await asyncio.gather(first_tick(), second_tick())

    assert (first, second) == (ids[:4], ids[4:])


# --- moving the next occurrence and the status ---------------------------------------


async def test_set_next_fire_without_expected_moves_it_whatever_it_was(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    rule_id = await _rule(sessionmaker, clock, user_id, clock.now())
    later, moved_at = clock.now() + 90 * MINUTE, clock.now() + MINUTE

    async with sessionmaker.begin() as session:
        moved = await rules.set_next_fire(session, rule_id, later, now=moved_at)
    row = await _row(sessionmaker, rule_id)
    async with sessionmaker.begin() as session:
        cleared = await rules.set_next_fire(session, rule_id, None, now=moved_at)

    assert moved is True
    assert (row.next_fire_at, row.updated_at) == (later, moved_at)
    assert cleared is True
    assert (await _row(sessionmaker, rule_id)).next_fire_at is None
    assert await _due(sessionmaker, clock.now() + dt.timedelta(days=365)) == []


async def test_set_next_fire_with_the_expected_time_moves_it(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    current = clock.now() - dt.timedelta(microseconds=123)
    rule_id = await _rule(sessionmaker, clock, user_id, current)
    later = clock.now() + 60 * MINUTE

    async with sessionmaker.begin() as session:
        moved = await rules.set_next_fire(
            session, rule_id, later, now=clock.now(), expected=current
        )

    assert moved is True
    assert (await _row(sessionmaker, rule_id)).next_fire_at == later


async def test_set_next_fire_with_a_stale_expected_time_changes_nothing(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    current = clock.now()
    rule_id = await _rule(sessionmaker, clock, user_id, current)
    before = await _row(sessionmaker, rule_id)

    async with sessionmaker.begin() as session:
        moved = await rules.set_next_fire(
            session,
            rule_id,
            current + 60 * MINUTE,
            now=current + MINUTE,
            expected=current - TICK,  # another tick already moved it from here
        )

    assert moved is False
    assert await _row(sessionmaker, rule_id) == before


async def test_set_next_fire_of_a_missing_rule_reports_false(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    async with sessionmaker.begin() as session:
        moved = await rules.set_next_fire(session, 404, clock.now(), now=clock.now())

    assert moved is False


async def test_move_next_fire_moves_each_rule_from_its_expected_time_to_its_own(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    current = clock.now() - dt.timedelta(microseconds=123)
    later, moved_at = clock.now() + dt.timedelta(days=1, microseconds=7), clock.now() + MINUTE
    onward, done, stale = [await _rule(sessionmaker, clock, user_id, current) for _ in range(3)]
    untouched = await _rule(sessionmaker, clock, user_id, current)
    before = await _row(sessionmaker, stale)

    async with sessionmaker.begin() as session:
        moved = await rules.move_next_fire(
            session,
            [
                rules.Move(rule_id=onward, expected=current, to=later),
                rules.Move(rule_id=done, expected=current, to=None),
                rules.Move(rule_id=stale, expected=current - TICK, to=later),  # moved meanwhile
                rules.Move(rule_id=404, expected=current, to=later),
            ],
            now=moved_at,
        )
        nothing = await rules.move_next_fire(session, [], now=moved_at)

    assert (moved, nothing) == (2, 0)
    onward_row, done_row = await _row(sessionmaker, onward), await _row(sessionmaker, done)
    assert (onward_row.next_fire_at, onward_row.updated_at) == (later, moved_at)
    assert (done_row.next_fire_at, done_row.updated_at) == (None, moved_at)
    assert await _row(sessionmaker, stale) == before
    assert (await _row(sessionmaker, untouched)).next_fire_at == current


async def test_set_status_changes_only_the_status_and_the_update_time(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    rule_id = await _rule(sessionmaker, clock, user_id, clock.now())
    other = await _rule(sessionmaker, clock, user_id, clock.now())
    before, other_before = await _row(sessionmaker, rule_id), await _row(sessionmaker, other)
    paused_at = clock.now() + 5 * MINUTE

    async with sessionmaker.begin() as session:
        await rules.set_status(session, rule_id, "paused", now=paused_at)
    after = await _row(sessionmaker, rule_id)

    assert after._asdict() == before._asdict() | {"status": "paused", "updated_at": paused_at}
    assert await _row(sessionmaker, other) == other_before
