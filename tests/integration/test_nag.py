"""Nags on real databases (SQLite and MariaDB) with the tick, the fake clock and the
fake WeCom API: repeats at the interval until the answer, the cap's stop line, none
after the answer, none in quiet time, and no double under two racing workers.

The clock starts on Wednesday 2026-11-25 10:00 in Shanghai (02:00 UTC); each nag
starts at 11:00 local (03:00 UTC).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

import services.nag
import services.rules
from bot.sandbox.fake_wecom import FakeWeCom, run_fake_wecom
from bot.scheduling import scheduler_for
from scheduler.clock import FakeClock
from scheduler.core import nag
from scheduler.tick import Scheduler, tick
from storage.database import Database
from storage.delivery_models import JOBS
from storage.engine import create_engine
from storage.records import RuleRecord
from storage.repos import rules, users
from tests.conftest import TEST_SETTINGS
from tests.settings_env import changed

START = dt.datetime(2026, 11, 25, 3, 0, tzinfo=dt.UTC)
MINUTE = dt.timedelta(minutes=1)


@contextlib.asynccontextmanager
async def fake_api(clock: FakeClock) -> AsyncIterator[tuple[FakeWeCom, str]]:
    api = FakeWeCom(
        corp_id=TEST_SETTINGS.wecom.corp_id,
        secret=TEST_SETTINGS.wecom.secret,
        agent_id=TEST_SETTINGS.wecom.agent_id,
        clock=clock.now,
    )
    async with run_fake_wecom(api) as base:
        yield api, base


@contextlib.asynccontextmanager
async def worker(
    engine: AsyncEngine, base: str, clock: FakeClock, owner: str = "w0"
) -> AsyncIterator[Scheduler]:
    settings = changed(TEST_SETTINGS, wecom={"api_base": base})
    async with scheduler_for(
        settings, Database(engine), clock, owner=owner, send_timeout=5
    ) as scheduler:
        yield scheduler


async def a_nag(
    engine: AsyncEngine, clock: FakeClock, *, every: int = 10, cap: int = 6, user: str = "alice"
) -> RuleRecord:
    async with Database(engine).transaction() as session:
        found = await users.ensure_and_lock_user(
            session, user, timezone="Asia/Shanghai", now=clock.now()
        )
        spec = nag.NagSpec(start=START, every=every, cap=cap)
        return await services.nag.add(
            session, found.id, title="交材料", spec=spec, important=False, now=clock.now()
        )


async def run_minutes(workers: list[Scheduler], clock: FakeClock, until: dt.datetime) -> None:
    """Tick every worker together once a minute (as `keeper worker`s would) up to `until`."""
    while clock.now() < until:
        clock.advance(MINUTE)
        await asyncio.gather(*(tick(w) for w in workers))


async def answer(engine: AsyncEngine, clock: FakeClock, user: str = "alice") -> bool:
    async with Database(engine).transaction() as session:
        found = await users.ensure_and_lock_user(
            session, user, timezone="Asia/Shanghai", now=clock.now()
        )
        saw = await services.nag.last_sent(session, found.id, clock.now())
        return len(saw) == 1 and await services.nag.answer(session, saw[0], clock.now())


def sent_minutes(api: FakeWeCom) -> list[int]:
    """Minutes after START at which the fake API took a message for alice."""
    return [int((m.received_at - START) / MINUTE) for m in api.messages_to("alice")]


async def test_a_nag_repeats_at_its_interval_until_the_answer_and_never_after(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    rule = await a_nag(engine, clock)
    async with fake_api(clock) as (api, base), worker(engine, base, clock) as w:
        await run_minutes([w], clock, START + 25 * MINUTE)
        assert sent_minutes(api) == [0, 10, 20]
        assert await answer(engine, clock)
        await run_minutes([w], clock, START + 90 * MINUTE)
    assert sent_minutes(api) == [0, 10, 20]
    async with Database(engine).transaction() as session:
        done = await rules.get(session, rule.id)
        assert done is not None
        assert (done.status, done.next_fire_at) == ("done", None)
    assert await answer(engine, clock) is False  # nothing is nagging any more


async def test_a_nag_stops_at_its_cap_with_the_stop_line(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    await a_nag(engine, clock, every=5, cap=4)
    async with fake_api(clock) as (api, base), worker(engine, base, clock) as w:
        await run_minutes([w], clock, START + 60 * MINUTE)
    assert sent_minutes(api) == [0, 5, 10, 15]
    texts = [m.content for m in api.messages_to("alice")]
    assert texts[-1] == "⏰ 最后一次提醒：交材料，之后不再提醒"
    assert all("最后一次" not in t for t in texts[:-1])


async def test_no_repeat_goes_out_in_quiet_time(engine: AsyncEngine, clock: FakeClock) -> None:
    rule = await a_nag(engine, clock)
    async with Database(engine).transaction() as session:
        await users.update_user(session, rule.user_id, quiet_until=START + 25 * MINUTE)
    async with fake_api(clock) as (api, base), worker(engine, base, clock) as w:
        await run_minutes([w], clock, START + 60 * MINUTE)
    # nothing seen yet: the nag starts over when quiet time ends, with its full cap
    assert sent_minutes(api) == [25, 35, 45, 55]


async def test_after_an_outage_only_the_latest_repeat_goes_out(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    await a_nag(engine, clock)
    async with fake_api(clock) as (api, base), worker(engine, base, clock) as w:
        clock.set(START + 34 * MINUTE)  # down from before the start until 11:34
        await tick(w)
        assert sent_minutes(api) == [34]  # the 11:30 repeat; 11:00-11:20 superseded
        assert "再次提醒" in api.messages_to("alice")[0].content  # no slot count: 1 seen


@pytest.mark.parametrize(
    "database_url", [pytest.param("mariadb", marks=[pytest.mark.mariadb])], indirect=True
)
async def test_two_racing_workers_never_send_a_repeat_twice(
    database_url: str, engine: AsyncEngine, clock: FakeClock
) -> None:
    """Two schedulers on engines of their own (as two `keeper worker` processes) tick
    at the same instants: the unique slot key and the claim keep each repeat single."""
    await a_nag(engine, clock)
    second = create_engine(database_url)
    try:
        async with (
            fake_api(clock) as (api, base),
            worker(engine, base, clock, owner="w1") as w1,
            worker(second, base, clock, owner="w2") as w2,
        ):
            await run_minutes([w1, w2], clock, START + 70 * MINUTE)
    finally:
        await second.dispose()
    assert sent_minutes(api) == [0, 10, 20, 30, 40, 50]
    async with engine.connect() as conn:
        per_slot = await conn.execute(
            select(JOBS.c.scheduled_slot_utc, func.count()).group_by(JOBS.c.scheduled_slot_utc)
        )
        assert sorted(count for _, count in per_slot) == [1] * 6


async def test_replan_keeps_a_pause_that_landed_after_the_status_was_read(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    stale = await a_nag(engine, clock)  # read while active
    later = START + dt.timedelta(days=1)
    async with Database(engine).transaction() as session:
        assert await services.rules.pause(session, stale, clock.now())
    async with Database(engine).transaction() as session:
        spec = nag.NagSpec(start=later).to_json()
        assert await services.rules.replan(
            session, stale, clock.now(), note="task moved", spec=spec, next_fire_at=later
        )
    async with Database(engine).transaction() as session:
        found = await rules.get(session, stale.id)
    assert found is not None
    assert (found.status, found.next_fire_at) == ("paused", None)  # still paused
    assert found.spec == spec
