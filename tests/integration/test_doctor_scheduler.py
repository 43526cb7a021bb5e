"""`keeper doctor`'s scheduler check on an injected clock, through its main function."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from bot import doctor
from bot.sandbox.fake_wecom import FakeWeCom, run_fake_wecom
from scheduler.clock import FakeClock
from storage.repos import ticks
from tests.acceptance.processes import keeper_env
from tests.conftest import TEST_SETTINGS


@pytest.mark.parametrize(
    ("worker", "ago", "ok"),
    [
        ("host:1", dt.timedelta(seconds=119), True),
        ("host:1", dt.timedelta(seconds=121), False),
        ("tick-at:host:1", dt.timedelta(seconds=1), False),  # a pretend tick is no scheduler
    ],
)
async def test_the_scheduler_is_alive_only_with_a_real_tick_in_the_last_two_minutes(
    database_url: str,
    engine: AsyncEngine,
    clock: FakeClock,
    worker: str,
    ago: dt.timedelta,
    ok: bool,
) -> None:
    async with engine.begin() as session:
        await ticks.heartbeat(session, worker=worker, at=clock.now() - ago, duration_ms=1)
    s = TEST_SETTINGS
    api = FakeWeCom(corp_id=s.wecom.corp_id, secret=s.wecom.secret, agent_id=s.wecom.agent_id)
    api.console.visible_users = {"alice"}
    async with run_fake_wecom(api) as base:
        environ = keeper_env(database_url, base, KEEPER_ADMINS="alice")
        code, table = await doctor.run(doctor.Options(), now=clock.now, environ=environ)
    [line] = [x for x in table.splitlines() if " scheduler " in x]
    assert line.startswith("✓" if ok else "✗"), table
    assert code == (0 if ok else 1)
