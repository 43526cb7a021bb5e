"""The migrations build exactly the schema the models describe, on every engine."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.scheduling import all_kinds
from scheduler.clock import FakeClock
from scheduler.tick import Scheduler, recover_leases
from storage.database import Database
from storage.engine import create_engine
from storage.migrate import alembic_config, current_revision, head_revision, is_current, upgrade
from storage.repos import job_claims
from storage.schema import metadata

# These tests are about the migrations: each runs them itself, on every engine.
pytestmark = pytest.mark.migrated_per_test


async def test_a_migrated_database_is_at_head(engine: AsyncEngine) -> None:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    assert await current_revision(engine) == head
    assert await is_current(engine)


def test_the_head_read_from_the_scripts_is_alembics_head() -> None:
    """`keeper serve` knows the newest revision without loading Alembic: the same one."""
    assert head_revision() == ScriptDirectory.from_config(alembic_config()).get_current_head()


async def test_an_empty_or_older_database_is_not_current(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'keeper.db'}")
    try:
        assert await current_revision(engine) is None
        assert not await is_current(engine)
        await upgrade(engine, "0003")
        assert await current_revision(engine) == "0003"
        assert not await is_current(engine)
    finally:
        await engine.dispose()


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
    now = clock.now().replace(tzinfo=None)  # as the 0003 schema stores UTC instants
    async with engine.begin() as session:  # the old release's rows, as its code wrote them
        await session.execute(
            text(
                "INSERT INTO users (id, wecom_user_id, timezone, created_at) "
                "VALUES (1, 'zhangsan', 'Asia/Shanghai', :now)"
            ),
            {"now": now},
        )
        await session.execute(
            text(
                "INSERT INTO reminder_rules (id, user_id, kind, status, policy, priority, "
                "channel, spec, label, created_at, updated_at) VALUES (1, 1, 'custom', "
                "'active', 'at_most_once', 'normal', 'wecom_app', '', '吃药', :now, :now)"
            ),
            {"now": now},
        )
        await session.execute(
            text(
                "INSERT INTO notification_jobs (id, user_id, rule_id, scheduled_slot_utc, "
                "status, policy, priority, channel, recipient, payload_kind, payload, "
                "attempts, next_attempt_at, lease_owner, lease_expires_at, created_at, "
                "updated_at, outcome_note) VALUES (1, 1, 1, :now, 'processing', "
                "'at_most_once', 'normal', 'wecom_app', 'zhangsan', 'custom', '', 1, :now, "
                "'old:1', :expiry, :now, :now, '')"
            ),
            {"now": now, "expiry": now + dt.timedelta(minutes=2)},
        )
    job_id = 1
    await upgrade(engine)
    clock.advance(dt.timedelta(minutes=5))
    scheduler = Scheduler(
        database=Database(engine), kinds=all_kinds(), channels={}, clock=clock, owner="new:1"
    )
    await recover_leases(scheduler, clock.now())
    async with engine.begin() as session:
        job = await job_claims.get(session, job_id)
    await engine.dispose()
    assert job is not None
    assert job.status == "unknown"


async def test_migration_0008_drops_water_actions_and_its_downgrade_brings_it_back(
    engine: AsyncEngine,
) -> None:
    def _tables(connection: Connection) -> set[str]:
        return set(inspect(connection).get_table_names())

    def _downgrade(connection: Connection) -> None:
        command.downgrade(alembic_config(connection), "0007")

    async with engine.connect() as conn:
        at_head = await conn.run_sync(_tables)
    async with engine.begin() as conn:
        await conn.run_sync(_downgrade)
    async with engine.connect() as conn:
        before = await conn.run_sync(_tables)
    await upgrade(engine)
    async with engine.connect() as conn:
        again = await conn.run_sync(_tables)

    later = {"web_links", "budgets", "backup_runs", "incidents", "user_channels"}  # after 0008
    later |= {"mp_identities", "mp_grant_answers", "mp_actions", "mp_link_codes"}  # 0016
    later |= {"retention_runs", "delivery_day_counts"}  # 0017
    later |= {"calendar_feeds"}  # 0021
    later |= {"device_checks"}  # 0022
    assert "water_actions" not in at_head
    assert "water_actions" in before
    assert before - {"water_actions"} == at_head - later
    assert again == at_head
