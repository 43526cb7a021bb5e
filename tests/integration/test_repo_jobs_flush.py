"""The statements of one flush of the delivery window: lock the claims still ours,
finalise them one UPDATE per outcome, record the next starts, give back what never
started, renew the leases, write the attempts in one INSERT."""

from __future__ import annotations

import datetime as dt
from collections import Counter

from sqlalchemy import event, select
from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from storage.delivery_models import ATTEMPTS
from storage.records import JobEnd
from storage.repos import attempts as attempt_rows
from storage.repos import job_claims
from storage.repos.attempts import AttemptRecord
from tests.integration.test_repo_jobs import LEASE, MINUTE, _claim, _due_jobs, _force, _row

Sessions = AsyncEngine


def counting(engine: AsyncEngine) -> Counter[str]:
    """Statements the engine runs from now on, by their first word."""
    seen: Counter[str] = Counter()

    def before(conn: object, cursor: object, statement: str, *_: object) -> None:
        seen[statement.split(None, 1)[0].upper()] += 1

    event.listen(engine.sync_engine, "before_cursor_execute", before)
    return seen


async def test_a_flush_finalises_only_its_own_claims_with_one_update_per_outcome(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    ids = await _due_jobs(sessionmaker, clock, [1, 2, 3, 4, 5])
    claimed = await _claim(sessionmaker, clock.now(), owner="worker-1")
    lost = claimed[4]
    await _force(sessionmaker, lost.id, status="unknown", lease_owner=None)  # swept meanwhile
    later = clock.now() + MINUTE
    statements = counting(sessionmaker)
    async with sessionmaker.begin() as session:
        mine = await job_claims.lock_claims(session, ids, owner="worker-1")
        assert mine == {job.id: 1 for job in claimed[:4]}
        finals = [JobEnd(job=job, status="accepted") for job in claimed[:3]]
        finals.append(JobEnd(job=claimed[3], status="retry_wait", next_attempt_at=later, note="x"))
        await job_claims.finalise_claimed(session, finals, now=later)
    assert statements["UPDATE"] == 2  # accepted, retry_wait
    rows = [await _row(sessionmaker, job.id) for job in claimed]  # oldest first
    assert [r.status for r in rows] == ["accepted"] * 3 + ["retry_wait", "unknown"]
    assert [r.finished_at for r in rows[:4]] == [later] * 3 + [None]
    assert rows[3].next_attempt_at == later
    assert all(r.lease_owner is None for r in rows)


async def test_starting_renewing_and_giving_back_touch_only_this_workers_claims(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    started, waiting, theirs = await _due_jobs(sessionmaker, clock, [1, 2, 3])
    claimed = await _claim(sessionmaker, clock.now(), owner="worker-1")
    await _force(sessionmaker, theirs, lease_owner="worker-2")
    later = clock.now() + MINUTE
    async with sessionmaker.begin() as session:
        await job_claims.start_claimed(session, [started], now=clock.now(), lease=LEASE)
        await job_claims.renew_leases(
            session, [started, waiting, theirs], owner="worker-1", now=later, lease=LEASE
        )
    rows = {job_id: await _row(sessionmaker, job_id) for job_id in (started, waiting, theirs)}
    assert rows[started].lease_expires_at == later + LEASE
    assert rows[waiting].lease_expires_at == later + LEASE
    assert rows[theirs].lease_expires_at == clock.now() + LEASE  # not ours: untouched
    async with sessionmaker.begin() as session:
        released = await job_claims.release_unstarted(
            session, claimed, now=later, note="given back"
        )
    assert released == 1  # only the one never started and still ours
    row = await _row(sessionmaker, waiting)
    assert (row.status, row.attempts, row.lease_owner) == ("pending", 0, None)
    assert (await _row(sessionmaker, started)).status == "processing"
    assert (await _row(sessionmaker, theirs)).lease_owner == "worker-2"


async def test_a_flushs_attempts_are_one_insert(sessionmaker: Sessions, clock: FakeClock) -> None:
    ids = await _due_jobs(sessionmaker, clock, [1, 2, 3])
    now = clock.now()
    records = [
        AttemptRecord(
            job_id=job_id,
            attempt_no=1,
            channel="wecom_app",
            started_at=now - dt.timedelta(milliseconds=50),
            duration_ms=50,
            outcome="accepted",
            error_class="none",
            provider_code=0,
            provider_message_id=f"msg{job_id}",
            error="",
        )
        for job_id in ids
    ]
    statements = counting(sessionmaker)
    async with sessionmaker.begin() as session:
        await attempt_rows.record_attempts(session, records)
    assert statements["INSERT"] == 1
    async with sessionmaker.begin() as session:
        stored = set(await session.execute(select(ATTEMPTS.c.job_id, ATTEMPTS.c.outcome)))
    assert stored == {(job_id, "accepted") for job_id in ids}
