"""Events (storage/repos/events.py): short numbers among upcoming events, listing,
finding by number, changing."""

from __future__ import annotations

import datetime as dt

from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from storage.records import EventRecord
from storage.repos import events, records
from storage.vocabulary import EventStatus
from tests.integration.conftest import new_user

Sessions = AsyncEngine  # `async with sessionmaker.begin() as session` (a Core connection)
MINUTE = dt.timedelta(minutes=1)
TICK = dt.timedelta(microseconds=1)
TODAY = dt.date(2026, 11, 25)  # the clock's local date in Shanghai
DAY = dt.timedelta(days=1)


async def _event(
    sessionmaker: Sessions,
    clock: FakeClock,
    user_id: int,
    title: str,
    day: dt.date,
    starts_at: dt.datetime | None = None,
    *,
    today: dt.date = TODAY,
) -> int:
    """Add an event the way 日程 does: numbered as of `today`."""
    async with sessionmaker.begin() as session:
        number = await events.free_number(session, user_id, today)
        return await records.add_event(
            session,
            user_id=user_id,
            title=title,
            day=day,
            starts_at=starts_at,
            ends_at=None,
            remind_minutes_before=None,
            now=clock.now(),
            source_key=f"{user_id}:{title}",
            number=number,
        )


async def _event_get(sessionmaker: Sessions, event_id: int) -> EventRecord:
    async with sessionmaker.begin() as session:
        found = await events.get(session, event_id)
    assert found is not None
    return found


async def _cancel(sessionmaker: Sessions, event_id: int, user_id: int) -> None:
    async with sessionmaker.begin() as session:
        await events.change(session, event_id, user_id, status=EventStatus.CANCELLED)


async def _free(sessionmaker: Sessions, user_id: int, today: dt.date = TODAY) -> int:
    async with sessionmaker.begin() as session:
        return await events.free_number(session, user_id, today)


async def test_an_event_gets_the_smallest_number_free_among_the_users_upcoming_events(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    zhang = await new_user(sessionmaker, clock)
    li = await new_user(sessionmaker, clock, "lisi")

    today = await _event(sessionmaker, clock, zhang, "开会", TODAY)
    later = await _event(sessionmaker, clock, zhang, "体检", TODAY + 7 * DAY)
    theirs = await _event(sessionmaker, clock, li, "面试", TODAY)

    numbers = [(await _event_get(sessionmaker, e)).number for e in (today, later, theirs)]
    assert numbers == [1, 2, 1]
    assert await _free(sessionmaker, zhang) == 3


async def test_a_past_events_number_is_free_again(sessionmaker: Sessions, clock: FakeClock) -> None:
    user_id = await new_user(sessionmaker, clock)
    yesterday = TODAY - DAY
    past = await _event(sessionmaker, clock, user_id, "复诊", yesterday, today=yesterday)

    upcoming = await _event(sessionmaker, clock, user_id, "开会", TODAY)

    assert (await _event_get(sessionmaker, past)).number == 1
    assert (await _event_get(sessionmaker, upcoming)).number == 1


async def test_a_cancelled_event_releases_its_number(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    first = await _event(sessionmaker, clock, user_id, "开会", TODAY)
    await _event(sessionmaker, clock, user_id, "体检", TODAY + DAY)

    await _cancel(sessionmaker, first, user_id)

    assert await _free(sessionmaker, user_id) == 1


async def test_upcoming_lists_scheduled_events_from_today_soonest_with_all_day_ones_first(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    zhang = await new_user(sessionmaker, clock)
    li = await new_user(sessionmaker, clock, "lisi")
    at = clock.now()  # 10:00 local
    tomorrow = await _event(sessionmaker, clock, zhang, "体检", TODAY + DAY, at + DAY - 60 * MINUTE)
    afternoon = await _event(sessionmaker, clock, zhang, "开会", TODAY, at + 300 * MINUTE)
    all_day = await _event(sessionmaker, clock, zhang, "出差", TODAY)
    morning = await _event(sessionmaker, clock, zhang, "早会", TODAY, at - 60 * MINUTE)
    await _event(sessionmaker, clock, zhang, "复诊", TODAY - DAY, at - DAY)
    cancelled = await _event(sessionmaker, clock, zhang, "聚餐", TODAY + DAY)
    await _cancel(sessionmaker, cancelled, zhang)
    await _event(sessionmaker, clock, li, "面试", TODAY)

    async with sessionmaker.begin() as session:
        found = await events.upcoming(session, zhang, TODAY)

    assert [e.id for e in found] == [all_day, morning, afternoon, tomorrow]


async def test_by_number_finds_an_upcoming_event_not_a_past_or_cancelled_one(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    zhang = await new_user(sessionmaker, clock)
    li = await new_user(sessionmaker, clock, "lisi")
    yesterday = TODAY - DAY
    await _event(sessionmaker, clock, zhang, "复诊", yesterday, today=yesterday)  # number 1
    upcoming = await _event(sessionmaker, clock, zhang, "开会", TODAY)  # number 1 again

    async def by_number(user_id: int) -> int | None:
        async with sessionmaker.begin() as session:
            found = await events.by_number(session, user_id, 1, TODAY)
        return None if found is None else found.id

    found, not_theirs = await by_number(zhang), await by_number(li)
    await _cancel(sessionmaker, upcoming, zhang)

    assert (found, not_theirs) == (upcoming, None)
    assert await by_number(zhang) is None


async def test_change_moves_the_users_own_event_and_nobody_elses(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    zhang = await new_user(sessionmaker, clock)
    li = await new_user(sessionmaker, clock, "lisi")
    event_id = await _event(sessionmaker, clock, zhang, "开会", TODAY, clock.now())
    starts = clock.now() + DAY + 30 * MINUTE

    async with sessionmaker.begin() as session:
        await events.change(session, event_id, li, title="偷改")
        untouched = await events.get(session, event_id)
        await events.change(
            session, event_id, zhang, title="周会", day=TODAY + DAY, starts_at=starts
        )
        moved = await events.get(session, event_id)
        missing = await events.get(session, event_id + 100)

    assert untouched is not None
    assert untouched.title == "开会"
    assert moved == EventRecord(
        id=event_id,
        title="周会",
        day=TODAY + DAY,
        starts_at=starts,
        ends_at=None,
        status="scheduled",
        number=1,
    )
    assert missing is None


async def test_count_between_counts_scheduled_events_on_the_days_both_ends_included(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    alice = await new_user(sessionmaker, clock, "alice")
    bob = await new_user(sessionmaker, clock, "bob")
    for offset in (0, 1, 6, 7):
        await _event(sessionmaker, clock, alice, f"事{offset}", TODAY + offset * DAY)
    cancelled = await _event(sessionmaker, clock, alice, "取消了", TODAY + 2 * DAY)
    await _event(sessionmaker, clock, bob, "别人的", TODAY + DAY)
    async with sessionmaker.begin() as session:
        await events.change(session, cancelled, alice, status="cancelled")
        counted = await events.count_between(session, alice, TODAY, TODAY + 6 * DAY)
    assert counted == 3  # days 0, 1 and 6; not day 7, the cancelled one, or bob's
