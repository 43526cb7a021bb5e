"""Calls per API counted per bucket of a window, shared by every worker.

The arithmetic (which buckets count, how many calls fit) is the caller's; this module
only locks, reads and adds, so that concurrent workers never both spend the same room:

1. `lock_usage` reads every counted bucket with `SELECT ... FOR UPDATE`, after making
   the current bucket of each window if it is missing (an upsert that changes
   nothing when another worker made it first). Every reserver locks the same rows
   (at least the current buckets), so a second worker waits at this point until the
   first commits, and then reads what the first added. On SQLite the transaction
   holds the one write lock.
2. `add_usage` adds the calls granted to the current buckets, in the same transaction.

Two statements per reservation (five when a new bucket begins), one reservation per
batch of sends.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from sqlalchemy import and_, delete, or_, select, tuple_, update
from sqlalchemy.dialects import mysql, sqlite

from storage.database import Session
from storage.delivery_models import API_BUDGET

Bucket = tuple[str, dt.datetime]
"""(window name, bucket start)."""


async def lock_usage(
    session: Session,
    api: str,
    counted: Mapping[str, tuple[dt.datetime, dt.datetime]],
) -> dict[Bucket, int]:
    """Lock and read the buckets of `api` that count: window -> (first, current) start.

    Returns the calls counted per (window, bucket start) in those ranges, every current
    bucket among them. A current bucket that does not exist yet (once per bucket
    width) is created, the buckets that no longer count are deleted, and the read
    is repeated: a read that found no row locked nothing.
    """
    found = await _locked(session, api, counted)
    missing = [
        _row(api, window, current)
        for window, (_, current) in sorted(counted.items())
        if (window, current) not in found
    ]
    if not missing:
        return found
    await _ensure(session, missing)
    gone = [
        and_(API_BUDGET.c.span == window, API_BUDGET.c.bucket_start < first)
        for window, (first, _) in counted.items()
    ]
    await session.execute(delete(API_BUDGET).where(API_BUDGET.c.api == api, or_(*gone)))
    return await _locked(session, api, counted)


async def _locked(
    session: Session, api: str, counted: Mapping[str, tuple[dt.datetime, dt.datetime]]
) -> dict[Bucket, int]:
    ranges = [
        and_(API_BUDGET.c.span == window, API_BUDGET.c.bucket_start.between(first, current))
        for window, (first, current) in counted.items()
    ]
    stmt = (
        select(API_BUDGET.c.span, API_BUDGET.c.bucket_start, API_BUDGET.c.used)
        .where(API_BUDGET.c.api == api, or_(*ranges))
        .order_by(API_BUDGET.c.id)
    )
    if session.dialect.name != "sqlite":
        stmt = stmt.with_for_update()
    return {(span, start): used for span, start, used in await session.execute(stmt)}


async def add_usage(session: Session, api: str, current: list[Bucket], calls: int) -> None:
    """Add `calls` to these buckets (locked by `lock_usage` in this transaction)."""
    if calls and current:
        stmt = (
            update(API_BUDGET)
            .where(
                API_BUDGET.c.api == api,
                tuple_(API_BUDGET.c.span, API_BUDGET.c.bucket_start).in_(current),
            )
            .values(used=API_BUDGET.c.used + calls)
        )
        await session.execute(stmt)


def _row(api: str, window: str, start: dt.datetime) -> dict[str, Any]:
    return {"api": api, "span": window, "bucket_start": start, "used": 0}


async def _ensure(session: Session, rows: list[dict[str, Any]]) -> None:
    """Insert the rows unless they exist (another worker may have just made them), in
    one statement. MySQL/MariaDB: `INSERT ... ON DUPLICATE KEY UPDATE used = used`,
    which changes nothing on a clash; not `INSERT IGNORE`, which would also swallow
    other errors. SQLite: `ON CONFLICT DO NOTHING`."""
    if session.dialect.name == "sqlite":
        stmt: Any = sqlite.insert(API_BUDGET).values(rows).on_conflict_do_nothing()
    else:
        stmt = mysql.insert(API_BUDGET).values(rows)
        stmt = stmt.on_duplicate_key_update(used=API_BUDGET.c.used)
    await session.execute(stmt)
