"""The retention run's record (`retention_runs`): open a day's run, hold it, add to it,
and the figures 管理 状态 and `keeper doctor` show.

A day's run is one row per table. Why several schedulers share it safely:
- `open_day` inserts the day's rows insert-or-ignore on the unique (day, table): of
  schedulers reaching the slot together, the first makes each row (claimed by it);
  the others wait on the unique key, then see it taken ("another worker got there
  first").
- `take` is one conditional UPDATE: a row is taken only when it is unfinished and
  either ours or not renewed since `stale_before` (its scheduler stopped). MariaDB
  re-reads the row under its lock at READ COMMITTED, so of two takers one wins; SQLite
  has one writer. If a slow scheduler's row is taken over anyway, both prune the same
  table, which the deletions make safe (`storage.repos.retention`); `renew` then tells
  the slow one it lost the row.
- `add_pruned` runs in the transaction that deletes, so `pruned` is what was deleted.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Table, func, select, update

from storage.database import Session
from storage.delivery_models import ATTEMPTS, JOBS
from storage.dialect import insert_unless_exists
from storage.models import INBOUND
from storage.mp_models import MP_LINK_CODES
from storage.retention_models import RETENTION_RUNS
from storage.web_models import WEB_LINKS

RUNS = RETENTION_RUNS
KEPT: tuple[tuple[Table, Column[Any]], ...] = (
    (INBOUND, INBOUND.c.received_at),
    (JOBS, JOBS.c.created_at),
    (ATTEMPTS, ATTEMPTS.c.started_at),
    (WEB_LINKS, WEB_LINKS.c.created_at),
    (MP_LINK_CODES, MP_LINK_CODES.c.created_at),
)
"""The pruned tables, each with the time its figures' "oldest" is read from."""


@dataclass(frozen=True, kw_only=True, slots=True)
class RunRow:
    """One table's part of one day's run; `finished_at` None: running or interrupted."""

    table_name: str
    run_day: dt.date
    keep_days: int
    cutoff: dt.datetime
    started_at: dt.datetime
    updated_at: dt.datetime
    finished_at: dt.datetime | None
    claimed_by: str
    pruned: int


@dataclass(frozen=True, kw_only=True, slots=True)
class Planned:
    """A table's row of a day's run, as the run's opener plans it."""

    table_name: str
    keep_days: int
    cutoff: dt.datetime


@dataclass(frozen=True, kw_only=True, slots=True)
class TableFigures:
    """A pruned table now: rows kept, when its oldest row was made, its last run."""

    table_name: str
    kept: int
    oldest_at: dt.datetime | None
    last_run: RunRow | None


def _run(row: Any) -> RunRow:
    return RunRow(
        table_name=row.table_name,
        run_day=row.run_day,
        keep_days=row.keep_days,
        cutoff=row.cutoff,
        started_at=row.started_at,
        updated_at=row.updated_at,
        finished_at=row.finished_at,
        claimed_by=row.claimed_by,
        pruned=row.pruned,
    )


async def open_day(
    session: Session, *, day: dt.date, planned: Sequence[Planned], owner: str, now: dt.datetime
) -> int:
    """Make the day's rows that do not exist yet, claimed by `owner`; how many it made."""
    made = 0
    for p in planned:
        values = {
            "run_day": day,
            "table_name": p.table_name,
            "keep_days": p.keep_days,
            "cutoff": p.cutoff,
            "started_at": now,
            "updated_at": now,
            "finished_at": None,
            "claimed_by": owner[:64],
            "pruned": 0,
        }
        made += await insert_unless_exists(session, RUNS, values) is not None
    return made


async def take(
    session: Session, *, day: dt.date, owner: str, now: dt.datetime, stale_before: dt.datetime
) -> list[RunRow]:
    """The day's unfinished rows now held by `owner`: its own, and any whose holder has
    not renewed them since `stale_before` (see the module docstring)."""
    unfinished = (RUNS.c.run_day == day, RUNS.c.finished_at.is_(None))
    await session.execute(
        update(RUNS)
        .where(*unfinished, (RUNS.c.claimed_by == owner) | (RUNS.c.updated_at < stale_before))
        .values(claimed_by=owner[:64], updated_at=now)
    )
    stmt = select(RUNS).where(*unfinished, RUNS.c.claimed_by == owner[:64]).order_by(RUNS.c.id)
    return [_run(r) for r in await session.execute(stmt)]


async def unfinished(session: Session, day: dt.date) -> int:
    """How many of the day's rows are not finished (0 also when there are none)."""
    stmt = select(func.count()).where(RUNS.c.run_day == day, RUNS.c.finished_at.is_(None))
    return int((await session.execute(stmt)).scalar_one())


async def renew(
    session: Session, *, day: dt.date, owner: str, tables: Sequence[str], now: dt.datetime
) -> set[str]:
    """Renew `owner`'s hold on these rows; the tables it still holds (unfinished)."""
    mine = (
        RUNS.c.run_day == day,
        RUNS.c.table_name.in_(list(tables)),
        RUNS.c.claimed_by == owner[:64],
        RUNS.c.finished_at.is_(None),
    )
    await session.execute(update(RUNS).where(*mine).values(updated_at=now))
    return set((await session.execute(select(RUNS.c.table_name).where(*mine))).scalars())


async def add_pruned(
    session: Session,
    *,
    day: dt.date,
    table_name: str,
    count: int,
    now: dt.datetime,
    finished: bool,
) -> None:
    """Add what a batch deleted to the table's row; `finished`: the table is done."""
    values: dict[str, Any] = {"pruned": RUNS.c.pruned + count, "updated_at": now}
    if finished:
        values["finished_at"] = now
    where = (RUNS.c.run_day == day, RUNS.c.table_name == table_name)
    await session.execute(update(RUNS).where(*where).values(values))


async def latest(session: Session) -> dict[str, RunRow]:
    """Each table's newest run row."""
    newest = (
        select(RUNS.c.table_name, func.max(RUNS.c.run_day).label("day"))
        .group_by(RUNS.c.table_name)
        .subquery()
    )
    stmt = select(RUNS).join(
        newest, (RUNS.c.table_name == newest.c.table_name) & (RUNS.c.run_day == newest.c.day)
    )
    return {r.table_name: _run(r) for r in await session.execute(stmt)}


async def figures(session: Session) -> list[TableFigures]:
    """Every pruned table's figures, in `KEPT` order. The oldest row is the one with
    the lowest id (rows are made in time order), found through the primary key
    instead of a scan of an unindexed time column."""
    runs = await latest(session)
    found = []
    for table, when in KEPT:
        kept = int((await session.execute(select(func.count()).select_from(table))).scalar_one())
        first = select(func.min(table.c.id)).scalar_subquery()
        oldest = (await session.execute(select(when).where(table.c.id == first))).scalar()
        found.append(
            TableFigures(
                table_name=table.name, kept=kept, oldest_at=oldest, last_run=runs.get(table.name)
            )
        )
    return found
