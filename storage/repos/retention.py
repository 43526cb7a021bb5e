"""Retention's statements: pre-select what may be pruned, delete what the policy chose.

The policy is `scheduler.core.retention_policy`: it decides row by row. These functions
pre-select rows that might qualify (a superset: every condition here is one the
policy also requires), in id order after a cursor, at most `limit` at a time, and
delete exactly the ids the caller passes, re-checking under the row lock what could
have changed meanwhile. Each call runs in the caller's (short) transaction.

Why a batch is safe on each engine, with several schedulers pruning at once:
- The pre-selection is a plain read: no lock on MariaDB (a consistent read at READ
  COMMITTED), and on SQLite the whole transaction already holds the one write lock.
- Messages and links: `DELETE ... WHERE id IN (...) AND <still old>`. The DELETE
  locks each row it removes; a second pruner with the same ids waits for the first
  to commit, then finds the rows gone and deletes (and counts) nothing.
- Jobs: `SELECT ... FOR UPDATE SKIP LOCKED` on MariaDB takes the batch's rows before
  anything is counted: another pruner skips them ("another worker got there first")
  instead of waiting, and a job already deleted is not returned. Counts are written
  from the locked rows and the same rows are deleted, in one transaction, so what is
  counted is exactly what is deleted. The locks are on a thousand primary keys for
  milliseconds; nothing else ever locks a finished job except 管理 对账, which the
  pre-selection leaves alone until it is settled.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import CursorResult, Table, delete, func, or_, select

from storage.database import Session
from storage.delivery_models import ATTEMPTS, JOBS
from storage.models import INBOUND, USERS
from storage.mp_models import MP_LINK_CODES
from storage.repos import day_counts
from storage.vocabulary import JobStatus
from storage.web_models import WEB_LINKS

LINK_TABLES: dict[str, Table] = {"web_links": WEB_LINKS, "mp_link_codes": MP_LINK_CODES}
"""One-time tokens: the pages' links and the mini-program's link codes."""


@dataclass(frozen=True, kw_only=True, slots=True)
class MessageRow:
    id: int
    received_at: dt.datetime


@dataclass(frozen=True, kw_only=True, slots=True)
class LinkRow:
    id: int
    expires_at: dt.datetime
    used_at: dt.datetime | None


@dataclass(frozen=True, kw_only=True, slots=True)
class JobRow:
    """What the policy reads of a job (`retention_policy.JobFacts`), with its id."""

    id: int
    status: str
    finished_at: dt.datetime | None
    updated_at: dt.datetime
    settled: bool
    owner_missed_since: dt.datetime | None


@dataclass(frozen=True, kw_only=True, slots=True)
class PrunedJobs:
    jobs: int
    attempts: int


def _rowcount(result: Any) -> int:
    return int(cast(CursorResult[Any], result).rowcount)


async def message_candidates(
    session: Session, *, before: dt.datetime, after_id: int, limit: int
) -> list[MessageRow]:
    """Inbound messages received before `before`, ids above `after_id`, oldest first."""
    stmt = (
        select(INBOUND.c.id, INBOUND.c.received_at)
        .where(INBOUND.c.id > after_id, INBOUND.c.received_at < before)
        .order_by(INBOUND.c.id)
        .limit(limit)
    )
    return [MessageRow(id=r.id, received_at=r.received_at) for r in await session.execute(stmt)]


async def delete_messages(session: Session, ids: Sequence[int], *, before: dt.datetime) -> int:
    """Delete these messages if still older than `before`; how many went. Nothing has a
    foreign key to them: records name their message by its key, not its row."""
    if not ids:
        return 0
    stmt = delete(INBOUND).where(INBOUND.c.id.in_(ids), INBOUND.c.received_at < before)
    return _rowcount(await session.execute(stmt))


def _link_over(table: Table, before: dt.datetime) -> Any:
    return or_(table.c.expires_at < before, table.c.used_at < before)


async def link_candidates(
    session: Session, name: str, *, before: dt.datetime, after_id: int, limit: int
) -> list[LinkRow]:
    """Links (or codes) of `name` used or expired before `before`, ids above `after_id`."""
    table = LINK_TABLES[name]
    stmt = (
        select(table.c.id, table.c.expires_at, table.c.used_at)
        .where(table.c.id > after_id, _link_over(table, before))
        .order_by(table.c.id)
        .limit(limit)
    )
    return [
        LinkRow(id=r.id, expires_at=r.expires_at, used_at=r.used_at)
        for r in await session.execute(stmt)
    ]


async def delete_links(
    session: Session, name: str, ids: Sequence[int], *, before: dt.datetime
) -> int:
    """Delete these links (or codes) if still over before `before`; how many went."""
    if not ids:
        return 0
    table = LINK_TABLES[name]
    stmt = delete(table).where(table.c.id.in_(ids), _link_over(table, before))
    return _rowcount(await session.execute(stmt))


async def job_candidates(
    session: Session,
    *,
    statuses: Iterable[str],
    before: dt.datetime,
    after_id: int,
    limit: int,
) -> list[JobRow]:
    """Jobs in one of `statuses` that ended before `before`, ids above `after_id`, with
    whether an admin settled them and their owner's `missed_since`.

    Three statements, not one join: the jobs by a primary-key range in id order (a
    join with users made MariaDB sort the whole table per batch, measured at up to a
    second for 60,000 jobs), then the batch's owners and its settled unknowns by key.
    """
    stmt = (
        select(JOBS.c.id, JOBS.c.user_id, JOBS.c.status, JOBS.c.finished_at, JOBS.c.updated_at)
        .where(
            JOBS.c.id > after_id,
            JOBS.c.status.in_(list(statuses)),
            func.coalesce(JOBS.c.finished_at, JOBS.c.updated_at) < before,
        )
        .order_by(JOBS.c.id)
        .limit(limit)
    )
    found = list(await session.execute(stmt))
    missed = await _missed_since(session, {r.user_id for r in found})
    settled = await _settled(session, [r.id for r in found if r.status == JobStatus.UNKNOWN])
    return [
        JobRow(
            id=r.id,
            status=r.status,
            finished_at=r.finished_at,
            updated_at=r.updated_at,
            settled=r.id in settled,
            owner_missed_since=missed.get(r.user_id),
        )
        for r in found
    ]


async def _missed_since(session: Session, user_ids: set[int]) -> dict[int, dt.datetime]:
    if not user_ids:
        return {}
    stmt = select(USERS.c.id, USERS.c.missed_since).where(
        USERS.c.id.in_(user_ids), USERS.c.missed_since.is_not(None)
    )
    return {r.id: r.missed_since for r in await session.execute(stmt)}


async def _settled(session: Session, job_ids: list[int]) -> set[int]:
    """Of these (unknown) jobs, those an admin settled: their last attempt has a word."""
    if not job_ids:
        return set()
    stmt = select(ATTEMPTS.c.job_id).where(
        ATTEMPTS.c.job_id.in_(job_ids), ATTEMPTS.c.settled.is_not(None)
    )
    return set((await session.execute(stmt)).scalars())


async def archive_and_delete_jobs(
    session: Session, ids: Sequence[int], *, statuses: Iterable[str], before: dt.datetime
) -> PrunedJobs:
    """Count these jobs and their attempts by day (`day_counts`), then delete them.

    Only jobs this transaction locks and that are still in `statuses` and ended before
    `before` are touched (see the module docstring); the rest are another pruner's.

    Raises:
        RuntimeError: the attempts deleted were not the attempts counted (rolls the
            batch back rather than let the kept counts drift).
    """
    if not ids:
        return PrunedJobs(jobs=0, attempts=0)
    pick = select(
        JOBS.c.id,
        JOBS.c.scheduled_slot_utc,
        JOBS.c.channel,
        JOBS.c.payload_kind,
        JOBS.c.status,
        JOBS.c.finished_at,
        JOBS.c.updated_at,
    ).where(
        JOBS.c.id.in_(ids),
        JOBS.c.status.in_(list(statuses)),
        func.coalesce(JOBS.c.finished_at, JOBS.c.updated_at) < before,
    )
    if session.dialect.name != "sqlite":
        pick = pick.with_for_update(skip_locked=True)
    jobs = list(await session.execute(pick))
    if not jobs:
        return PrunedJobs(jobs=0, attempts=0)
    taken = [j.id for j in jobs]
    attempts = list(
        await session.execute(
            select(
                ATTEMPTS.c.job_id,
                ATTEMPTS.c.started_at,
                ATTEMPTS.c.channel,
                ATTEMPTS.c.outcome,
                ATTEMPTS.c.error_class,
                ATTEMPTS.c.provider_code,
            ).where(ATTEMPTS.c.job_id.in_(taken))
        )
    )
    await day_counts.add(session, day_counts.of_jobs(jobs) + day_counts.of_attempts(attempts, jobs))
    gone = _rowcount(await session.execute(delete(ATTEMPTS).where(ATTEMPTS.c.job_id.in_(taken))))
    if gone != len(attempts):
        raise RuntimeError(f"counted {len(attempts)} attempts but deleted {gone}")
    deleted = _rowcount(await session.execute(delete(JOBS).where(JOBS.c.id.in_(taken))))
    return PrunedJobs(jobs=deleted, attempts=gone)
