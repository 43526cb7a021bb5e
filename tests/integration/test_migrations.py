"""The migrations build exactly the schema the models describe, on every engine."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.scheduling import all_kinds
from scheduler.clock import FakeClock
from scheduler.tick import Scheduler, recover_leases
from storage.database import Database
from storage.engine import create_engine
from storage.migrate import alembic_config, current_revision, upgrade
from storage.repos import jobs
from storage.repos.jobs import NewJob
from storage.schema import metadata
from tests.integration.conftest import new_rule, new_user


async def test_a_migrated_database_is_at_head(engine: AsyncEngine) -> None:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    assert await current_revision(engine) == head


async def test_the_migrations_match_the_models(engine: AsyncEngine) -> None:
    def _diff(connection: Connection) -> list[object]:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return list(compare_metadata(context, metadata))

    async with engine.connect() as conn:
        diff = await conn.run_sync(_diff)
    assert diff == []


async def test_a_job_an_older_worker_was_sending_at_the_upgrade_is_never_released(
    tmp_path: Path, clock: FakeClock
) -> None:
    """Migration 0004: a job `processing` under the old code has no send_started_at; it
    may have gone out, so its lease expiry settles it by its policy, never resends it."""
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'keeper.db'}")
    await upgrade(engine, "0003")
    user = await new_user(engine, clock)
    rule = await new_rule(engine, clock, user)
    async with engine.begin() as session:
        job_id = await jobs.materialise(
            session,
            NewJob(
                user_id=user, rule_id=rule, slot=clock.now(), policy="at_most_once",
                priority="normal", channel="wecom_app", recipient="zhangsan",
                payload_kind="custom",
            ),
            now=clock.now(),
        )  # fmt: skip
        await session.execute(
            text(
                "UPDATE notification_jobs SET status = 'processing', lease_owner = 'old:1', "
                "attempts = 1, lease_expires_at = :expiry WHERE id = :id"
            ),
            {"expiry": clock.now() + dt.timedelta(minutes=2), "id": job_id},
        )
    await upgrade(engine)
    clock.advance(dt.timedelta(minutes=5))
    scheduler = Scheduler(
        database=Database(engine), kinds=all_kinds(), channels={}, clock=clock, owner="new:1"
    )
    await recover_leases(scheduler, clock.now())
    async with engine.begin() as session:
        job = await jobs.get(session, job_id)
    await engine.dispose()
    assert job is not None
    assert job.status == "unknown"
