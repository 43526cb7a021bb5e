"""Notification jobs (storage/repos/job_claims.py) as the merge window uses them: the
companion claim, refunding a deferral's attempt, what was missed, stored payloads.

Concurrent tests open each transaction through `Database(engine).transaction()`: on
MariaDB those are separate connections that really overlap; on SQLite the gate runs
them one after the other, and the outcome must be the same.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt

from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from storage.database import Database
from storage.records import JobRecord, Missed, NewJob
from storage.repos import job_claims, sent_or_missed
from tests.integration.conftest import new_rule, new_user
from tests.integration.job_setup import force_job, job_row, pending_jobs

Sessions = AsyncEngine  # `async with sessionmaker.begin() as session` (a Core connection)
MINUTE = dt.timedelta(minutes=1)
LEASE = dt.timedelta(minutes=5)
WINDOW = dt.timedelta(minutes=5)
TICK = dt.timedelta(microseconds=1)


async def _companions(
    sessionmaker: Sessions, recipients: set[str], now: dt.datetime, owner: str = "worker-1"
) -> list[JobRecord]:
    async with sessionmaker.begin() as session:
        return await job_claims.claim_companions(
            session, recipients, until=now + WINDOW, now=now, owner=owner, lease=LEASE
        )


# --- the merge-window claim ----------------------------------------------------------


async def test_claim_companions_takes_only_those_recipients_pending_jobs_due_within_the_window(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    now = clock.now()
    due_now, soon, at_the_end, after, waiting, taken = await pending_jobs(
        sessionmaker, clock, [0 * MINUTE, TICK, WINDOW, WINDOW + TICK, 2 * MINUTE, 3 * MINUTE]
    )
    (wang,) = await pending_jobs(sessionmaker, clock, [MINUTE], recipient="wangwu")
    (li,) = await pending_jobs(sessionmaker, clock, [MINUTE], recipient="lisi")
    await force_job(sessionmaker, waiting, status="retry_wait", attempts=1)
    await force_job(sessionmaker, taken, status="processing", lease_owner="worker-9", attempts=1)

    claimed = await _companions(sessionmaker, {"zhangsan", "wangwu"}, now)

    assert [j.id for j in claimed] == [soon, at_the_end, wang]
    left = [due_now, after, waiting, taken, li]
    assert [(await job_row(sessionmaker, job_id)).status for job_id in left] == [
        "pending",
        "pending",
        "retry_wait",
        "processing",
        "pending",
    ]
    assert (await job_row(sessionmaker, taken)).lease_owner == "worker-9"


async def test_claim_companions_leases_each_job_and_counts_an_attempt(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    now = clock.now()
    (job_id,) = await pending_jobs(sessionmaker, clock, [2 * MINUTE])
    await force_job(sessionmaker, job_id, attempts=2)  # deferred twice before, say

    (claimed,) = await _companions(sessionmaker, {"zhangsan"}, now, owner="worker-7")
    row = await job_row(sessionmaker, job_id)

    assert (claimed.id, claimed.status, claimed.lease_owner, claimed.attempts) == (
        job_id,
        "processing",
        "worker-7",
        3,
    )
    assert (row.status, row.lease_owner, row.attempts) == ("processing", "worker-7", 3)
    assert (row.lease_expires_at, row.updated_at, row.finished_at) == (now + LEASE, now, None)


async def test_claim_companions_with_no_recipients_claims_nothing(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    (job_id,) = await pending_jobs(sessionmaker, clock, [MINUTE])

    claimed = await _companions(sessionmaker, set(), clock.now())

    assert claimed == []
    assert (await job_row(sessionmaker, job_id)).status == "pending"


async def test_a_companion_claim_skips_jobs_another_open_claim_holds(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    """The first claimer holds its transaction open until the second is done.

    MariaDB: the second runs meanwhile and must skip the locked rows. SQLite: the gate
    makes it wait, and it then finds them already processing.
    """
    ids = await pending_jobs(engine, clock, [MINUTE, 2 * MINUTE, 3 * MINUTE])
    database, concurrent = Database(engine), engine.dialect.name != "sqlite"
    first_has_taken, second_is_done = asyncio.Event(), asyncio.Event()

    async def claim(owner: str) -> list[int]:
        async with database.transaction() as session:
            taken = await job_claims.claim_companions(
                session,
                {"zhangsan"},
                until=clock.now() + WINDOW,
                now=clock.now(),
                owner=owner,
                lease=LEASE,
            )
            if owner == "worker-1":
                first_has_taken.set()
                if concurrent:
                    await second_is_done.wait()
        return [j.id for j in taken]

    async def second() -> list[int]:
        await first_has_taken.wait()
        try:
            return await claim("worker-2")
        finally:
            second_is_done.set()

    first, late = await asyncio.gather(claim("worker-1"), second())

    assert (first, late) == (ids, [])
    assert {(await job_row(engine, job_id)).lease_owner for job_id in ids} == {"worker-1"}


async def test_two_companion_claims_at_once_never_take_the_same_job(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    ids = await pending_jobs(engine, clock, [n * TICK for n in range(1, 41)])
    database = Database(engine)
    # MariaDB: both transactions are open before either claims. SQLite's gate lets
    # only one in at a time, so a barrier there would wait forever.
    barrier = asyncio.Barrier(2) if engine.dialect.name != "sqlite" else None

    async def claim(owner: str) -> list[int]:
        async with database.transaction() as session:
            if barrier is not None:
                await barrier.wait()
            taken = await job_claims.claim_companions(
                session,
                {"zhangsan"},
                until=clock.now() + WINDOW,
                now=clock.now(),
                owner=owner,
                lease=LEASE,
            )
        return [j.id for j in taken]

    first, second = await asyncio.gather(claim("worker-1"), claim("worker-2"))

    assert set(first).isdisjoint(second)
    assert sorted(first + second) == ids
    owners = {job_id: (await job_row(engine, job_id)).lease_owner for job_id in ids}
    assert {job_id for job_id, owner in owners.items() if owner == "worker-1"} == set(first)


# --- refunding a deferral's attempt --------------------------------------------------


async def test_finalise_with_refund_attempt_puts_the_claims_attempt_back(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    now = clock.now()
    deferred, failed = await pending_jobs(sessionmaker, clock, [MINUTE, 2 * MINUTE])
    first, second = await _companions(sessionmaker, {"zhangsan"}, now)
    until = now + 30 * MINUTE

    async with sessionmaker.begin() as session:
        refunded = await job_claims.finalise(
            session, first, status="retry_wait", now=now, next_attempt_at=until, refund_attempt=True
        )
        kept = await job_claims.finalise(
            session, second, status="retry_wait", now=now, next_attempt_at=until
        )
        again = await job_claims.finalise(
            session, first, status="retry_wait", now=now, refund_attempt=True
        )
    row = await job_row(sessionmaker, deferred)

    assert (first.attempts, refunded, kept, again) == (1, True, True, False)
    assert (row.status, row.attempts, row.next_attempt_at) == ("retry_wait", 0, until)
    assert (row.lease_owner, row.lease_expires_at, row.finished_at) == (None, None, None)
    assert (await job_row(sessionmaker, failed)).attempts == 1


# --- what was missed -----------------------------------------------------------------


async def _expire(sessionmaker: Sessions, job_id: int, at: dt.datetime) -> None:
    await force_job(sessionmaker, job_id, status="expired", finished_at=at)


async def test_missed_since_lists_the_users_expired_reminders_since_then_oldest_first(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    now, since = clock.now(), clock.now() - 60 * MINUTE
    minutes = [-20, -50, -90, -40, -5]
    later, earlier, before, cancelled, waiting = await pending_jobs(
        sessionmaker, clock, [n * MINUTE for n in minutes], label="吃药"
    )
    (morning,) = await pending_jobs(
        sessionmaker, clock, [-30 * MINUTE], kind="digest_morning", label="晨报"
    )
    (water,) = await pending_jobs(sessionmaker, clock, [-10 * MINUTE], kind="water", label="喝水")
    (theirs,) = await pending_jobs(
        sessionmaker, clock, [-45 * MINUTE], recipient="lisi", label="开会"
    )
    for job_id in (later, morning, water, theirs):
        await _expire(sessionmaker, job_id, now)
    await _expire(sessionmaker, earlier, since)  # at `since`: counts
    await _expire(sessionmaker, before, since - TICK)
    await force_job(sessionmaker, cancelled, status="cancelled", finished_at=now)
    user_id = (await job_row(sessionmaker, waiting)).user_id

    async with sessionmaker.begin() as session:
        missed = await sent_or_missed.missed_since(session, user_id, since)
        none_later = await sent_or_missed.missed_since(session, user_id, now + TICK)

    assert missed == [  # digests are not told: they may have had nothing to say
        Missed(kind="custom", slot=now - 50 * MINUTE, label="吃药"),
        Missed(kind="custom", slot=now - 20 * MINUTE, label="吃药"),
    ]
    assert none_later == []


async def test_an_expired_card_update_is_not_told_as_a_missed_reminder(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    now = clock.now()
    (medicine,) = await pending_jobs(sessionmaker, clock, [-20 * MINUTE], label="吃药")
    (card,) = await pending_jobs(sessionmaker, clock, [-10 * MINUTE], kind="card_update")
    for job_id in (medicine, card):
        await _expire(sessionmaker, job_id, now)
    user_id = (await job_row(sessionmaker, medicine)).user_id

    async with sessionmaker.begin() as session:
        missed = await sent_or_missed.missed_since(session, user_id, now - 60 * MINUTE)

    assert missed == [Missed(kind="custom", slot=now - 20 * MINUTE, label="吃药")]


async def test_a_jobs_payload_is_stored_and_cut_to_2048_characters(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    rule_id = await new_rule(sessionmaker, clock, user_id, kind="card_update")
    base = NewJob(
        user_id=user_id,
        rule_id=rule_id,
        slot=clock.now(),
        policy="at_most_once",
        priority="high",
        channel="wecom_app",
        recipient="zhangsan",
        payload_kind="card_update",
    )
    short = dataclasses.replace(base, payload="code-1\n已完成")
    long = dataclasses.replace(base, slot=clock.now() + TICK, payload="卡" * 2100)
    plain = dataclasses.replace(base, slot=clock.now() + 2 * TICK)

    async with sessionmaker.begin() as session:
        made = [
            await job_claims.materialise(session, j, now=clock.now()) for j in (short, long, plain)
        ]
        found = [await job_claims.get(session, job_id or 0) for job_id in made]

    payloads = [j.payload if j else None for j in found]
    assert payloads == ["code-1\n已完成", "卡" * 2048, ""]
