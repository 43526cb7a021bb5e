"""Two pruners at once (two processes on MariaDB, where transactions really overlap):
nothing is deleted twice, counted twice, or fails."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from scheduler.retention_job import Batch, prune_batch
from storage.database import Database
from storage.delivery_models import ATTEMPTS, JOBS
from storage.engine import create_engine
from storage.models import INBOUND
from storage.repos import retention_runs
from storage.retry import retrying
from tests.integration.retention_seed import Seeder, Try, duty, ids, kept_counts

DAY = dt.timedelta(days=1)
JOBS_SEEDED = 60


@pytest.fixture
async def other_engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    """A second engine on the same database: another process's connections."""
    engine = create_engine(database_url)
    yield engine
    await engine.dispose()


async def _seed_jobs(seed: Seeder) -> None:
    for n in range(JOBS_SEEDED):
        tries = (
            Try(outcome="retry", error_class="transient", code=-1),
            Try(at=dt.timedelta(minutes=1)),
        )
        await seed.job("accepted" if n % 3 else "failed", 200 * DAY, tries=tries[: 1 + n % 2])


async def _drain(engine: AsyncEngine, table: str, before: dt.datetime) -> tuple[int, int]:
    """Prune `table` to the end in batches of 7, as one run would; (rows, attempts)."""
    database, after, pruned, also = Database(engine), 0, 0, 0
    while True:

        async def unit(after: int = after) -> Batch:
            async with database.transaction() as session:
                return await prune_batch(session, table, before=before, after_id=after, limit=7)

        batch = await retrying(unit)
        after, pruned, also = batch.last_id, pruned + batch.pruned, also + batch.also
        if batch.seen < 7:
            return pruned, also


async def test_two_pruners_of_the_same_jobs_delete_and_count_each_once(
    engine: AsyncEngine, other_engine: AsyncEngine, clock: FakeClock
) -> None:
    seed = Seeder(engine=engine, clock=clock)
    await _seed_jobs(seed)
    attempts_seeded = len(await ids(engine, ATTEMPTS))
    before = clock.now() - 180 * DAY

    (a_jobs, a_tries), (b_jobs, b_tries) = await asyncio.gather(
        _drain(engine, "notification_jobs", before),
        _drain(other_engine, "notification_jobs", before),
    )

    assert (a_jobs + b_jobs, a_tries + b_tries) == (JOBS_SEEDED, attempts_seeded)
    assert await ids(engine, JOBS) == set()
    assert await kept_counts(engine) == {"job": JOBS_SEEDED, "attempt": attempts_seeded}


async def test_two_pruners_of_the_same_messages_delete_each_once(
    engine: AsyncEngine, other_engine: AsyncEngine, clock: FakeClock
) -> None:
    seed = Seeder(engine=engine, clock=clock)
    for _ in range(40):
        await seed.message(40 * DAY)
    before = clock.now() - 30 * DAY
    (a, _), (b, _) = await asyncio.gather(
        _drain(engine, "inbound_messages", before), _drain(other_engine, "inbound_messages", before)
    )
    assert a + b == 40
    assert await ids(engine, INBOUND) == set()


async def test_two_schedulers_ticking_at_once_run_the_day_once_and_record_it_exactly(
    engine: AsyncEngine, other_engine: AsyncEngine, clock: FakeClock
) -> None:
    seed = Seeder(engine=engine, clock=clock)
    await _seed_jobs(seed)
    for _ in range(20):
        await seed.message(40 * DAY)
    attempts_seeded = len(await ids(engine, ATTEMPTS))
    one, two = duty(batch=9, per_tick=2), duty(batch=9, per_tick=2)
    databases = Database(engine), Database(other_engine)

    pruned = 0
    for _ in range(30):
        ticks = await asyncio.gather(
            one.step(databases[0], clock, "w:1"), two.step(databases[1], clock, "w:2")
        )
        pruned += sum(ticks)

    assert pruned == JOBS_SEEDED + attempts_seeded + 20
    assert await kept_counts(engine) == {"job": JOBS_SEEDED, "attempt": attempts_seeded}
    async with engine.connect() as session:
        runs = await retention_runs.latest(session)
    assert {name: run.pruned for name, run in runs.items()} == {
        "inbound_messages": 20,
        "notification_jobs": JOBS_SEEDED,
        "delivery_attempts": attempts_seeded,
        "web_links": 0,
        "mp_link_codes": 0,
    }
    assert all(run.finished_at is not None for run in runs.values())
