"""Storage for the reminders release: rule and event numbers, flags, user preferences,
moving tasks, and "weighed since"."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from storage.delivery_models import FLAGS, RULES
from storage.records import EventRecord, Prefs, RuleRecord, TaskRecord, UserRecord
from storage.repos import events, flags, reads, records, rules, tasks, users
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


# --- event numbers -------------------------------------------------------------------


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
        await events.change(session, event_id, user_id, status=events.CANCELLED)


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


# --- flags ---------------------------------------------------------------------------


async def test_an_unset_flag_reads_none_and_put_updates_a_set_one(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    later = clock.now() + MINUTE
    async with sessionmaker.begin() as session:
        unset = await flags.get(session, flags.SENDS_PAUSED)
        row = {"name": flags.SENDS_PAUSED, "value": "off", "updated_at": clock.now()}
        await session.execute(insert(FLAGS).values(row))
        await flags.put(session, flags.SENDS_PAUSED, "on", now=later)

    async with sessionmaker.begin() as session:
        stored = (await session.execute(select(FLAGS.c.value, FLAGS.c.updated_at))).all()
        value = await flags.get(session, flags.SENDS_PAUSED)

    assert unset is None
    assert (value, [tuple(r) for r in stored]) == ("on", [("on", later)])


async def test_putting_a_new_flag_stores_it_and_putting_it_again_updates_it(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    later = clock.now() + MINUTE

    async with sessionmaker.begin() as session:
        await flags.put(session, flags.SENDS_PAUSED, "on", now=clock.now())
    async with sessionmaker.begin() as session:
        first = await flags.get(session, flags.SENDS_PAUSED)
        await flags.put(session, flags.SENDS_PAUSED, "off", now=later)
    async with sessionmaker.begin() as session:
        stored = (await session.execute(select(FLAGS.c.value, FLAGS.c.updated_at))).all()

    assert first == "on"
    assert [tuple(r) for r in stored] == [("off", later)]


# --- users ---------------------------------------------------------------------------


async def _ensure(sessionmaker: Sessions, clock: FakeClock, wecom_user_id: str) -> UserRecord:
    async with sessionmaker.begin() as session:
        return await users.ensure_and_lock_user(
            session, wecom_user_id, timezone="Asia/Shanghai", now=clock.now()
        )


async def test_ensure_and_lock_user_returns_the_reminder_preferences_defaults_then_values(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    fresh = await _ensure(sessionmaker, clock, "zhangsan")
    quiet, missed = clock.now() + 120 * MINUTE, clock.now() - 30 * MINUTE
    async with sessionmaker.begin() as session:
        await users.update_user(
            session, fresh.id, quiet_until=quiet, cards=1, defaults_version=1, missed_since=missed
        )

    again = await _ensure(sessionmaker, clock, "zhangsan")

    assert fresh == UserRecord(id=fresh.id, wecom_user_id="zhangsan", timezone="Asia/Shanghai")
    assert (fresh.quiet_until, fresh.cards, fresh.defaults_version) == (None, False, 0)
    assert fresh.missed_since is None
    assert again == UserRecord(
        id=fresh.id,
        wecom_user_id="zhangsan",
        timezone="Asia/Shanghai",
        quiet_until=quiet,
        cards=True,
        defaults_version=1,
        missed_since=missed,
    )


async def test_prefs_reads_back_what_update_user_set_for_that_user_only(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    zhang = await new_user(sessionmaker, clock)
    li = await new_user(sessionmaker, clock, "lisi", zone="Europe/Berlin")
    quiet = clock.now() + 60 * MINUTE

    async with sessionmaker.begin() as session:
        await users.update_user(session, zhang, quiet_until=quiet, cards=1)
        set_ = await users.prefs(session, zhang)
        theirs = await users.prefs(session, li)
        await users.update_user(session, zhang, quiet_until=None, cards=0)
        cleared = await users.prefs(session, zhang)
        how_many = await users.count(session)

    assert set_ == Prefs(timezone="Asia/Shanghai", quiet_until=quiet, cards=True)
    assert theirs == Prefs(timezone="Europe/Berlin", quiet_until=None, cards=False)
    assert cleared == Prefs(timezone="Asia/Shanghai", quiet_until=None, cards=False)
    assert how_many == 2


async def test_mark_missed_keeps_the_earliest_marker_until_it_is_cleared(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    zhang = await new_user(sessionmaker, clock)
    li = await new_user(sessionmaker, clock, "lisi")
    first, second, third = (clock.now() + n * MINUTE for n in (1, 2, 3))

    async def missed_since() -> tuple[dt.datetime | None, dt.datetime | None]:
        async with sessionmaker.begin() as session:
            zhang_user = await users.ensure_and_lock_user(
                session, "zhangsan", timezone="UTC", now=clock.now()
            )
            li_user = await users.ensure_and_lock_user(
                session, "lisi", timezone="UTC", now=clock.now()
            )
        return zhang_user.missed_since, li_user.missed_since

    async with sessionmaker.begin() as session:
        await users.mark_missed(session, set(), since=first)
    nobody = await missed_since()
    async with sessionmaker.begin() as session:
        await users.mark_missed(session, {zhang}, since=first)
        await users.mark_missed(session, {zhang, li}, since=second)
    both = await missed_since()
    async with sessionmaker.begin() as session:
        await users.update_user(session, zhang, missed_since=None)
        await users.mark_missed(session, {zhang, li}, since=third)

    assert nobody == (None, None)
    assert both == (first, second)
    assert await missed_since() == (third, second)


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
        await tasks.close_task(session, closed.id, status=tasks.DONE, now=clock.now())

    async with sessionmaker.begin() as session:
        await tasks.set_due(session, open_task.id, due_date=TODAY + DAY)
        await tasks.set_due(session, closed.id, due_date=TODAY + DAY)
        moved, stayed = await tasks.get(session, open_task.id), await tasks.get(session, closed.id)

    assert moved is not None
    assert stayed is not None
    assert (moved.due_date, moved.due_time, moved.status) == (TODAY + DAY, dt.time(15, 0), "open")
    assert (stayed.due_date, stayed.status) == (TODAY, "done")


# --- reads ---------------------------------------------------------------------------


async def test_weighed_since_sees_only_that_users_weights_at_or_after_the_time(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    zhang = await new_user(sessionmaker, clock)
    li = await new_user(sessionmaker, clock, "lisi")
    since = clock.now() - 60 * MINUTE
    async with sessionmaker.begin() as session:
        for user_id, at in ((zhang, since - TICK), (li, since + MINUTE)):
            await records.add_weight(
                session,
                user_id=user_id,
                kg=Decimal("61.20"),
                occurred_at=at,
                source_key=f"{user_id}:{at.isoformat()}",
            )

    async with sessionmaker.begin() as session:
        zhang_since = await reads.weighed_since(session, zhang, since)
        zhang_just_before = await reads.weighed_since(session, zhang, since - TICK)
        li_since = await reads.weighed_since(session, li, since)
        li_later = await reads.weighed_since(session, li, since + MINUTE + TICK)

    assert (zhang_since, zhang_just_before) == (False, True)
    assert (li_since, li_later) == (True, False)
