"""The daily retention run on real databases: what goes, what stays, what is counted."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from sqlalchemy import update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from scheduler.core.retention_policy import Periods
from storage.database import Database
from storage.delivery_models import ATTEMPTS, JOBS
from storage.engine import create_engine
from storage.models import INBOUND, USERS
from storage.mp_models import MP_LINK_CODES
from storage.repos import admin, attempts, inbound, retention_runs
from storage.web_models import WEB_LINKS
from tests.integration.retention_seed import Seeder, Try, duty, ids, kept_counts, run_to_end

DAY = dt.timedelta(days=1)
OLD, RECENT = 200 * DAY, 100 * DAY  # against the jobs' 180 days


async def test_only_final_jobs_that_ended_before_the_cutoff_go_with_their_attempts(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    seed = Seeder(engine=engine, clock=clock)
    gone = {
        status: await seed.job(status, OLD)
        for status in ("accepted", "failed", "suppressed", "cancelled", "expired")
    }
    gone["settled unknown"] = await seed.job(
        "unknown", OLD, tries=(Try(outcome="unknown", settled="received"),)
    )
    kept = {
        "old pending": await seed.job("pending", OLD, tries=(), finished=False),
        "old retry_wait": await seed.job(
            "retry_wait", OLD, tries=(Try(outcome="retry"),), finished=False
        ),
        "old processing": await seed.job("processing", OLD, tries=(), finished=False),
        "unsettled unknown": await seed.job("unknown", OLD, tries=(Try(outcome="unknown"),)),
        "recent accepted": await seed.job("accepted", RECENT),
        "recent expired": await seed.job("expired", RECENT, tries=(Try(outcome="expired"),)),
    }
    silent = await seed.job("expired", OLD, user="lisi", tries=(Try(outcome="expired"),))
    async with engine.begin() as session:  # lisi has not written since a reminder expired
        await session.execute(
            update(USERS)
            .where(USERS.c.wecom_user_id == "lisi")
            .values(missed_since=clock.now() - OLD)
        )

    await run_to_end(duty(), engine, clock)

    left = await ids(engine, JOBS)
    assert not set(gone.values()) & left
    assert set(kept.values()) | {silent} <= left
    assert await ids(engine, ATTEMPTS) == await _attempts_of(engine, left)


async def _attempts_of(engine: AsyncEngine, job_ids: set[int]) -> set[int]:
    async with engine.connect() as conn:
        rows = await conn.execute(ATTEMPTS.select().where(ATTEMPTS.c.job_id.in_(job_ids)))
        return {r.id for r in rows}


async def test_the_counts_kept_equal_what_was_deleted_and_no_admin_total_changes(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    seed = Seeder(engine=engine, clock=clock)
    retry = Try(outcome="retry", error_class="transient", code=-1)
    for n in range(3):
        await seed.job("accepted", OLD + n * DAY, tries=(retry, Try(at=dt.timedelta(minutes=2))))
        await seed.job(
            "failed", OLD, tries=(Try(outcome="failed", error_class="permanent", code=81013),)
        )
        await seed.job("expired", OLD, tries=(Try(outcome="expired"),), kind="water")
    await seed.job("accepted", RECENT)
    # A channel whose whole history is pruned: a success, then two failures on later days.
    await seed.job("accepted", OLD + 3 * DAY, channel="wxpusher")
    for n in (1, 2):
        fail = Try(outcome="failed", error_class="config", code=1001)
        await seed.job(
            "failed", OLD + 3 * DAY - n * dt.timedelta(hours=30), channel="wxpusher", tries=(fail,)
        )
    await seed.job("pending", RECENT, tries=(), finished=False, channel="wxpusher")
    totals_before = await _totals(engine)
    jobs_before, attempts_before = await ids(engine, JOBS), await ids(engine, ATTEMPTS)

    await run_to_end(duty(), engine, clock)

    jobs_gone = len(jobs_before - await ids(engine, JOBS))
    attempts_gone = len(attempts_before - await ids(engine, ATTEMPTS))
    assert (jobs_gone, attempts_gone) == (12, 15)
    assert await kept_counts(engine) == {"job": jobs_gone, "attempt": attempts_gone}
    assert await _totals(engine) == totals_before
    async with engine.connect() as session:
        runs = await retention_runs.latest(session)
    assert runs["notification_jobs"].pruned == jobs_gone
    assert runs["delivery_attempts"].pruned == attempts_gone


async def _totals(engine: AsyncEngine) -> tuple[object, ...]:
    async with engine.connect() as session:
        return (
            await admin.channel_stats(session),
            await admin.failure_causes(session),
            await admin.count_by_kind(session),
            await attempts.count_by_channel_outcome(session),
        )


async def test_old_messages_go_and_undo_still_reaches_the_newest_kept_one(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    seed = Seeder(engine=engine, clock=clock)
    old = [await seed.message(31 * DAY), await seed.message(45 * DAY)]
    recent = [await seed.message(29 * DAY), await seed.message(dt.timedelta(minutes=5))]
    async with engine.begin() as session:
        for message_id in (*old, *recent):
            await session.execute(
                update(INBOUND)
                .where(INBOUND.c.id == message_id)
                .values(effect_kind="weight", effect_id=message_id)
            )

    await run_to_end(duty(), engine, clock)

    assert await ids(engine, INBOUND) == set(recent)
    user_id, _ = await seed.user("zhangsan")
    async with engine.connect() as session:
        last = await inbound.last_undoable(session, user_id)
    assert last is not None
    assert last.message_id == recent[-1]


async def test_used_or_expired_links_and_codes_go_after_their_period_and_live_ones_stay(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    seed = Seeder(engine=engine, clock=clock)
    kept = {}
    for table in ("web_links", "mp_link_codes"):
        await seed.link(table, 8 * DAY, used=True)  # used, and expired, over a week ago
        await seed.link(table, 8 * DAY, used=False)  # never used, expired over a week ago
        kept[table] = {
            await seed.link(table, 6 * DAY, used=True),
            await seed.link(table, 6 * DAY, used=False),
            await seed.link(table, dt.timedelta(minutes=1), used=False),  # still good
        }

    await run_to_end(duty(), engine, clock)

    assert await ids(engine, WEB_LINKS) == kept["web_links"]
    assert await ids(engine, MP_LINK_CODES) == kept["mp_link_codes"]


async def test_a_tick_deletes_at_most_its_batches_and_the_run_goes_on_next_tick(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    seed = Seeder(engine=engine, clock=clock)
    for _ in range(7):
        await seed.message(40 * DAY)
    d, database = duty(batch=3, per_tick=1), Database(engine)

    per_tick = [await d.step(database, clock, "w:1") for _ in range(4)]

    assert per_tick == [3, 3, 1, 0]
    assert await ids(engine, INBOUND) == set()
    async with engine.connect() as session:
        run = (await retention_runs.latest(session))["inbound_messages"]
    assert (run.pruned, run.finished_at) == (7, clock.now())


async def test_the_run_is_once_a_day_and_the_figures_show_what_it_did(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    seed = Seeder(engine=engine, clock=clock)
    await seed.message(40 * DAY)
    await seed.message(2 * DAY)
    d = duty()
    assert await run_to_end(d, engine, clock) == 1
    late = await seed.message(40 * DAY)  # old, but after the day's run (a restore, say)
    clock.advance(dt.timedelta(hours=3))
    assert await d.step(Database(engine), clock, "w:1") == 0
    assert late in await ids(engine, INBOUND)

    async with engine.connect() as session:
        figures = {f.table_name: f for f in await retention_runs.figures(session)}
    messages = figures["inbound_messages"]
    assert (messages.kept, messages.oldest_at) == (2, clock.now() - dt.timedelta(hours=3) - 2 * DAY)
    assert messages.last_run is not None
    assert (messages.last_run.pruned, messages.last_run.keep_days) == (1, 30)
    # the day's slot is 04:30 in Shanghai (20:30 UTC the day before); 30 days before it
    assert messages.last_run.cutoff == dt.datetime(2026, 10, 25, 20, 30, tzinfo=dt.UTC)
    assert set(figures) == {
        "inbound_messages", "notification_jobs", "delivery_attempts", "web_links", "mp_link_codes"
    }  # fmt: skip

    clock.set(dt.datetime(2026, 11, 25, 20, 31, tzinfo=dt.UTC))  # the next day's 04:30 passed
    assert await run_to_end(d, engine, clock) == 1
    assert late not in await ids(engine, INBOUND)


async def test_a_second_scheduler_finds_the_day_taken_and_prunes_nothing(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    seed = Seeder(engine=engine, clock=clock)
    for _ in range(4):
        await seed.message(40 * DAY)
    first, second, database = duty(batch=2, per_tick=1), duty(batch=2, per_tick=1), Database(engine)
    assert await first.step(database, clock, "w:1") == 2
    assert await second.step(database, clock, "w:2") == 0
    assert await first.step(database, clock, "w:1") == 2


async def test_a_stopped_schedulers_run_is_taken_over_after_the_lease(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    """`keeper tick` from cron runs one pass and exits: the next one goes on."""
    seed = Seeder(engine=engine, clock=clock)
    for _ in range(5):
        await seed.message(40 * DAY)
    database = Database(engine)
    assert await duty(batch=2, per_tick=1).step(database, clock, "cron:1") == 2
    clock.advance(dt.timedelta(minutes=1))
    assert await duty(batch=2, per_tick=1).step(database, clock, "cron:2") == 0  # still held
    clock.advance(dt.timedelta(minutes=5))
    assert await run_to_end(duty(batch=2, per_tick=1), engine, clock, owner="cron:3") == 3
    async with engine.connect() as session:
        run = (await retention_runs.latest(session))["inbound_messages"]
    assert (run.pruned, run.claimed_by) == (5, "cron:3")


async def test_shorter_periods_from_the_settings_are_what_the_run_uses(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    seed = Seeder(engine=engine, clock=clock)
    message = await seed.message(10 * DAY)
    job = await seed.job("accepted", 20 * DAY)
    await run_to_end(duty(Periods(messages=7, jobs=14, links=1)), engine, clock)
    assert message not in await ids(engine, INBOUND)
    assert job not in await ids(engine, JOBS)


async def test_a_run_that_could_not_be_opened_is_tried_again_at_the_next_tick(
    engine: AsyncEngine, clock: FakeClock, tmp_path: Path
) -> None:
    seed = Seeder(engine=engine, clock=clock)
    await seed.message(40 * DAY)
    d = duty()
    unreachable = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'no such dir' / 'k.db'}")
    try:
        with pytest.raises(DBAPIError):
            await d.step(Database(unreachable), clock, "w:1")
    finally:
        await unreachable.dispose()
    assert await d.step(Database(engine), clock, "w:1") == 1
