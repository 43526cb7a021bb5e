"""Users and the inbound ledger (dedup, stored replies, the undo log) on every engine."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest
from sqlalchemy import func, select, text, update
from sqlalchemy.exc import IntegrityError, StatementError
from sqlalchemy.ext.asyncio import AsyncEngine

import services.water
from scheduler.clock import FakeClock
from storage.delivery_models import WaterPlan
from storage.models import InboundMessage, User
from storage.records import Effect, NewInbound, Prefs, StoredReply, UserRecord
from storage.repos import users
from storage.repos.inbound import (
    CONTENT_LIMIT,
    last_undoable,
    mark_undone,
    record_message,
    seen_event_since,
    stored_reply,
)
from storage.repos.users import ensure_and_lock_user
from storage.retry import retrying
from storage.vocabulary import PlanState
from tests.integration.conftest import new_user

Sessions = AsyncEngine  # `async with sessionmaker.begin() as session` (a Core connection)
SHANGHAI = dt.timezone(dt.timedelta(hours=8))
ZONE = "Asia/Shanghai"
MINUTE = dt.timedelta(minutes=1)
ON_MARIADB_ONLY = pytest.mark.parametrize(
    "database_url", [pytest.param("mariadb", marks=pytest.mark.mariadb)], indirect=True
)


async def _user(
    sessionmaker: Sessions, clock: FakeClock, wecom_user_id: str = "zhangsan"
) -> UserRecord:
    async with sessionmaker.begin() as session:
        return await ensure_and_lock_user(session, wecom_user_id, timezone=ZONE, now=clock.now())


def _msg(
    user: UserRecord, key: str, at: dt.datetime, *, kind: str = "text", content: str = "体重 72.4"
) -> NewInbound:
    return NewInbound(
        dedup_key=key,
        wecom_user_id=user.wecom_user_id,
        user_id=user.id,
        kind=kind,
        content=content,
        sent_at=at,
        received_at=at,
    )


async def _record(
    sessionmaker: Sessions, msg: NewInbound, *, reply: str = "好", effect: Effect | None = None
) -> None:
    async with sessionmaker.begin() as session:
        await record_message(session, msg, reply_text=reply, effect=effect, handled_ms=3)


async def _seen(sessionmaker: Sessions, clock: FakeClock, wecom_user_id: str, key: str) -> bool:
    async with sessionmaker.begin() as session:
        _, seen = await users.lock_for_message(
            session, wecom_user_id, key, timezone=ZONE, now=clock.now()
        )
    return seen


async def _count(sessionmaker: Sessions, column: object) -> int:
    async with sessionmaker.begin() as session:
        return int((await session.execute(select(func.count(column)))).scalar_one())


# --- users ---------------------------------------------------------------------------


async def test_ensuring_a_user_twice_creates_one_row_and_returns_the_same_record(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    first = await _user(sessionmaker, clock)
    async with sessionmaker.begin() as session:
        again = await ensure_and_lock_user(session, "zhangsan", timezone="UTC", now=clock.now())

    assert first == UserRecord(id=first.id, wecom_user_id="zhangsan", timezone=ZONE)
    assert again == first  # the later timezone does not overwrite the stored one
    assert await _count(sessionmaker, User.id) == 1


async def test_different_wecom_ids_are_different_users(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    zhang = await _user(sessionmaker, clock, "zhangsan")
    li = await _user(sessionmaker, clock, "lisi")

    assert zhang.id != li.id
    assert (zhang.wecom_user_id, li.wecom_user_id) == ("zhangsan", "lisi")


async def test_concurrent_first_contacts_of_one_user_make_one_row(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    start = asyncio.Barrier(5)

    async def first_contact() -> UserRecord:
        await start.wait()
        # As the conversation does: on MariaDB two waiters on the new row's duplicate
        # key can deadlock upgrading their locks; the unit of work is retried.
        return await retrying(lambda: _user(sessionmaker, clock, "newcomer"))

    records = await asyncio.gather(*(first_contact() for _ in range(5)))

    assert len(set(records)) == 1
    assert await _count(sessionmaker, User.id) == 1


# --- recording messages ----------------------------------------------------------------


async def test_locking_the_user_for_a_message_tells_whether_its_key_was_recorded(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user = await _user(sessionmaker, clock)
    before = await _seen(sessionmaker, clock, "zhangsan", "msg-1")
    await _record(sessionmaker, _msg(user, "msg-1", clock.now()))

    assert before is False
    assert await _seen(sessionmaker, clock, "zhangsan", "msg-1") is True
    assert await _seen(sessionmaker, clock, "zhangsan", "msg-2") is False


async def test_locking_a_new_user_for_a_message_creates_the_user_and_has_seen_nothing(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    async with sessionmaker.begin() as session:
        user, seen = await users.lock_for_message(
            session, "newcomer", "msg-1", timezone=ZONE, now=clock.now()
        )

    assert seen is False
    assert user == UserRecord(id=user.id, wecom_user_id="newcomer", timezone=ZONE)
    assert await _count(sessionmaker, User.id) == 1


async def test_a_second_record_of_one_key_is_refused_by_the_unique_key(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user = await _user(sessionmaker, clock)
    await _record(sessionmaker, _msg(user, "msg-1", clock.now()), reply="first")

    with pytest.raises(IntegrityError):
        await _record(sessionmaker, _msg(user, "msg-1", clock.now()), reply="second")

    assert await _count(sessionmaker, InboundMessage.id) == 1
    async with sessionmaker.begin() as session:
        assert await stored_reply(session, "msg-1") == StoredReply(reply_text="first")


async def _waits_for_a_lock(sessionmaker: Sessions, connection_id: int) -> bool:
    async with sessionmaker.connect() as conn:
        waits = (
            "SELECT COUNT(*) FROM information_schema.INNODB_TRX"
            " WHERE trx_state = 'LOCK WAIT' AND trx_mysql_thread_id = :id"
        )
        return bool((await conn.execute(text(waits), {"id": connection_id})).scalar_one())


@ON_MARIADB_ONLY
async def test_a_delivery_waiting_on_the_users_row_sees_the_first_deliverys_record(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    """The second delivery's read is sent while the first still holds the user's row;
    it must see the row the first committed meanwhile (MariaDB evaluates a subquery not
    tied to the locked row before the lock wait, and would miss it)."""
    user = await _user(sessionmaker, clock)
    connection_id = asyncio.get_running_loop().create_future()

    async def second() -> bool:
        async with sessionmaker.begin() as session:
            connection_id.set_result(
                (await session.execute(text("SELECT CONNECTION_ID()"))).scalar_one()
            )
            _, seen = await users.lock_for_message(
                session, "zhangsan", "msg-1", timezone=ZONE, now=clock.now()
            )
        return seen

    async with sessionmaker.begin() as first:
        _, seen_first = await users.lock_for_message(
            first, "zhangsan", "msg-1", timezone=ZONE, now=clock.now()
        )
        await record_message(
            first, _msg(user, "msg-1", clock.now()), reply_text="好", effect=None, handled_ms=1
        )
        waiting = asyncio.create_task(second())
        their_id = await connection_id
        for _ in range(200):  # bounded: until the second waits for the row lock
            if await _waits_for_a_lock(sessionmaker, their_id) or waiting.done():
                break
            await asyncio.sleep(0.01)
        assert not waiting.done()
    assert seen_first is False
    assert await waiting is True


async def test_stored_reply_gives_back_the_reply_saved_for_the_key(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user = await _user(sessionmaker, clock)
    await _record(sessionmaker, _msg(user, "msg-1", clock.now()), reply="已记录体重 72.40 kg")

    async with sessionmaker.begin() as session:
        unseen = await stored_reply(session, "never-seen")
        recorded = await stored_reply(session, "msg-1")

    assert unseen is None
    assert recorded == StoredReply(reply_text="已记录体重 72.40 kg")


# --- the undo log --------------------------------------------------------------------


async def test_undo_walks_back_through_effects_newest_first(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user = await _user(sessionmaker, clock)
    other = await _user(sessionmaker, clock, "lisi")
    outcomes = [
        (user, "m1", Effect(kind="weight", record_id=11)),
        (user, "m2", None),  # a message that changed nothing (a view, a parse error)
        (user, "m3", Effect(kind="ledger", record_id=33)),
        (other, "m4", Effect(kind="water", record_id=44)),  # someone else's, newest of all
    ]
    for owner, key, effect in outcomes:
        await _record(sessionmaker, _msg(owner, key, clock.now(), content=key), effect=effect)

    seen = []
    for _ in range(3):
        async with sessionmaker.begin() as session:
            last = await last_undoable(session, user.id)
            seen.append(last)
            if last is not None:
                await mark_undone(session, last.message_id, now=clock.now())

    assert [(u.content, u.effect) for u in seen if u] == [
        ("m3", Effect(kind="ledger", record_id=33)),
        ("m1", Effect(kind="weight", record_id=11)),
    ]
    assert seen[-1] is None
    assert seen[0] is not None
    assert seen[0].kind == "text"


async def test_mark_undone_stamps_the_time_it_was_undone(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user = await _user(sessionmaker, clock)
    await _record(
        sessionmaker, _msg(user, "m1", clock.now()), effect=Effect(kind="water", record_id=1)
    )
    undone_at = clock.now() + dt.timedelta(minutes=5, microseconds=7)

    async with sessionmaker.begin() as session:
        last = await last_undoable(session, user.id)
        assert last is not None
        await mark_undone(session, last.message_id, now=undone_at)
    async with sessionmaker.begin() as session:
        stored = await session.scalar(select(InboundMessage.undone_at))

    assert stored == undone_at


# --- seen_event_since ----------------------------------------------------------------


ENTER = "event:enter_agent"


async def test_seen_event_since_includes_since(sessionmaker: Sessions, clock: FakeClock) -> None:
    user = await _user(sessionmaker, clock)
    hour_ago = clock.now() - dt.timedelta(hours=1)
    await _record(sessionmaker, _msg(user, "earlier", hour_ago, kind=ENTER))
    just_after = hour_ago + dt.timedelta(microseconds=1)

    async with sessionmaker.begin() as session:
        from_exactly_then = await seen_event_since(session, user.id, ENTER, hour_ago)
        from_just_after = await seen_event_since(session, user.id, ENTER, just_after)

    assert from_exactly_then is True
    assert from_just_after is False


async def test_seen_event_since_ignores_other_kinds_and_other_users(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user = await _user(sessionmaker, clock)
    other = await _user(sessionmaker, clock, "lisi")
    at, hour_ago = clock.now(), clock.now() - dt.timedelta(hours=1)
    await _record(sessionmaker, _msg(user, "text", at, kind="text"))
    await _record(sessionmaker, _msg(other, "theirs", at, kind=ENTER))

    async with sessionmaker.begin() as session:
        mine = await seen_event_since(session, user.id, ENTER, hour_ago)
        texts = await seen_event_since(session, user.id, "text", hour_ago)
        for_other = await seen_event_since(session, other.id, ENTER, hour_ago)

    assert mine is False
    assert texts is True
    assert for_other is True


# --- boundaries: content, naive datetimes, time round-trips ---------------------------


async def test_content_longer_than_the_limit_is_truncated_to_the_limit(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user = await _user(sessionmaker, clock)
    text = "日记 😀" + "字" * CONTENT_LIMIT  # 4-byte and 3-byte characters in UTF-8
    effect = Effect(kind="journal", record_id=1)
    await _record(sessionmaker, _msg(user, "long", clock.now(), content=text), effect=effect)
    async with sessionmaker.begin() as session:
        last = await last_undoable(session, user.id)

    assert last is not None
    assert len(last.content) == CONTENT_LIMIT
    assert last.content == text[:CONTENT_LIMIT]


async def test_content_at_the_limit_is_kept_whole(sessionmaker: Sessions, clock: FakeClock) -> None:
    user = await _user(sessionmaker, clock)
    text = "字" * CONTENT_LIMIT
    await _record(sessionmaker, _msg(user, "exact", clock.now(), content=text))

    async with sessionmaker.begin() as session:
        stored = await session.scalar(select(InboundMessage.content))

    assert stored == text


async def test_a_naive_datetime_is_refused_at_the_utc_column(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user = await _user(sessionmaker, clock)
    naive = clock.now().replace(tzinfo=None)

    with pytest.raises(StatementError, match="naive datetime") as refused:
        await _record(sessionmaker, _msg(user, "naive", naive))
    with pytest.raises(StatementError, match="naive datetime") as refused_user:
        async with sessionmaker.begin() as session:
            await ensure_and_lock_user(session, "lisi", timezone=ZONE, now=naive)

    # SQLAlchemy wraps the bind-time error; the cause is the type's own ValueError.
    assert isinstance(refused.value.orig, ValueError)
    assert isinstance(refused_user.value.orig, ValueError)
    assert await _count(sessionmaker, InboundMessage.id) == 0
    assert await _count(sessionmaker, User.id) == 1


async def test_times_come_back_aware_utc_with_microseconds(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user = await _user(sessionmaker, clock)
    local = dt.datetime(2026, 11, 25, 10, 0, 0, 123456, tzinfo=SHANGHAI)
    msg = NewInbound(
        dedup_key="precise",
        wecom_user_id=user.wecom_user_id,
        user_id=user.id,
        kind="text",
        content="喝水",
        sent_at=local,
        received_at=local + dt.timedelta(microseconds=1),
    )
    await _record(sessionmaker, msg)

    async with sessionmaker.begin() as session:
        row = (
            await session.execute(select(InboundMessage.sent_at, InboundMessage.received_at))
        ).one()

    assert row.sent_at == local
    assert row.sent_at.tzinfo is dt.UTC
    assert row.sent_at == dt.datetime(2026, 11, 25, 2, 0, 0, 123456, tzinfo=dt.UTC)
    assert row.received_at.microsecond == 123457
    assert row.received_at.tzinfo is dt.UTC


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


async def test_the_users_lock_reads_whether_the_water_plan_is_on(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    """A check-in reads and locks the plan only when it is on (`handlers.water`)."""
    user = await _ensure(sessionmaker, clock, "zhangsan")
    async with sessionmaker.begin() as session:
        await services.water.ensure(session, user.id, clock.now())  # made disabled
    disabled = await _ensure(sessionmaker, clock, "zhangsan")
    async with sessionmaker.begin() as session:
        await session.execute(
            update(WaterPlan).where(WaterPlan.user_id == user.id).values(state=PlanState.SCHEDULED)
        )

    assert user.water_plan_on is False  # no plan yet
    assert disabled.water_plan_on is False
    assert (await _ensure(sessionmaker, clock, "zhangsan")).water_plan_on is True
