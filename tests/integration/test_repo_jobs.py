"""Notification jobs: materialise, claim, finalise, settle, expire, recover, count.

The concurrent tests open each transaction through `Database(engine).transaction()`:
on MariaDB those are separate connections that really overlap (asyncio.Event and
Barrier hold one open while the other works); on SQLite the gate runs them one after
the other, and the outcome must be the same.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import datetime as dt
import functools
from collections.abc import Awaitable, Callable
from typing import Any, cast

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from storage.database import Database, Session
from storage.delivery_models import ATTEMPTS, JOBS
from storage.records import AttemptRecord, JobRecord, NewJob
from storage.repos import attempts as attempt_rows
from storage.repos import job_claims, rules
from storage.retry import retrying
from tests.integration.conftest import new_user
from tests.integration.job_setup import count_by_status, start_sending

Sessions = AsyncEngine  # `async with sessionmaker.begin() as session` (a Core connection)
MINUTE = dt.timedelta(minutes=1)
LEASE = dt.timedelta(minutes=5)
TICK = dt.timedelta(microseconds=1)


def _engines(*, sqlite: str | None = None, mariadb: str | None = None) -> Any:
    """Both engines for `database_url`, each marked xfail (strict) with its reason if given."""

    def param(name: str, reason: str | None, *marks: Any) -> Any:
        xfail = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        return pytest.param(name, marks=[*marks, *xfail])

    engines = [param("sqlite", sqlite), param("mariadb", mariadb, pytest.mark.mariadb)]
    return pytest.mark.parametrize("database_url", engines, indirect=True)


async def _rule(sessionmaker: Sessions, clock: FakeClock, user_id: int) -> int:
    async with sessionmaker.begin() as session:
        return await rules.create(
            session,
            user_id=user_id,
            kind="custom",
            policy="at_least_once",
            priority="normal",
            channel="wecom_app",
            now=clock.now(),
        )


def _job(
    user_id: int,
    rule_id: int,
    slot: dt.datetime,
    *,
    priority: str = "normal",
    recipient: str = "zhangsan",
    channel: str = "wecom_app",
) -> NewJob:
    return NewJob(
        user_id=user_id,
        rule_id=rule_id,
        slot=slot,
        policy="at_least_once",
        priority=priority,
        channel=channel,
        recipient=recipient,
        payload_kind="custom",
        payload_ref=42,
    )


async def _materialise(sessionmaker: Sessions, job: NewJob, now: dt.datetime) -> int | None:
    async with sessionmaker.begin() as session:
        return await job_claims.materialise(session, job, now=now)


async def _due_jobs(
    sessionmaker: Sessions, clock: FakeClock, minutes_ago: list[int], **job: Any
) -> list[int]:
    """Materialise one pending job per age (in minutes before now); their ids, in order."""
    user_id = await new_user(sessionmaker, clock)
    rule_id = await _rule(sessionmaker, clock, user_id)
    ids = []
    for age in minutes_ago:
        new = _job(user_id, rule_id, clock.now() - age * MINUTE, **job)
        job_id = await _materialise(sessionmaker, new, clock.now())
        assert job_id is not None
        ids.append(job_id)
    return ids


async def _claim(
    sessionmaker: Sessions, now: dt.datetime, owner: str = "worker-1", limit: int = 100
) -> list[JobRecord]:
    async with sessionmaker.begin() as session:
        return await job_claims.claim(session, now=now, owner=owner, lease=LEASE, limit=limit)


async def _finalise(
    sessionmaker: Sessions, job: JobRecord, status: str, now: dt.datetime, **kw: Any
) -> bool:
    async with sessionmaker.begin() as session:
        return await job_claims.finalise(session, job, status=status, now=now, **kw)


async def _row(sessionmaker: Sessions, job_id: int) -> Any:
    async with sessionmaker.begin() as session:
        return (await session.execute(select(JOBS).where(JOBS.c.id == job_id))).one()


async def _statuses(sessionmaker: Sessions, ids: list[int]) -> list[str]:
    return [(await _row(sessionmaker, job_id)).status for job_id in ids]


async def _job_count(sessionmaker: Sessions) -> int:
    async with sessionmaker.begin() as session:
        return (await session.execute(select(func.count()).select_from(JOBS))).scalar_one()


async def _force(sessionmaker: Sessions, job_id: int, **values: Any) -> None:
    """Put a job straight into a state, for setting up what a test starts from."""
    async with sessionmaker.begin() as session:
        await session.execute(update(JOBS).where(JOBS.c.id == job_id).values(**values))


# --- materialising -------------------------------------------------------------------


async def test_materialise_creates_a_pending_job_due_at_its_slot_and_returns_its_id(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    rule_id = await _rule(sessionmaker, clock, user_id)
    slot = clock.now() + dt.timedelta(hours=1, microseconds=5)

    job_id = await _materialise(sessionmaker, _job(user_id, rule_id, slot), clock.now())
    row = await _row(sessionmaker, job_id or 0)
    async with sessionmaker.begin() as session:
        record = await job_claims.get(session, job_id or 0)
        missing = await job_claims.get(session, (job_id or 0) + 100)

    assert isinstance(job_id, int)
    assert record == JobRecord(
        id=job_id,
        user_id=user_id,
        rule_id=rule_id,
        slot=slot,
        status="pending",
        policy="at_least_once",
        priority="normal",
        channel="wecom_app",
        recipient="zhangsan",
        payload_kind="custom",
        payload_ref=42,
        attempts=0,
        lease_owner=None,
    )
    assert (row.next_attempt_at, row.created_at, row.finished_at) == (slot, clock.now(), None)
    assert missing is None


async def test_materialising_the_same_slot_again_returns_none_and_creates_nothing(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    rule_id = await _rule(sessionmaker, clock, user_id)
    other_rule = await _rule(sessionmaker, clock, user_id)
    slot = clock.now()
    first = await _materialise(sessionmaker, _job(user_id, rule_id, slot), clock.now())

    again = await _materialise(sessionmaker, _job(user_id, rule_id, slot), clock.now() + MINUTE)
    next_slot = await _materialise(sessionmaker, _job(user_id, rule_id, slot + TICK), clock.now())
    other = await _materialise(sessionmaker, _job(user_id, other_rule, slot), clock.now())

    assert again is None
    assert None not in (first, next_slot, other)
    assert await _job_count(sessionmaker) == 3
    assert (await _row(sessionmaker, first or 0)).created_at == clock.now()


async def test_materialise_many_inserts_each_new_slot_once_and_counts_only_new_ones(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    rule_id = await _rule(sessionmaker, clock, user_id)
    slot = clock.now()
    there = await _materialise(sessionmaker, _job(user_id, rule_id, slot), clock.now())
    same_instant = slot.astimezone(dt.timezone(dt.timedelta(hours=8)))
    batch = [
        _job(user_id, rule_id, slot),  # already there
        _job(user_id, rule_id, slot + TICK),
        _job(user_id, rule_id, (slot + TICK).astimezone(same_instant.tzinfo)),  # again
        _job(user_id, rule_id, slot + MINUTE, priority="high"),
    ]

    async with sessionmaker.begin() as session:
        made = await job_claims.materialise_many(session, batch, now=clock.now() + MINUTE)
        again = await job_claims.materialise_many(session, batch, now=clock.now() + MINUTE)
    async with sessionmaker.begin() as session:
        rows = (await session.execute(select(JOBS).order_by(JOBS.c.scheduled_slot_utc))).all()

    assert (made, again) == (2, 0)
    assert [r.scheduled_slot_utc for r in rows] == [slot, slot + TICK, slot + MINUTE]
    assert [r.id == there for r in rows] == [True, False, False]
    assert [(r.status, r.priority, r.next_attempt_at) for r in rows[1:]] == [
        ("pending", "normal", slot + TICK),
        ("pending", "high", slot + MINUTE),
    ]
    assert rows[2].created_at == clock.now() + MINUTE


async def test_materialise_many_makes_every_job_of_a_batch_larger_than_a_chunk(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    user_id = await new_user(sessionmaker, clock)
    rule_id = await _rule(sessionmaker, clock, user_id)
    count = 2 * job_claims.MATERIALISE_CHUNK + 1
    batch = [_job(user_id, rule_id, clock.now() + i * MINUTE) for i in range(count)]
    await _materialise(sessionmaker, batch[-1], clock.now())  # the last chunk's only one

    async with sessionmaker.begin() as session:
        made = await job_claims.materialise_many(session, batch, now=clock.now())

    assert made == count - 1
    assert await _job_count(sessionmaker) == count


async def test_three_concurrent_materialisations_of_one_slot_make_exactly_one_job(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    user_id = await new_user(engine, clock)
    rule_id = await _rule(engine, clock, user_id)
    job, database = _job(user_id, rule_id, clock.now()), Database(engine)
    # MariaDB: all three transactions are open before any inserts. SQLite's gate lets
    # only one in at a time, so a barrier there would wait forever.
    barrier = asyncio.Barrier(3) if engine.dialect.name != "sqlite" else None

    async def tick() -> int | None:
        async with database.transaction() as session:
            if barrier is not None:
                await barrier.wait()
            return await job_claims.materialise(session, job, now=clock.now())

    made = await asyncio.gather(tick(), tick(), tick())

    assert made.count(None) == 2
    assert await _job_count(engine) == 1


# --- claiming ------------------------------------------------------------------------


async def test_claim_takes_due_pending_and_retry_wait_jobs_and_leases_them(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    now = clock.now()
    pending, retrying_due, retrying_later, pending_later = await _due_jobs(
        sessionmaker, clock, [10, 20, 30, -10]
    )
    await _force(sessionmaker, retrying_due, status="retry_wait", attempts=1)
    await _force(
        sessionmaker, retrying_later, status="retry_wait", attempts=1, next_attempt_at=now + TICK
    )

    claimed = await _claim(sessionmaker, now, owner="worker-7")
    rows = {job_id: await _row(sessionmaker, job_id) for job_id in (pending, retrying_due)}

    assert sorted((j.id, j.status, j.lease_owner, j.attempts) for j in claimed) == sorted(
        [(pending, "processing", "worker-7", 1), (retrying_due, "processing", "worker-7", 2)]
    )
    for row in rows.values():
        assert (row.status, row.lease_owner) == ("processing", "worker-7")
        assert (row.lease_expires_at, row.updated_at, row.finished_at) == (now + LEASE, now, None)
    assert await _statuses(sessionmaker, [retrying_later, pending_later]) == [
        "retry_wait",
        "pending",
    ]


async def test_a_job_is_claimed_at_its_due_time_and_not_a_microsecond_before(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    (job_id,) = await _due_jobs(sessionmaker, clock, [0])

    too_early = await _claim(sessionmaker, clock.now() - TICK)
    on_time = await _claim(sessionmaker, clock.now())

    assert too_early == []
    assert [j.id for j in on_time] == [job_id]


async def test_claim_takes_at_most_limit_jobs_and_the_oldest_first(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    ids = await _due_jobs(sessionmaker, clock, [3, 5, 1, 4, 2])
    by_age = dict(zip([3, 5, 1, 4, 2], ids, strict=True))

    first = await _claim(sessionmaker, clock.now(), limit=2)
    second = await _claim(sessionmaker, clock.now(), limit=2)
    rest = await _claim(sessionmaker, clock.now(), limit=2)
    nothing = await _claim(sessionmaker, clock.now(), limit=2)

    assert sorted(j.id for j in first) == sorted([by_age[5], by_age[4]])
    assert sorted(j.id for j in second) == sorted([by_age[3], by_age[2]])
    assert [j.id for j in rest] == [by_age[1]]
    assert nothing == []


@_engines()
async def test_claim_returns_its_batch_oldest_first(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    ids = await _due_jobs(sessionmaker, clock, [1, 5, 3, 4, 2])

    claimed = await _claim(sessionmaker, clock.now(), limit=3)

    assert [j.id for j in claimed] == [ids[1], ids[3], ids[2]]


async def test_a_claimed_job_is_not_claimed_again_while_processing(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    await _due_jobs(sessionmaker, clock, [1])
    await _claim(sessionmaker, clock.now(), owner="worker-1")

    again = await _claim(sessionmaker, clock.now() + dt.timedelta(days=1), owner="worker-2")

    assert again == []


@_engines()
async def test_two_concurrent_claimers_take_disjoint_jobs_and_together_all_due_ones(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    """The first claimer holds its transaction open while the second claims.

    MariaDB: the second runs meanwhile on its own connection and must skip the rows
    the first has locked (SKIP LOCKED) rather than wait or take them too. SQLite: the
    gate makes it wait for the first to commit, and it then finds them `processing`.
    """
    ids = await _due_jobs(engine, clock, [6, 5, 4, 3, 2, 1])
    not_due = await _due_jobs(engine, clock, [-1], recipient="lisi")
    database, concurrent = Database(engine), engine.dialect.name != "sqlite"
    first_has_claimed, second_is_done = asyncio.Event(), asyncio.Event()

    async def first() -> list[int]:
        async with database.transaction() as session:
            got = await job_claims.claim(
                session, now=clock.now(), owner="first", lease=LEASE, limit=4
            )
            first_has_claimed.set()
            if concurrent:
                await second_is_done.wait()
        return [j.id for j in got]

    async def second() -> list[int]:
        await first_has_claimed.wait()
        async with database.transaction() as session:
            got = await job_claims.claim(
                session, now=clock.now(), owner="second", lease=LEASE, limit=10
            )
        second_is_done.set()
        return [j.id for j in got]

    took_first, took_second = await asyncio.gather(first(), second())

    assert set(took_first).isdisjoint(took_second)
    assert sorted(took_first) == ids[:4]  # the oldest four
    assert sorted(took_second) == ids[4:]  # and the rest: together, every due job
    owners = [(await _row(engine, job_id)).lease_owner for job_id in ids]
    assert owners == ["first"] * 4 + ["second"] * 2
    assert await _statuses(engine, not_due) == ["pending"]


# --- finalising ----------------------------------------------------------------------


async def test_finalise_succeeds_once_for_the_claim_and_a_second_finalise_changes_nothing(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    (job_id,) = await _due_jobs(sessionmaker, clock, [1])
    (job,) = await _claim(sessionmaker, clock.now())
    done_at = clock.now() + MINUTE

    first = await _finalise(sessionmaker, job, "accepted", done_at, note="msgid abc")
    after_first = await _row(sessionmaker, job_id)
    second = await _finalise(sessionmaker, job, "failed", done_at + MINUTE, note="late")

    assert (first, second) == (True, False)
    assert after_first.status == "accepted"
    assert (after_first.lease_owner, after_first.lease_expires_at) == (None, None)
    assert (after_first.finished_at, after_first.updated_at) == (done_at, done_at)
    assert after_first.outcome_note == "msgid abc"
    assert await _row(sessionmaker, job_id) == after_first


async def test_a_finalise_with_another_owner_or_a_stale_attempt_changes_nothing(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    (job_id,) = await _due_jobs(sessionmaker, clock, [1])
    (job,) = await _claim(sessionmaker, clock.now(), owner="worker-1")
    claimed = await _row(sessionmaker, job_id)

    wrong_owner = dataclasses.replace(job, lease_owner="worker-2")
    stale_attempt = dataclasses.replace(job, attempts=job.attempts - 1)
    by_stranger = await _finalise(sessionmaker, wrong_owner, "accepted", clock.now())
    by_stale = await _finalise(sessionmaker, stale_attempt, "accepted", clock.now())

    assert (by_stranger, by_stale) == (False, False)
    assert await _row(sessionmaker, job_id) == claimed


async def test_a_late_worker_cannot_overwrite_what_the_lease_sweeper_settled(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    (job_id,) = await _due_jobs(sessionmaker, clock, [1])
    (worker_view,) = await _claim(sessionmaker, clock.now(), owner="worker-1")
    later = clock.now() + LEASE + MINUTE
    async with sessionmaker.begin() as session:
        (sweeper_view,) = await job_claims.expired_leases(session, now=later, limit=10)

    swept = await _finalise(sessionmaker, sweeper_view, "unknown", later, note="lease lost")
    late = await _finalise(sessionmaker, worker_view, "accepted", later + MINUTE)

    assert (swept, late) == (True, False)
    row = await _row(sessionmaker, job_id)
    assert (row.status, row.outcome_note, row.finished_at) == ("unknown", "lease lost", later)


async def test_a_claim_whose_send_never_started_is_released_as_if_never_claimed(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    (job_id,) = await _due_jobs(sessionmaker, clock, [1])
    before = await _row(sessionmaker, job_id)
    (claimed,) = await _claim(sessionmaker, clock.now(), owner="worker-1")
    later = clock.now() + LEASE + MINUTE
    async with sessionmaker.begin() as session:
        (swept,) = await job_claims.expired_leases(session, now=later, limit=10)
        assert swept.send_started_at is None
        assert await job_claims.release(session, swept, now=later, note="released")
        assert not await job_claims.release(session, swept, now=later, note="again")  # once
    row = await _row(sessionmaker, job_id)
    assert (row.status, row.attempts, row.lease_owner, row.next_attempt_at) == (
        "pending",
        0,
        None,
        before.next_attempt_at,
    )
    assert not await _finalise(sessionmaker, claimed, "accepted", later)  # the claim is gone
    (again,) = await _claim(sessionmaker, later, owner="worker-2")
    assert again.attempts == 1


async def test_a_claim_whose_send_started_is_not_released(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    (job_id,) = await _due_jobs(sessionmaker, clock, [1])
    await _claim(sessionmaker, clock.now(), owner="worker-1")
    async with sessionmaker.begin() as session:
        mine = await start_sending(
            session, [job_id], owner="worker-1", now=clock.now(), lease=LEASE
        )
    assert mine == {job_id}
    later = clock.now() + LEASE + MINUTE
    async with sessionmaker.begin() as session:
        (swept,) = await job_claims.expired_leases(session, now=later, limit=10)
        assert swept.send_started_at is not None
        assert not await job_claims.release(session, swept, now=later, note="released")
    assert (await _row(sessionmaker, job_id)).status == "processing"  # the policy decides


async def test_starting_a_send_renews_the_lease_and_skips_jobs_that_are_not_ours(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    ours, theirs = await _due_jobs(sessionmaker, clock, [1, 2])
    await _claim(sessionmaker, clock.now(), owner="worker-1")
    await _force(sessionmaker, theirs, lease_owner="worker-2")
    later = clock.now() + MINUTE
    async with sessionmaker.begin() as session:
        mine = await start_sending(
            session, [ours, theirs], owner="worker-1", now=later, lease=LEASE
        )
    assert mine == {ours}
    row = await _row(sessionmaker, ours)
    assert (row.send_started_at, row.lease_expires_at) == (later, later + LEASE)
    assert (await _row(sessionmaker, theirs)).send_started_at is None


async def test_a_retry_claims_with_its_send_not_started_again(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    (job_id,) = await _due_jobs(sessionmaker, clock, [1])
    (claimed,) = await _claim(sessionmaker, clock.now(), owner="worker-1")
    async with sessionmaker.begin() as session:
        await start_sending(session, [job_id], owner="worker-1", now=clock.now(), lease=LEASE)
        await job_claims.finalise(
            session, claimed, status="retry_wait", now=clock.now(), next_attempt_at=clock.now()
        )
    (retry,) = await _claim(sessionmaker, clock.now() + MINUTE, owner="worker-1")
    assert retry.send_started_at is None
    async with sessionmaker.begin() as session:
        assert await job_claims.release(session, retry, now=clock.now(), note="released")
    row = await _row(sessionmaker, job_id)
    assert (row.status, row.attempts) == ("retry_wait", 1)  # the earlier try still counts


async def test_the_lease_sweeper_cannot_overwrite_what_the_worker_finalised(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    (job_id,) = await _due_jobs(sessionmaker, clock, [1])
    (worker_view,) = await _claim(sessionmaker, clock.now(), owner="worker-1")
    later = clock.now() + LEASE + MINUTE
    async with sessionmaker.begin() as session:
        (sweeper_view,) = await job_claims.expired_leases(session, now=later, limit=10)

    finished = await _finalise(sessionmaker, worker_view, "accepted", later)
    swept = await _finalise(sessionmaker, sweeper_view, "unknown", later + MINUTE)

    assert (finished, swept) == (True, False)
    assert (await _row(sessionmaker, job_id)).status == "accepted"


async def test_a_worker_from_an_earlier_attempt_cannot_finalise_the_retry(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    (job_id,) = await _due_jobs(sessionmaker, clock, [1])
    (first_attempt,) = await _claim(sessionmaker, clock.now(), owner="worker-1")
    await _finalise(
        sessionmaker, first_attempt, "retry_wait", clock.now(), next_attempt_at=clock.now()
    )
    (second_attempt,) = await _claim(sessionmaker, clock.now(), owner="worker-1")

    stale = await _finalise(sessionmaker, first_attempt, "failed", clock.now())
    current = await _finalise(sessionmaker, second_attempt, "accepted", clock.now())

    assert second_attempt.attempts == first_attempt.attempts + 1 == 2
    assert (stale, current) == (False, True)
    assert (await _row(sessionmaker, job_id)).status == "accepted"


async def test_retry_wait_keeps_finished_at_empty_and_sets_the_next_attempt(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    (job_id,) = await _due_jobs(sessionmaker, clock, [1])
    (job,) = await _claim(sessionmaker, clock.now())
    retry_at = clock.now() + 3 * MINUTE

    ok = await _finalise(sessionmaker, job, "retry_wait", clock.now(), next_attempt_at=retry_at)
    row = await _row(sessionmaker, job_id)

    assert ok is True
    assert (row.status, row.finished_at, row.next_attempt_at) == ("retry_wait", None, retry_at)
    assert (row.lease_owner, row.lease_expires_at, row.attempts) == (None, None, 1)
    assert await _claim(sessionmaker, retry_at - TICK) == []
    assert [j.id for j in await _claim(sessionmaker, retry_at)] == [job_id]


async def test_a_finalise_note_is_cut_to_200_characters(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    (job_id,) = await _due_jobs(sessionmaker, clock, [1])
    (job,) = await _claim(sessionmaker, clock.now())

    await _finalise(sessionmaker, job, "failed", clock.now(), note="错" * 300)

    assert (await _row(sessionmaker, job_id)).outcome_note == "错" * 200


# --- settling waiting jobs -----------------------------------------------------------


async def test_settle_waiting_touches_only_pending_and_retry_wait_jobs(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    pending, waiting, processing, accepted = await _due_jobs(sessionmaker, clock, [1, 2, 3, 4])
    await _force(sessionmaker, waiting, status="retry_wait")
    await _force(sessionmaker, processing, status="processing", lease_owner="w")
    await _force(sessionmaker, accepted, status="accepted", finished_at=clock.now())
    untouched = [await _row(sessionmaker, i) for i in (processing, accepted)]
    later = clock.now() + MINUTE

    async with sessionmaker.begin() as session:
        settled = await job_claims.settle_waiting(
            session,
            [pending, waiting, processing, accepted],
            status="suppressed",
            now=later,
            note="done",
        )
        nothing = await job_claims.settle_waiting(session, [], status="suppressed", now=later)

    assert (settled, nothing) == (2, 0)
    for job_id in (pending, waiting):
        row = await _row(sessionmaker, job_id)
        assert (row.status, row.finished_at, row.outcome_note) == ("suppressed", later, "done")
    assert [await _row(sessionmaker, i) for i in (processing, accepted)] == untouched


async def test_cancel_pending_for_rule_cancels_only_that_rules_waiting_jobs(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    pending, waiting, processing = await _due_jobs(sessionmaker, clock, [1, 2, 3])
    (other_rules,) = await _due_jobs(sessionmaker, clock, [1], recipient="lisi")
    await _force(sessionmaker, waiting, status="retry_wait")
    await _force(sessionmaker, processing, status="processing", lease_owner="w")
    rule_id = (await _row(sessionmaker, pending)).rule_id
    later = clock.now() + MINUTE

    async with sessionmaker.begin() as session:
        cancelled = await job_claims.cancel_pending_for_rule(
            session, rule_id, now=later, note="关闭"
        )

    assert cancelled == 2
    for job_id in (pending, waiting):
        row = await _row(sessionmaker, job_id)
        assert (row.status, row.finished_at, row.outcome_note) == ("cancelled", later, "关闭")
    assert await _statuses(sessionmaker, [processing, other_rules]) == ["processing", "pending"]


async def test_expire_older_than_expires_only_that_prioritys_waiting_jobs_before_the_cutoff(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    cutoff = clock.now() - 30 * MINUTE
    old, old_retry, at_cutoff, recent, old_processing = await _due_jobs(
        sessionmaker, clock, [45, 31, 30, 5, 40], priority="high"
    )
    (old_normal,) = await _due_jobs(sessionmaker, clock, [60], recipient="lisi")
    await _force(sessionmaker, old_retry, status="retry_wait", next_attempt_at=clock.now())
    await _force(sessionmaker, old_processing, status="processing", lease_owner="w")

    async with sessionmaker.begin() as session:
        gone = await job_claims.expire_older_than(
            session, priority="high", cutoff=cutoff, now=clock.now()
        )

    assert sorted(j.id for j in gone) == sorted([old, old_retry])
    for job_id in (old, old_retry):
        row = await _row(sessionmaker, job_id)
        assert (row.status, row.finished_at) == ("expired", clock.now())
    assert await _statuses(sessionmaker, [at_cutoff, recent, old_processing, old_normal]) == [
        "pending",
        "pending",
        "processing",
        "pending",
    ]


class _MeanwhileAfterFirstRead:
    """A session that lets another transaction run, and commit, after its first statement.

    Deterministically opens the window between a repository function's read and its
    write, which on MariaDB other connections can use.
    """

    def __init__(self, session: Session, meanwhile: Callable[[], Awaitable[None]]) -> None:
        self._session, self._meanwhile, self._done = session, meanwhile, False
        self.dialect = session.dialect

    async def execute(self, *args: Any, **kwargs: Any) -> Any:
        result = await self._session.execute(*args, **kwargs)
        if not self._done:
            self._done = True
            await self._meanwhile()
        return result


@pytest.mark.parametrize(
    "database_url",
    [
        pytest.param(
            "mariadb",
            marks=[
                pytest.mark.mariadb,
            ],
        )
    ],
    indirect=True,
)
async def test_expire_older_than_and_a_racing_claimer_never_both_take_a_job(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    """MariaDB only: on SQLite, BEGIN IMMEDIATE keeps any other writer out meanwhile."""
    old, older = await _due_jobs(engine, clock, [40, 50], priority="high")
    database = Database(engine)

    async def a_worker_claims_the_oldest() -> None:
        async with database.transaction() as session:
            await job_claims.claim(session, now=clock.now(), owner="worker-1", lease=LEASE, limit=1)

    async with database.transaction() as session:
        racing = cast(Session, _MeanwhileAfterFirstRead(session, a_worker_claims_the_oldest))
        gone = await job_claims.expire_older_than(
            racing, priority="high", cutoff=clock.now() - 30 * MINUTE, now=clock.now()
        )

    # expire_older_than locks what it read, so the racing claimer skips those rows:
    # what it returns is exactly what it expired, and nothing expired is also claimed.
    assert await _statuses(engine, [old, older]) == ["expired", "expired"]
    assert sorted(j.id for j in gone) == sorted([old, older])
    assert {j.status for j in gone} == {"expired"}


# --- leases --------------------------------------------------------------------------


async def test_expired_leases_lists_processing_jobs_whose_lease_ran_out_oldest_first(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    start = clock.now()
    later_lease, early_lease, on_the_dot, live, finished, waiting = await _due_jobs(
        sessionmaker, clock, [1, 2, 3, 4, 5, 6]
    )
    leases = {later_lease: -2, early_lease: -9, on_the_dot: 0, live: 3, finished: -9}
    for job_id, minutes in leases.items():
        await _force(
            sessionmaker,
            job_id,
            status="processing",
            lease_owner="w",
            lease_expires_at=start + minutes * MINUTE,
        )
    await _force(sessionmaker, finished, status="accepted")
    await _force(sessionmaker, waiting, status="pending", lease_expires_at=start - 9 * MINUTE)

    async with sessionmaker.begin() as session:
        every = await job_claims.expired_leases(session, now=start, limit=10)
        first = await job_claims.expired_leases(session, now=start, limit=1)

    assert [j.id for j in every] == [early_lease, later_lease]
    assert [j.id for j in first] == [early_lease]
    assert {j.lease_owner for j in every} == {"w"}


# --- attempts and the per-recipient budget -------------------------------------------


def _attempt(job_id: int, started_at: dt.datetime, **kw: Any) -> AttemptRecord:
    values: dict[str, Any] = {
        "job_id": job_id,
        "attempt_no": 1,
        "channel": "wecom_app",
        "started_at": started_at,
        "duration_ms": 120,
        "outcome": "accepted",
        "error_class": "",
        "provider_code": 0,
        "provider_message_id": "msgid-1",
        "error": "",
    }
    return AttemptRecord(**(values | kw))


async def test_record_attempt_stores_the_call_and_cuts_the_error_to_500_characters(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    (job_id,) = await _due_jobs(sessionmaker, clock, [1])
    attempt = _attempt(
        job_id,
        clock.now(),
        attempt_no=2,
        outcome="unknown",
        error_class="uncertain",
        provider_code=None,
        provider_message_id=None,
        error="超时" * 400,
    )

    async with sessionmaker.begin() as session:
        await attempt_rows.record_attempt(session, attempt)
        row = (await session.execute(select(ATTEMPTS))).one()

    expected = dataclasses.asdict(attempt) | {"error": "超时" * 250}
    assert {k: getattr(row, k) for k in expected} == expected
    assert row.settled is None


async def test_accepted_sends_since_counts_only_that_recipients_accepted_sends_on_that_channel(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    since = clock.now() - 60 * MINUTE
    (mine,) = await _due_jobs(sessionmaker, clock, [1])
    (theirs,) = await _due_jobs(sessionmaker, clock, [1], recipient="lisi")
    attempts = [
        _attempt(mine, since - TICK),  # before the window
        _attempt(mine, since),  # at its start: counts
        _attempt(mine, since + 10 * MINUTE),
        _attempt(mine, since + 20 * MINUTE, outcome="failed"),
        _attempt(mine, since + 25 * MINUTE, outcome="unknown"),
        _attempt(mine, since + 30 * MINUTE, channel="wxpusher"),
        _attempt(theirs, since + 40 * MINUTE),
    ]
    async with sessionmaker.begin() as session:
        for attempt in attempts:
            await attempt_rows.record_attempt(session, attempt)

    async with sessionmaker.begin() as session:
        sends = await attempt_rows.accepted_sends_since(session, "zhangsan", "wecom_app", since)
        none_later = await attempt_rows.accepted_sends_since(
            session, "zhangsan", "wecom_app", clock.now()
        )

    assert sorted(sends) == [since, since + 10 * MINUTE]
    assert none_later == []


async def test_a_merged_message_counts_once_against_the_recipients_budget(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    first, second, third = await _due_jobs(sessionmaker, clock, [1, 2, 3])
    at = clock.now() - 5 * MINUTE
    async with sessionmaker.begin() as session:
        for job_id in (first, second):  # two jobs, one message: one time, one msgid
            await attempt_rows.record_attempt(session, _attempt(job_id, at))
        await attempt_rows.record_attempt(
            session, _attempt(third, at + MINUTE, provider_message_id="msgid-2")
        )

    async with sessionmaker.begin() as session:
        sends = await attempt_rows.accepted_sends_since(
            session, "zhangsan", "wecom_app", at - MINUTE
        )

    assert sorted(sends) == [at, at + MINUTE]


# --- many workers at once ------------------------------------------------------------


async def test_four_claimer_loops_claim_every_one_of_500_jobs_exactly_once(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    user_id = await new_user(engine, clock)
    rule_id = await _rule(engine, clock, user_id)
    async with engine.begin() as session:
        for n in range(500):
            slot = clock.now() - dt.timedelta(seconds=n)
            await job_claims.materialise(session, _job(user_id, rule_id, slot), now=clock.now())
    database = Database(engine)
    claims: collections.Counter[int] = collections.Counter()

    async def claim_batch(owner: str) -> list[JobRecord]:
        async with database.transaction() as session:
            return await job_claims.claim(
                session, now=clock.now(), owner=owner, lease=LEASE, limit=25
            )

    async def finalise_all(batch: list[JobRecord]) -> list[bool]:
        async with database.transaction() as session:
            return [
                await job_claims.finalise(session, job, status="accepted", now=clock.now())
                for job in batch
            ]

    async def loop(owner: str) -> None:
        while batch := await retrying(functools.partial(claim_batch, owner)):
            claims.update(job.id for job in batch)
            assert all(await retrying(functools.partial(finalise_all, batch)))

    await asyncio.gather(*(loop(f"worker-{n}") for n in range(4)))

    assert len(claims) == 500
    assert set(claims.values()) == {1}
    async with engine.begin() as session:
        assert await count_by_status(session) == {"accepted": 500}
