"""Facts (weight, water, money, journal, events) and the read models over them."""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError, StatementError
from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from storage.database import Session
from storage.models import CalendarEvent, JournalEntry, LedgerEntry, Measurement, WaterCheckin
from storage.records import EventRecord, LedgerRow, WeightPoint
from storage.repos import reads, records
from storage.repos.records import (
    FACT_TABLES,
    add_event,
    add_journal,
    add_ledger,
    add_water,
    add_weight,
    delete_record,
)
from tests.integration.conftest import new_user


async def _get(session: Any, model: Any, row_id: int) -> Any:
    table = model.__table__
    return (await session.execute(select(table).where(table.c.id == row_id))).one()


Sessions = AsyncEngine  # `async with sessionmaker.begin() as session` (a Core connection)
Adder = Callable[[Session, int, str, dt.datetime], Awaitable[int]]
SHANGHAI = dt.timezone(dt.timedelta(hours=8))
HOUR = dt.timedelta(hours=1)
MINUTE = dt.timedelta(minutes=1)
TICK = dt.timedelta(microseconds=1)
DAY = dt.date(2026, 11, 25)


async def _weight(s: Session, user_id: int, key: str, at: dt.datetime) -> int:
    return await add_weight(s, user_id=user_id, kg=Decimal("72.4"), occurred_at=at, source_key=key)


async def _water(s: Session, user_id: int, key: str, at: dt.datetime) -> int:
    return await add_water(s, user_id=user_id, glasses=1, occurred_at=at, source_key=key)


async def _ledger(s: Session, user_id: int, key: str, at: dt.datetime) -> int:
    return await add_ledger(
        s,
        user_id=user_id,
        direction="expense",
        amount=Decimal("35"),
        category="餐饮",
        note="午饭",
        occurred_at=at,
        source_key=key,
    )


async def _journal(s: Session, user_id: int, key: str, at: dt.datetime) -> int:
    return await add_journal(s, user_id=user_id, text="晴", occurred_at=at, source_key=key)


async def _event(s: Session, user_id: int, key: str, at: dt.datetime) -> int:
    return await add_event(
        s,
        user_id=user_id,
        title="复诊",
        day=DAY,
        starts_at=at,
        ends_at=at + HOUR,
        remind_minutes_before=30,
        now=at,
        source_key=key,
    )


ADDERS: dict[str, Adder] = {
    "weight": _weight,
    "water": _water,
    "ledger": _ledger,
    "journal": _journal,
    "event": _event,
}


async def _rows(sessionmaker: Sessions, kind: str) -> int:
    model = FACT_TABLES[kind]
    async with sessionmaker.begin() as session:
        return int((await session.execute(select(func.count()).select_from(model))).scalar_one())


# --- inserts and the source_key guard -------------------------------------------------


@pytest.mark.parametrize("kind", ADDERS)
async def test_each_fact_is_inserted_and_a_second_insert_with_its_source_key_is_refused(
    sessionmaker: Sessions, clock: FakeClock, kind: str
) -> None:
    user_id = await new_user(sessionmaker, clock)
    add = ADDERS[kind]
    async with sessionmaker.begin() as session:
        first = await add(session, user_id, "msg-1", clock.now())
        second = await add(session, user_id, "msg-2", clock.now())

    with pytest.raises(IntegrityError):
        async with sessionmaker.begin() as session:
            await add(session, user_id, "msg-1", clock.now())

    assert second != first
    assert await _rows(sessionmaker, kind) == 2


async def test_added_facts_keep_every_field(sessionmaker: Sessions, clock: FakeClock) -> None:
    user_id = await new_user(sessionmaker, clock)
    at = clock.now()
    async with sessionmaker.begin() as session:
        weight_id = await _weight(session, user_id, "w", at)
        water_id = await add_water(
            session, user_id=user_id, glasses=-1, occurred_at=at, source_key="c"
        )
        ledger_id = await _ledger(session, user_id, "l", at)
        event_id = await add_event(
            session,
            user_id=user_id,
            title="体检",
            day=DAY,
            starts_at=None,
            ends_at=None,
            remind_minutes_before=None,
            now=at,
            source_key="e",
        )
    async with sessionmaker.begin() as session:
        weight = await _get(session, Measurement, weight_id)
        water = await _get(session, WaterCheckin, water_id)
        ledger = await _get(session, LedgerEntry, ledger_id)
        event = await _get(session, CalendarEvent, event_id)

    assert (weight.kind, weight.value, weight.occurred_at) == ("weight", Decimal("72.40"), at)
    assert (water.glasses, water.source_key) == (-1, "c")
    assert (ledger.direction, ledger.amount, ledger.category, ledger.note) == (
        "expense",
        Decimal("35.00"),
        "餐饮",
        "午饭",
    )
    assert (event.title, event.day, event.starts_at, event.status) == (
        "体检",
        DAY,
        None,
        "scheduled",
    )
    assert event.remind_minutes_before is None
    assert event.created_at == at


# --- money and weights are exact -----------------------------------------------------


async def test_ten_cents_and_twenty_cents_sum_to_exactly_thirty_cents(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    at = clock.now()
    async with sessionmaker.begin() as session:
        for key, amount in (("a", "0.10"), ("b", "0.20")):
            await add_ledger(
                session,
                user_id=user_id,
                direction="expense",
                amount=Decimal(amount),
                category="其他",
                note="",
                occurred_at=at,
                source_key=key,
            )
    async with sessionmaker.begin() as session:
        rows = await reads.ledger_between(session, user_id, at, at + HOUR)

    total = sum((r.amount for r in rows), Decimal(0))
    assert all(type(r.amount) is Decimal for r in rows)
    assert total == Decimal("0.30")
    assert str(total) == "0.30"


@pytest.mark.parametrize("amount", ["9999999.99", "0.01", "1234.5", "7"])
async def test_a_money_amount_round_trips_exactly(
    sessionmaker: Sessions, clock: FakeClock, amount: str
) -> None:
    user_id = await new_user(sessionmaker, clock)
    async with sessionmaker.begin() as session:
        await add_ledger(
            session,
            user_id=user_id,
            direction="income",
            amount=Decimal(amount),
            category="工资",
            note="",
            occurred_at=clock.now(),
            source_key="k",
        )
    async with sessionmaker.begin() as session:
        (row,) = await reads.ledger_between(session, user_id, clock.now(), clock.now() + HOUR)

    assert row.amount == Decimal(amount)
    assert row.amount == row.amount.quantize(Decimal("0.01"))
    assert row.amount.as_tuple().exponent == -2  # always two places, as the user sees it


async def _weigh(s: Session, user_id: int, value: Decimal, at: dt.datetime) -> int:
    return await add_weight(s, user_id=user_id, kg=value, occurred_at=at, source_key="k")


async def _spend(s: Session, user_id: int, value: Decimal, at: dt.datetime) -> int:
    return await add_ledger(
        s,
        user_id=user_id,
        direction="expense",
        amount=value,
        category="其他",
        note="",
        occurred_at=at,
        source_key="k",
    )


@pytest.mark.parametrize(("kind", "add"), [("weight", _weigh), ("ledger", _spend)])
async def test_a_value_with_three_decimal_places_is_refused(
    sessionmaker: Sessions,
    clock: FakeClock,
    kind: str,
    add: Callable[[Session, int, Decimal, dt.datetime], Awaitable[int]],
) -> None:
    user_id = await new_user(sessionmaker, clock)

    with pytest.raises(StatementError, match="more than two decimal places") as refused:
        async with sessionmaker.begin() as session:
            await add(session, user_id, Decimal("72.405"), clock.now())

    assert isinstance(refused.value.orig, ValueError)
    assert await _rows(sessionmaker, kind) == 0


# --- delete_record -------------------------------------------------------------------


@pytest.mark.parametrize("kind", ADDERS)
async def test_delete_record_removes_only_the_given_users_record_once(
    sessionmaker: Sessions, clock: FakeClock, kind: str
) -> None:
    owner = await new_user(sessionmaker, clock)
    stranger = await new_user(sessionmaker, clock, "lisi")
    add = ADDERS[kind]
    async with sessionmaker.begin() as session:
        record_id = await add(session, owner, "mine", clock.now())
        await add(session, owner, "kept", clock.now())

    async with sessionmaker.begin() as session:
        by_stranger = await delete_record(session, kind=kind, record_id=record_id, user_id=stranger)
    async with sessionmaker.begin() as session:
        by_owner = await delete_record(session, kind=kind, record_id=record_id, user_id=owner)
    async with sessionmaker.begin() as session:
        again = await delete_record(session, kind=kind, record_id=record_id, user_id=owner)

    assert (by_stranger, by_owner, again) == (False, True, False)
    assert await _rows(sessionmaker, kind) == 1  # the owner's other record is untouched


# --- weight reads --------------------------------------------------------------------


async def test_latest_weight_is_the_latest_by_time_not_by_insertion(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    other = await new_user(sessionmaker, clock, "lisi")
    at = clock.now()
    async with sessionmaker.begin() as session:
        empty = await reads.latest_weight(session, user_id)
        for key, kg, when in (("b", "71.9", at), ("a", "72.4", at - HOUR)):
            await add_weight(
                session, user_id=user_id, kg=Decimal(kg), occurred_at=when, source_key=key
            )
        await add_weight(
            session, user_id=other, kg=Decimal("60"), occurred_at=at + HOUR, source_key="o"
        )
    async with sessionmaker.begin() as session:
        latest = await reads.latest_weight(session, user_id)

    assert empty is None
    assert latest == WeightPoint(value=Decimal("71.90"), occurred_at=at)


async def test_latest_weight_breaks_a_tie_in_time_by_the_later_record(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    at = clock.now()
    async with sessionmaker.begin() as session:
        for key, kg in (("first", "72.4"), ("correction", "72.3")):
            await add_weight(
                session, user_id=user_id, kg=Decimal(kg), occurred_at=at, source_key=key
            )
    async with sessionmaker.begin() as session:
        latest = await reads.latest_weight(session, user_id)

    assert latest is not None
    assert latest.value == Decimal("72.30")


async def test_weights_between_is_half_open_per_user_and_in_time_order(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    other = await new_user(sessionmaker, clock, "lisi")
    # The range is a Shanghai day, given in +08:00: the repository compares instants.
    start = dt.datetime(2026, 11, 25, tzinfo=SHANGHAI)
    end = start + dt.timedelta(days=1)
    tick = dt.timedelta(microseconds=1)
    points = {
        "before": (start - tick, "70.1"),
        "at-start": (start, "70.2"),
        "late": (end - tick, "70.4"),
        "mid": (start + 12 * HOUR, "70.3"),
        "at-end": (end, "70.5"),
    }
    async with sessionmaker.begin() as session:
        for key, (when, kg) in points.items():
            await add_weight(
                session, user_id=user_id, kg=Decimal(kg), occurred_at=when, source_key=key
            )
        await add_weight(
            session, user_id=other, kg=Decimal("50"), occurred_at=start, source_key="o"
        )
    async with sessionmaker.begin() as session:
        got = await reads.weights_between(session, user_id, start, end)

    assert [(p.occurred_at, str(p.value)) for p in got] == [
        (start, "70.20"),
        (start + 12 * HOUR, "70.30"),
        (end - tick, "70.40"),
    ]
    assert all(p.occurred_at.tzinfo is dt.UTC for p in got)
    assert got[-1].occurred_at.microsecond == 999999


# --- water reads ---------------------------------------------------------------------


async def test_water_total_sums_corrections_in_a_half_open_range_per_user(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    other = await new_user(sessionmaker, clock, "lisi")
    start = clock.now()
    end = start + 2 * HOUR
    glasses = [("before", start - HOUR, 5), ("a", start, 1), ("b", start + HOUR, 2)]
    glasses += [("slip", start + HOUR, -1), ("at-end", end, 7)]
    async with sessionmaker.begin() as session:
        empty = await reads.water_total(session, user_id, start, end)
        for key, when, n in glasses:
            await add_water(session, user_id=user_id, glasses=n, occurred_at=when, source_key=key)
        await add_water(session, user_id=other, glasses=9, occurred_at=start, source_key="o")
    async with sessionmaker.begin() as session:
        total = await reads.water_total(session, user_id, start, end)
        theirs = await reads.water_total(session, other, start, end)

    assert (empty, total, theirs) == (0, 2, 9)
    assert type(total) is int


async def test_water_between_returns_the_users_checkins_in_the_range(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    other = await new_user(sessionmaker, clock, "lisi")
    start = clock.now()
    end = start + 2 * HOUR
    glasses = [("late", start + HOUR, 2), ("a", start, 1), ("before", start - HOUR, 5)]
    glasses += [("at-end", end, 7)]
    async with sessionmaker.begin() as session:
        for key, when, n in glasses:
            await add_water(session, user_id=user_id, glasses=n, occurred_at=when, source_key=key)
        await add_water(session, user_id=other, glasses=9, occurred_at=start, source_key="o")
    async with sessionmaker.begin() as session:
        got = await reads.water_between(session, user_id, start, end)

    # No order is promised (the callers aggregate per day), so compare sorted.
    assert sorted(got) == [(start, 1), (start + HOUR, 2)]
    assert all(when.tzinfo is dt.UTC for when, _ in got)


# --- ledger reads --------------------------------------------------------------------


async def test_ledger_between_is_half_open_and_per_user(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    other = await new_user(sessionmaker, clock, "lisi")
    start = clock.now()
    end = start + HOUR
    entries = [
        ("before", user_id, "expense", start - dt.timedelta(microseconds=1)),
        ("at-start", user_id, "expense", start),
        ("income", user_id, "income", start + dt.timedelta(minutes=30)),
        ("at-end", user_id, "expense", end),
        ("theirs", other, "expense", start),
    ]
    async with sessionmaker.begin() as session:
        for key, owner, direction, when in entries:
            await add_ledger(
                session,
                user_id=owner,
                direction=direction,
                amount=Decimal("12.34"),
                category=key,
                note="",
                occurred_at=when,
                source_key=key,
            )
    async with sessionmaker.begin() as session:
        got = await reads.ledger_between(session, user_id, start, end)

    assert sorted(got, key=lambda r: r.occurred_at) == [
        LedgerRow(
            direction="expense", amount=Decimal("12.34"), category="at-start", occurred_at=start
        ),
        LedgerRow(
            direction="income",
            amount=Decimal("12.34"),
            category="income",
            occurred_at=start + dt.timedelta(minutes=30),
        ),
    ]


# --- events --------------------------------------------------------------------------


async def test_events_on_lists_the_days_scheduled_events_all_day_first_then_by_start(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    other = await new_user(sessionmaker, clock, "lisi")
    nine = dt.datetime(2026, 11, 25, 9, 0, tzinfo=SHANGHAI)
    plan = [
        ("afternoon", user_id, DAY, nine + 5 * HOUR),
        ("all-day", user_id, DAY, None),
        ("morning", user_id, DAY, nine),
        ("cancelled", user_id, DAY, nine + HOUR),
        ("tomorrow", user_id, DAY + dt.timedelta(days=1), nine + 24 * HOUR),
        ("theirs", other, DAY, nine),
    ]
    ids = {}
    async with sessionmaker.begin() as session:
        for title, owner, day, starts in plan:
            ids[title] = await add_event(
                session,
                user_id=owner,
                title=title,
                day=day,
                starts_at=starts,
                ends_at=starts + HOUR if starts else None,
                remind_minutes_before=None,
                now=clock.now(),
                source_key=title,
            )
        # No repository function cancels an event yet; set the status as one would.
        await session.execute(
            update(CalendarEvent)
            .where(CalendarEvent.id == ids["cancelled"])
            .values(status="cancelled")
        )
    async with sessionmaker.begin() as session:
        got = await reads.events_on(session, user_id, DAY)

    assert [e.title for e in got] == ["all-day", "morning", "afternoon"]
    assert got[1] == EventRecord(
        id=ids["morning"],
        title="morning",
        day=DAY,
        starts_at=nine,
        ends_at=nine + HOUR,
        status="scheduled",
    )
    assert got[1].starts_at is not None
    assert got[1].starts_at.tzinfo is dt.UTC


# --- text ----------------------------------------------------------------------------


async def test_journal_text_with_emoji_and_rare_han_round_trips(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    # 4-byte UTF-8: emoji, a ZWJ sequence, a CJK Extension B character (U+20BB7).
    text = "今天跑了 5 公里 🏃‍♂️💪 吃了𠮷野家 🍜\n第二行"
    async with sessionmaker.begin() as session:
        entry_id = await add_journal(
            session, user_id=user_id, text=text, occurred_at=clock.now(), source_key="j"
        )
    async with sessionmaker.begin() as session:
        entry = await _get(session, JournalEntry, entry_id)

    assert entry.text == text
    assert max(len(ch.encode()) for ch in entry.text) == 4


# --- reads: weighed since ---------------------------------------------------------------------------


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
