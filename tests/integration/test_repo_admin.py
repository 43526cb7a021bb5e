"""The admin's read models (storage/repos/admin.py): the next waiting job, and jobs
counted by kind and status."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from storage.delivery_models import JOBS
from storage.records import NewJob
from storage.repos import admin, jobs
from tests.integration.conftest import new_rule, new_user

Sessions = AsyncEngine  # `async with sessionmaker.begin() as session` (a Core connection)
MINUTE = dt.timedelta(minutes=1)
LEASE = dt.timedelta(minutes=5)
WINDOW = dt.timedelta(minutes=5)
TICK = dt.timedelta(microseconds=1)


async def _rule(
    sessionmaker: Sessions, clock: FakeClock, user_id: int, kind: str = "custom", label: str = ""
) -> int:
    return await new_rule(sessionmaker, clock, user_id, kind=kind, label=label)


async def _jobs(
    sessionmaker: Sessions,
    clock: FakeClock,
    offsets: list[dt.timedelta],
    *,
    recipient: str = "zhangsan",
    kind: str = "custom",
    label: str = "",
) -> list[int]:
    """One pending job per offset from now, for `recipient` (a user of that name)."""
    user_id = await new_user(sessionmaker, clock, recipient)
    rule_id = await _rule(sessionmaker, clock, user_id, kind, label)
    ids = []
    async with sessionmaker.begin() as session:
        for offset in offsets:
            job = NewJob(
                user_id=user_id,
                rule_id=rule_id,
                slot=clock.now() + offset,
                policy="at_most_once",
                priority="normal",
                channel="wecom_app",
                recipient=recipient,
                payload_kind=kind,
            )
            job_id = await jobs.materialise(session, job, now=clock.now())
            assert job_id is not None
            ids.append(job_id)
    return ids


async def _force(sessionmaker: Sessions, job_id: int, **values: Any) -> None:
    """Put a job straight into a state, for setting up what a test starts from."""
    async with sessionmaker.begin() as session:
        await session.execute(update(JOBS).where(JOBS.c.id == job_id).values(**values))


async def _row(sessionmaker: Sessions, job_id: int) -> Any:
    async with sessionmaker.begin() as session:
        return (await session.execute(select(JOBS).where(JOBS.c.id == job_id))).one()


async def test_next_pending_is_the_waiting_job_due_soonest(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    async with sessionmaker.begin() as session:
        nothing = await admin.next_pending(session)
    later, retrying_soon, processing, tied = await _jobs(
        sessionmaker, clock, [10 * MINUTE, 6 * MINUTE, -5 * MINUTE, 5 * MINUTE]
    )
    await _force(sessionmaker, retrying_soon, status="retry_wait", next_attempt_at=clock.now())
    await _force(sessionmaker, tied, next_attempt_at=clock.now())  # same time, larger id
    await _force(sessionmaker, processing, status="processing", lease_owner="w")

    async with sessionmaker.begin() as session:
        first = await admin.next_pending(session)
    await _force(sessionmaker, retrying_soon, status="accepted")
    async with sessionmaker.begin() as session:
        then = await admin.next_pending(session)
    await _force(sessionmaker, tied, status="accepted")
    async with sessionmaker.begin() as session:
        last = await admin.next_pending(session)

    assert nothing is None
    assert [j.id if j else None for j in (first, then, last)] == [retrying_soon, tied, later]


async def test_count_by_kind_counts_jobs_per_payload_kind_and_status(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    async with sessionmaker.begin() as session:
        empty = await admin.count_by_kind(session)
    sent, suppressed, waiting = await _jobs(sessionmaker, clock, [-2 * MINUTE, -MINUTE, MINUTE])
    await _jobs(sessionmaker, clock, [-MINUTE, MINUTE], kind="water")
    await _jobs(sessionmaker, clock, [MINUTE], recipient="lisi")
    await _force(sessionmaker, sent, status="accepted")
    await _force(sessionmaker, suppressed, status="suppressed")

    async with sessionmaker.begin() as session:
        counts = await admin.count_by_kind(session)

    assert empty == {}
    assert counts == {
        ("custom", "accepted"): 1,
        ("custom", "suppressed"): 1,
        ("custom", "pending"): 2,
        ("water", "pending"): 2,
    }
    assert (await _row(sessionmaker, waiting)).status == "pending"
