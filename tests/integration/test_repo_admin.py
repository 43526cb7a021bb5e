"""The admin's read models (storage/repos/admin.py): the next waiting job, and jobs
counted by kind and status."""

from __future__ import annotations

import datetime as dt

from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from storage.repos import admin
from tests.integration.job_setup import force_job, job_row, pending_jobs

Sessions = AsyncEngine  # `async with sessionmaker.begin() as session` (a Core connection)
MINUTE = dt.timedelta(minutes=1)
LEASE = dt.timedelta(minutes=5)
WINDOW = dt.timedelta(minutes=5)
TICK = dt.timedelta(microseconds=1)


async def test_next_pending_is_the_waiting_job_due_soonest(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    async with sessionmaker.begin() as session:
        nothing = await admin.next_pending(session)
    later, retrying_soon, processing, tied = await pending_jobs(
        sessionmaker, clock, [10 * MINUTE, 6 * MINUTE, -5 * MINUTE, 5 * MINUTE]
    )
    await force_job(sessionmaker, retrying_soon, status="retry_wait", next_attempt_at=clock.now())
    await force_job(sessionmaker, tied, next_attempt_at=clock.now())  # same time, larger id
    await force_job(sessionmaker, processing, status="processing", lease_owner="w")

    async with sessionmaker.begin() as session:
        first = await admin.next_pending(session)
    await force_job(sessionmaker, retrying_soon, status="accepted")
    async with sessionmaker.begin() as session:
        then = await admin.next_pending(session)
    await force_job(sessionmaker, tied, status="accepted")
    async with sessionmaker.begin() as session:
        last = await admin.next_pending(session)

    assert nothing is None
    assert [j.id if j else None for j in (first, then, last)] == [retrying_soon, tied, later]


async def test_count_by_kind_counts_jobs_per_payload_kind_and_status(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    async with sessionmaker.begin() as session:
        empty = await admin.count_by_kind(session)
    sent, suppressed, waiting = await pending_jobs(
        sessionmaker, clock, [-2 * MINUTE, -MINUTE, MINUTE]
    )
    await pending_jobs(sessionmaker, clock, [-MINUTE, MINUTE], kind="water")
    await pending_jobs(sessionmaker, clock, [MINUTE], recipient="lisi")
    await force_job(sessionmaker, sent, status="accepted")
    await force_job(sessionmaker, suppressed, status="suppressed")

    async with sessionmaker.begin() as session:
        counts = await admin.count_by_kind(session)

    assert empty == {}
    assert counts == {
        ("custom", "accepted"): 1,
        ("custom", "suppressed"): 1,
        ("custom", "pending"): 2,
        ("water", "pending"): 2,
    }
    assert (await job_row(sessionmaker, waiting)).status == "pending"
