"""Setting up notification jobs for the repository tests: pending jobs for one member,
a job put straight into a state, a job's row as stored.

Shared by the tests of `storage/repos/job_claims.py`, `storage/repos/sent_or_missed.py`
and `storage/repos/admin.py`, and by acceptance tests that set a job's state up.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from storage.database import Session
from storage.delivery_models import JOBS
from storage.records import NewJob
from storage.repos import job_claims
from tests.integration.conftest import new_rule, new_user

Sessions = AsyncEngine  # `async with sessionmaker.begin() as session` (a Core connection)


async def pending_jobs(
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
    rule_id = await new_rule(sessionmaker, clock, user_id, kind=kind, label=label)
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
            job_id = await job_claims.materialise(session, job, now=clock.now())
            assert job_id is not None
            ids.append(job_id)
    return ids


async def force_job(sessionmaker: Sessions, job_id: int, **values: Any) -> None:
    """Put a job straight into a state, for setting up what a test starts from."""
    async with sessionmaker.begin() as session:
        await session.execute(update(JOBS).where(JOBS.c.id == job_id).values(**values))


async def job_row(sessionmaker: Sessions, job_id: int) -> Any:
    """The job's row as stored."""
    async with sessionmaker.begin() as session:
        return (await session.execute(select(JOBS).where(JOBS.c.id == job_id))).one()


async def start_sending(
    session: Session, job_ids: list[int], *, owner: str, now: dt.datetime, lease: dt.timedelta
) -> set[int]:
    """Mark these claims' sends as started, as the delivery window does just before
    its requests (`job_claims.lock_claims`, then `start_claimed`); the ids still ours."""
    mine = set(await job_claims.lock_claims(session, job_ids, owner=owner))
    await job_claims.start_claimed(session, sorted(mine), now=now, lease=lease)
    return mine


async def count_by_status(session: Session) -> dict[str, int]:
    """How many jobs there are in each status (statuses with none absent)."""
    stmt = select(JOBS.c.status, func.count()).group_by(JOBS.c.status)
    return {status: int(n) for status, n in await session.execute(stmt)}
