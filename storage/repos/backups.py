"""Scheduled backups: claim a day's run, record its outcome, read the latest."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import select, update

from storage.backup_models import BACKUP_RUNS
from storage.database import Session
from storage.dialect import insert_unless_exists
from storage.records import BackupRunRecord

PROBLEM_CHARS = 500


async def claim_day(session: Session, *, day: dt.date, owner: str, now: dt.datetime) -> int | None:
    """Claim `day`'s backup for `owner`: the new run's id, or None when it is taken.

    Why this is safe with several schedulers: `run_day` is unique, and the insert is
    insert-or-ignore (`insert_unless_exists`: ON CONFLICT DO NOTHING on SQLite, a
    duplicate-key error inside a savepoint on MariaDB). A concurrent insert of the same
    day waits for the other transaction and then sees the duplicate: exactly one
    scheduler gets the id, the others None ("another worker got there first").
    """
    values: dict[str, Any] = {
        "run_day": day,
        "started_at": now,
        "verified": False,
        "revision": "",
        "rows": 0,
        "size_bytes": 0,
        "problem": "",
        "claimed_by": owner[:64],
    }
    return await insert_unless_exists(session, BACKUP_RUNS, values)


async def finish(
    session: Session,
    run_id: int,
    *,
    finished_at: dt.datetime,
    path: str | None,
    verified: bool,
    revision: str,
    rows: int,
    size_bytes: int,
    problem: str,
) -> None:
    """Record how run `run_id` ended. `problem` is cut to one line of at most 500 chars."""
    line = " ".join(problem.split())[:PROBLEM_CHARS]
    await session.execute(
        update(BACKUP_RUNS)
        .where(BACKUP_RUNS.c.id == run_id)
        .values(
            finished_at=finished_at,
            path=path,
            verified=verified,
            revision=revision,
            rows=rows,
            size_bytes=size_bytes,
            problem=line,
        )
    )


async def last_verified(session: Session) -> BackupRunRecord | None:
    """The newest verified backup, or None."""
    row = (
        await session.execute(
            select(BACKUP_RUNS)
            .where(BACKUP_RUNS.c.verified.is_(True))
            .order_by(BACKUP_RUNS.c.finished_at.desc())
            .limit(1)
        )
    ).first()
    return None if row is None else _record(row)


async def latest(session: Session) -> BackupRunRecord | None:
    """The newest run, whatever its outcome (running ones included), or None."""
    row = (
        await session.execute(select(BACKUP_RUNS).order_by(BACKUP_RUNS.c.id.desc()).limit(1))
    ).first()
    return None if row is None else _record(row)


def _record(row: Any) -> BackupRunRecord:
    return BackupRunRecord(**dict(row._mapping))
