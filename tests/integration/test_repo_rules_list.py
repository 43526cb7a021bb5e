"""Reminder rules as the user's list (storage/repos/rules.py): short numbers, listing,
finding by number or by the thing they belong to, changing, counting."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from storage.delivery_models import RULES
from storage.records import RuleRecord
from storage.repos import rules
from tests.integration.conftest import new_rule, new_user

Sessions = AsyncEngine  # `async with sessionmaker.begin() as session` (a Core connection)
MINUTE = dt.timedelta(minutes=1)
TICK = dt.timedelta(microseconds=1)
TODAY = dt.date(2026, 11, 25)  # the clock's local date in Shanghai
DAY = dt.timedelta(days=1)


async def _rule(
    sessionmaker: Sessions,
    clock: FakeClock,
    user_id: int,
    *,
    kind: str = "custom",
    status: str = "active",
    listed: bool = True,
    ref_id: int | None = None,
    label: str = "",
) -> int:
    return await new_rule(
        sessionmaker,
        clock,
        user_id,
        kind=kind,
        next_fire_at=clock.now() + 60 * MINUTE,
        status=status,
        ref_id=ref_id,
        label=label,
        listed=listed,
    )


async def _set_status(sessionmaker: Sessions, rule_id: int, status: str, now: dt.datetime) -> None:
    async with sessionmaker.begin() as session:
        await rules.set_status(session, rule_id, status, now=now)


async def _get(sessionmaker: Sessions, rule_id: int) -> RuleRecord:
    async with sessionmaker.begin() as session:
        found = await rules.get(session, rule_id)
    assert found is not None
    return found


async def _numbers(sessionmaker: Sessions, ids: list[int]) -> list[int | None]:
    return [(await _get(sessionmaker, rule_id)).number for rule_id in ids]


async def _statuses(sessionmaker: Sessions, ids: list[int]) -> list[str]:
    return [(await _get(sessionmaker, rule_id)).status for rule_id in ids]


async def _row(sessionmaker: Sessions, rule_id: int) -> Any:
    async with sessionmaker.begin() as session:
        return (await session.execute(select(RULES).where(RULES.c.id == rule_id))).one()


async def _listed(sessionmaker: Sessions, user_id: int) -> list[int]:
    async with sessionmaker.begin() as session:
        return [r.id for r in await rules.listed(session, user_id)]


# --- rule numbers --------------------------------------------------------------------


async def test_listed_rules_get_the_smallest_free_number_counted_per_user(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    zhang = await new_user(sessionmaker, clock)
    li = await new_user(sessionmaker, clock, "lisi")

    zhangs = [await _rule(sessionmaker, clock, zhang) for _ in range(3)]
    lis = [await _rule(sessionmaker, clock, li)]

    assert await _numbers(sessionmaker, zhangs) == [1, 2, 3]
    assert await _numbers(sessionmaker, lis) == [1]


async def test_a_deleted_or_done_rule_releases_its_number_and_the_smallest_is_reused_first(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    first, second, third = [await _rule(sessionmaker, clock, user_id) for _ in range(3)]

    await _set_status(sessionmaker, third, "deleted", clock.now())
    await _set_status(sessionmaker, first, "done", clock.now())
    released = [await _get(sessionmaker, rule_id) for rule_id in (first, third)]
    fourth = await _rule(sessionmaker, clock, user_id)
    fifth = await _rule(sessionmaker, clock, user_id)

    assert [(r.number, r.next_fire_at) for r in released] == [(None, None), (None, None)]
    assert await _numbers(sessionmaker, [second, fourth, fifth]) == [2, 1, 3]


async def test_paused_and_off_rules_keep_their_numbers(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    paused, off = [await _rule(sessionmaker, clock, user_id) for _ in range(2)]

    await _set_status(sessionmaker, paused, "paused", clock.now())
    await _set_status(sessionmaker, off, "off", clock.now())
    newest = await _rule(sessionmaker, clock, user_id)

    assert await _numbers(sessionmaker, [paused, off, newest]) == [1, 2, 3]


async def test_an_unlisted_rule_gets_no_number_and_takes_none_from_listed_ones(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)

    internal = await _rule(sessionmaker, clock, user_id, status="internal", listed=False)
    shown = await _rule(sessionmaker, clock, user_id)

    assert await _numbers(sessionmaker, [internal, shown]) == [None, 1]
    assert await _listed(sessionmaker, user_id) == [shown]


async def test_listed_shows_the_users_active_paused_and_off_rules_by_number(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    zhang = await new_user(sessionmaker, clock)
    li = await new_user(sessionmaker, clock, "lisi")
    gone, paused, off, done = [await _rule(sessionmaker, clock, zhang) for _ in range(4)]
    await _rule(sessionmaker, clock, li)
    await _set_status(sessionmaker, gone, "deleted", clock.now())
    await _set_status(sessionmaker, paused, "paused", clock.now())
    await _set_status(sessionmaker, off, "off", clock.now())
    await _set_status(sessionmaker, done, "done", clock.now())
    reused = await _rule(sessionmaker, clock, zhang)  # takes number 1: ids and numbers differ

    assert await _listed(sessionmaker, zhang) == [reused, paused, off]


async def test_by_number_finds_the_users_listed_rule_and_ignores_deleted_and_done_ones(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    zhang = await new_user(sessionmaker, clock)
    li = await new_user(sessionmaker, clock, "lisi")
    await _rule(sessionmaker, clock, li)
    first, second = [await _rule(sessionmaker, clock, zhang) for _ in range(2)]
    await _set_status(sessionmaker, second, "paused", clock.now())

    async def by_number(number: int) -> int | None:
        async with sessionmaker.begin() as session:
            found = await rules.by_number(session, zhang, number)
        return None if found is None else found.id

    before = [await by_number(1), await by_number(2), await by_number(3)]
    await _set_status(sessionmaker, first, "done", clock.now())
    await _set_status(sessionmaker, second, "deleted", clock.now())

    assert before == [first, second, None]
    assert [await by_number(1), await by_number(2)] == [None, None]


async def test_of_ref_finds_the_listed_rule_of_that_kind_for_that_thing(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    event_rule = await _rule(sessionmaker, clock, user_id, kind="event_reminder", ref_id=7)
    task_rule = await _rule(sessionmaker, clock, user_id, kind="task_due", ref_id=7)
    await _set_status(sessionmaker, task_rule, "paused", clock.now())

    async def of_ref(kind: str, ref_id: int) -> int | None:
        async with sessionmaker.begin() as session:
            found = await rules.of_ref(session, kind, ref_id)
        return None if found is None else found.id

    found = [await of_ref("event_reminder", 7), await of_ref("task_due", 7)]
    other_thing = await of_ref("event_reminder", 8)
    await _set_status(sessionmaker, event_rule, "deleted", clock.now())

    assert found == [event_rule, task_rule]
    assert other_thing is None
    assert await of_ref("event_reminder", 7) is None


# --- changing rules ------------------------------------------------------------------


async def test_change_updates_the_given_fields_and_the_update_time_of_that_rule_only(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    rule_id = await _rule(sessionmaker, clock, user_id, label="吃药")
    other = await _rule(sessionmaker, clock, user_id, label="喝水")
    before, other_before = await _row(sessionmaker, rule_id), await _row(sessionmaker, other)
    later, fire_at = clock.now() + 5 * MINUTE, clock.now() + 90 * MINUTE

    async with sessionmaker.begin() as session:
        await rules.change(
            session, rule_id, now=later, label="吃维生素", spec="08:30", next_fire_at=fire_at
        )

    changed = {"label": "吃维生素", "spec": "08:30", "next_fire_at": fire_at, "updated_at": later}
    assert (await _row(sessionmaker, rule_id))._asdict() == before._asdict() | changed
    assert await _row(sessionmaker, other) == other_before


async def test_count_by_kind_counts_every_rule_by_kind_and_status(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    async with sessionmaker.begin() as session:
        empty = await rules.count_by_kind(session)
    zhang = await new_user(sessionmaker, clock)
    li = await new_user(sessionmaker, clock, "lisi")
    for user_id in (zhang, li):
        await _rule(sessionmaker, clock, user_id, kind="digest_morning")
    await _rule(sessionmaker, clock, zhang, kind="custom")
    gone = await _rule(sessionmaker, clock, zhang, kind="custom")
    await _set_status(sessionmaker, gone, "deleted", clock.now())

    async with sessionmaker.begin() as session:
        counts = await rules.count_by_kind(session)

    assert empty == {}
    assert counts == {
        ("digest_morning", "active"): 2,
        ("custom", "active"): 1,
        ("custom", "deleted"): 1,
    }
