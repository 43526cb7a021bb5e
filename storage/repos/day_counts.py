"""The counts of pruned jobs and attempts (`delivery_day_counts`): written by the
retention run just before it deletes them, read wherever the admin sees totals.

Every reader of all-time delivery totals (管理 状态, the admin page, /metrics) adds
these to what the live tables still hold, so pruning never changes a total. Readers
with a window (today, 7 days) read only live rows: the shortest jobs period (14 days)
is longer than any of their windows.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar, cast

from sqlalchemy import func, select

from storage.database import Session
from storage.dialect import insert_into
from storage.retention_models import DAY_COUNTS
from storage.vocabulary import AttemptOutcome, CountSubject

Key = TypeVar("Key", bound=tuple[Any, ...])


def of_jobs(jobs: Iterable[Any]) -> list[dict[str, Any]]:
    """Rows counting jobs by (slot's UTC day, channel, kind, status); `last_at`: the
    latest end among them. Each job is a row with the `notification_jobs` columns."""
    groups: dict[tuple[Any, ...], list[dt.datetime]] = {}
    for j in jobs:
        key = (j.scheduled_slot_utc.date(), j.channel, j.payload_kind, j.status, "", None)
        groups.setdefault(key, []).append(j.finished_at or j.updated_at)
    return [_row(CountSubject.JOB, key, ends) for key, ends in groups.items()]


def of_attempts(attempts: Iterable[Any], jobs: Iterable[Any]) -> list[dict[str, Any]]:
    """Rows counting attempts by (UTC day started, channel, its job's kind, outcome,
    error class, provider code); `last_at`: the latest start among them."""
    kind_of = {j.id: j.payload_kind for j in jobs}
    groups: dict[tuple[Any, ...], list[dt.datetime]] = {}
    for a in attempts:
        key = (
            a.started_at.date(),
            a.channel,
            kind_of[a.job_id],
            a.outcome,
            a.error_class,
            a.provider_code,
        )
        groups.setdefault(key, []).append(a.started_at)
    return [_row(CountSubject.ATTEMPT, key, starts) for key, starts in groups.items()]


def _row(subject: str, key: tuple[Any, ...], times: list[dt.datetime]) -> dict[str, Any]:
    day, channel, kind, status, error_class, code = key
    return {
        "day": day,
        "subject": subject,
        "channel": channel,
        "kind": kind,
        "status": status,
        "error_class": error_class,
        "provider_code": code,
        "count": len(times),
        "last_at": max(times),
    }


async def add(session: Session, rows: Sequence[dict[str, Any]]) -> None:
    """Write the rows (one multi-row INSERT)."""
    if rows:
        await session.execute(insert_into(DAY_COUNTS), list(rows))


def _total() -> Any:
    return func.sum(DAY_COUNTS.c.count)


def with_live(pruned: dict[Key, int], live: Iterable[Sequence[Any]]) -> dict[Key, int]:
    """All-time counts: the pruned totals plus the live rows, each row its key columns
    followed by a count. The one place the two halves are added."""
    counts = dict(pruned)
    for *columns, n in live:
        key = cast(Key, tuple(columns))
        counts[key] = counts.get(key, 0) + int(n)
    return counts


async def attempt_totals(session: Session) -> dict[tuple[str, str], int]:
    """Pruned attempts per (channel, outcome)."""
    stmt = (
        select(DAY_COUNTS.c.channel, DAY_COUNTS.c.status, _total())
        .where(DAY_COUNTS.c.subject == CountSubject.ATTEMPT)
        .group_by(DAY_COUNTS.c.channel, DAY_COUNTS.c.status)
    )
    return {(channel, outcome): int(n) for channel, outcome, n in await session.execute(stmt)}


async def job_totals(session: Session) -> dict[tuple[str, str], int]:
    """Pruned jobs per (kind, status)."""
    stmt = (
        select(DAY_COUNTS.c.kind, DAY_COUNTS.c.status, _total())
        .where(DAY_COUNTS.c.subject == CountSubject.JOB)
        .group_by(DAY_COUNTS.c.kind, DAY_COUNTS.c.status)
    )
    return {(kind, status): int(n) for kind, status, n in await session.execute(stmt)}


async def channels(session: Session) -> set[str]:
    """Channels that had pruned jobs."""
    stmt = select(DAY_COUNTS.c.channel).where(DAY_COUNTS.c.subject == CountSubject.JOB).distinct()
    return set((await session.execute(stmt)).scalars())


async def last_success(session: Session, channel: str) -> dt.datetime | None:
    """When the latest pruned accepted attempt of `channel` started."""
    stmt = select(func.max(DAY_COUNTS.c.last_at)).where(
        DAY_COUNTS.c.subject == CountSubject.ATTEMPT,
        DAY_COUNTS.c.channel == channel,
        DAY_COUNTS.c.status == AttemptOutcome.ACCEPTED,
    )
    found: dt.datetime | None = (await session.execute(stmt)).scalar_one_or_none()
    return found


async def failures_after(
    session: Session, channel: str, outcomes: Sequence[str], since: dt.datetime | None
) -> int:
    """Pruned attempts of `channel` with one of `outcomes` after `since` (all when None).

    Counted by group: a group whose latest attempt is after `since` counts whole, so
    when the last success itself was pruned, failures of the same batch and day that
    came before it are counted too (a figure that errs towards alarm).
    """
    stmt = select(_total()).where(
        DAY_COUNTS.c.subject == CountSubject.ATTEMPT,
        DAY_COUNTS.c.channel == channel,
        DAY_COUNTS.c.status.in_(list(outcomes)),
    )
    if since is not None:
        stmt = stmt.where(DAY_COUNTS.c.last_at > since)
    return int((await session.execute(stmt)).scalar_one() or 0)


async def causes(
    session: Session, outcomes: Sequence[str]
) -> dict[tuple[str, str, int | None], int]:
    """Pruned attempts with one of `outcomes`, per (channel, error class, provider code)."""
    stmt = (
        select(DAY_COUNTS.c.channel, DAY_COUNTS.c.error_class, DAY_COUNTS.c.provider_code, _total())
        .where(
            DAY_COUNTS.c.subject == CountSubject.ATTEMPT, DAY_COUNTS.c.status.in_(list(outcomes))
        )
        .group_by(DAY_COUNTS.c.channel, DAY_COUNTS.c.error_class, DAY_COUNTS.c.provider_code)
    )
    return {(ch, cls, code): int(n) for ch, cls, code, n in await session.execute(stmt)}
