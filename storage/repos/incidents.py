"""Incidents: what broke, since when, whether the admins were told (see
`scheduler.core.incidents` for the state machine these rows keep).

Concurrency: `open_key` ("kind:subject") is unique while an incident is open, so two
workers opening the same incident insert one row (the second insert is ignored) and
then both lock that row; every change is a conditional UPDATE (`alerted_at IS NULL`,
`resolved_at IS NULL`), so only one of them alerts and only one tells the recovery.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import CursorResult, Row, func, select, update

from storage.database import Session
from storage.delivery_models import INCIDENTS
from storage.dialect import insert_unless_exists

DETAIL_MAX = 500


@dataclass(frozen=True, kw_only=True, slots=True)
class IncidentRecord:
    id: int
    kind: str
    subject: str
    opened_at: dt.datetime
    last_seen_at: dt.datetime
    resolved_at: dt.datetime | None
    detail: str
    alerted_at: dt.datetime | None
    recovery_alerted_at: dt.datetime | None


def _key(kind: str, subject: str) -> str:
    return f"{kind}:{subject}"


def _record(row: Row[Any]) -> IncidentRecord:
    return IncidentRecord(
        id=row.id,
        kind=row.kind,
        subject=row.subject,
        opened_at=row.opened_at,
        last_seen_at=row.last_seen_at,
        resolved_at=row.resolved_at,
        detail=row.detail,
        alerted_at=row.alerted_at,
        recovery_alerted_at=row.recovery_alerted_at,
    )


async def open_one(
    session: Session, kind: str, subject: str, *, lock: bool = False
) -> IncidentRecord | None:
    """The open incident of (kind, subject), or None; `lock` holds its row until commit."""
    stmt = select(INCIDENTS).where(INCIDENTS.c.open_key == _key(kind, subject))
    row = (await session.execute(stmt.with_for_update() if lock else stmt)).first()
    return None if row is None else _record(row)


async def seen(
    session: Session,
    kind: str,
    subject: str,
    *,
    detail: str,
    now: dt.datetime,
    since: dt.datetime | None = None,
) -> tuple[IncidentRecord, bool]:
    """Open the incident (broken `since`, default `now`), or refresh the open one
    (last_seen_at, detail); its row is locked until commit. Also whether this call
    opened it."""
    values = {
        "kind": kind,
        "subject": subject,
        "open_key": _key(kind, subject),
        "opened_at": since or now,
        "last_seen_at": now,
        "detail": detail[:DETAIL_MAX],
    }
    opened = await insert_unless_exists(session, INCIDENTS, values) is not None
    found = await open_one(session, kind, subject, lock=True)
    assert found is not None  # inserted, or open already: nothing resolves it meanwhile
    if not opened:
        await session.execute(
            update(INCIDENTS)
            .where(INCIDENTS.c.id == found.id)
            .values(last_seen_at=now, detail=detail[:DETAIL_MAX])
        )
    return found, opened


async def mark_alerted(session: Session, incident_id: int, *, now: dt.datetime) -> bool:
    """Stamp the alert as queued; False when another worker already did."""
    stmt = (
        update(INCIDENTS)
        .where(INCIDENTS.c.id == incident_id, INCIDENTS.c.alerted_at.is_(None))
        .values(alerted_at=now)
    )
    return bool(cast(CursorResult[Any], await session.execute(stmt)).rowcount)


async def resolve(session: Session, incident_id: int, *, now: dt.datetime, told: bool) -> bool:
    """Close the incident (freeing its open key for a later one); `told`: the recovery
    message was queued. False when another worker resolved it first."""
    stmt = (
        update(INCIDENTS)
        .where(INCIDENTS.c.id == incident_id, INCIDENTS.c.resolved_at.is_(None))
        .values(resolved_at=now, open_key=None, recovery_alerted_at=now if told else None)
    )
    return bool(cast(CursorResult[Any], await session.execute(stmt)).rowcount)


async def alerted_since(session: Session, since: dt.datetime) -> int:
    """How many incidents had their alert queued at or after `since` (the storm cap)."""
    stmt = select(func.count()).select_from(INCIDENTS).where(INCIDENTS.c.alerted_at >= since)
    return int((await session.execute(stmt)).scalar_one())


async def open_subjects(session: Session, kind: str) -> set[str]:
    """The subjects with an open incident of `kind` (one indexed read)."""
    stmt = select(INCIDENTS.c.subject).where(
        INCIDENTS.c.kind == kind, INCIDENTS.c.open_key.is_not(None)
    )
    return set((await session.execute(stmt)).scalars())


async def open_all(session: Session) -> list[IncidentRecord]:
    """Every open incident, oldest first (管理 状态)."""
    stmt = select(INCIDENTS).where(INCIDENTS.c.open_key.is_not(None)).order_by(INCIDENTS.c.id)
    return [_record(row) for row in (await session.execute(stmt)).all()]
