"""services.alerts on real databases: once per incident across workers, the storm cap,
and an incident that heals before anyone was told."""

from __future__ import annotations

import asyncio
import datetime as dt

from sqlalchemy import Table, func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from scheduler.core.incidents import AlertRoute
from services import alerts
from storage.database import Database
from storage.delivery_models import INCIDENTS, JOBS
from storage.vocabulary import IncidentKind

ROUTE = AlertRoute(
    channel="wecom_robot", owner="boss", recipients=("boss",), timezone="Asia/Shanghai"
)
HOLD = IncidentKind.CHANNEL_HOLD
DETAIL = "config; errcode 60020: not allow to access from your ip, from ip: 203.0.113.7"


async def _seen(db: Database, now: dt.datetime, subject: str = "wecom_app") -> bool:
    async with db.transaction() as session:
        return await alerts.failure_seen(
            session, ROUTE, HOLD, subject, code=60020, detail=DETAIL, now=now
        )


async def _count(engine: AsyncEngine, table: Table) -> int:
    async with engine.connect() as conn:
        return int((await conn.execute(select(func.count()).select_from(table))).scalar_one())


async def test_two_workers_seeing_the_same_hold_at_once_open_one_incident_and_queue_one_alert(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    db = Database(engine)
    queued = await asyncio.gather(*(_seen(db, clock.now()) for _ in range(4)))
    assert sorted(queued) == [False, False, False, True]
    assert await _count(engine, INCIDENTS) == 1
    assert await _count(engine, JOBS) == 1


async def test_an_incident_healed_before_it_was_told_closes_without_an_all_clear(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    db = Database(engine)
    no_road = AlertRoute(
        channel="wecom_app", owner="boss", recipients=("boss",), timezone="UTC", fallback=True
    )
    async with db.transaction() as session:
        told = await alerts.failure_seen(
            session, no_road, HOLD, "wecom_app", code=60020, detail=DETAIL, now=clock.now()
        )
        assert not told
        assert not await alerts.healed(session, no_road, HOLD, "wecom_app", now=clock.now())
    async with engine.connect() as conn:
        [row] = (await conn.execute(select(INCIDENTS))).all()
    assert row.resolved_at is not None
    assert row.recovery_alerted_at is None
    assert await _count(engine, JOBS) == 0


async def test_past_ten_incidents_an_hour_the_rest_wait_for_their_next_sighting(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    db = Database(engine)
    told = [await _seen(db, clock.now(), subject=f"channel{i}") for i in range(12)]
    assert told.count(True) == alerts.ALERTS_PER_HOUR
    assert await _count(engine, INCIDENTS) == 12

    clock.advance(dt.timedelta(hours=1, seconds=1))
    assert await _seen(db, clock.now(), subject="channel11")  # seen again: told now
    assert not await _seen(db, clock.now(), subject="channel0")  # told already
