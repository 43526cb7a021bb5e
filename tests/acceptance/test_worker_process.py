"""`keeper worker` as a process: it sends what is due and stops cleanly on SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import signal
from pathlib import Path
from zoneinfo import ZoneInfo

from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sandbox.fake_wecom import run_fake_wecom
from bot.settings import Settings
from scheduler.clock import FakeClock, SystemClock
from storage.delivery_models import JOBS
from storage.engine import create_engine
from tests.acceptance.processes import KEEPER, ArrivalFake, keeper_env
from tests.conftest import TEST_SETTINGS, MigratedSQLite, create_test_app, wecom_side
from tests.settings_env import changed

ARRIVAL_TIMEOUT_S = 60  # the fake tells the moment the message arrives; bounded


async def test_a_worker_sends_the_due_reminder_and_exits_0_on_sigterm(
    tmp_path: Path, migrated_sqlite: MigratedSQLite
) -> None:
    db_url = await migrated_sqlite(tmp_path / "keeper.db")
    engine = create_engine(db_url)
    # The worker reads the real clock, so the plan is made two hours ago by it, for a
    # user whose local time is now about noon (well inside the 08:00-22:00 day).
    real_now = SystemClock().now()
    clock = FakeClock(real_now - dt.timedelta(hours=2, minutes=1))
    zone = _noon_zone(real_now)
    api = ArrivalFake(
        corp_id=TEST_SETTINGS.wecom.corp_id,
        secret=TEST_SETTINGS.wecom.secret,
        agent_id=TEST_SETTINGS.wecom.agent_id,
    )
    async with run_fake_wecom(api) as api_base:
        settings = changed(
            TEST_SETTINGS, wecom={"api_base": api_base}, operations={"timezone": zone}
        )
        await _enable_water(settings, clock, engine)
        proc = await asyncio.create_subprocess_exec(
            KEEPER,
            "worker",
            env=keeper_env(db_url, api_base),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            with contextlib.suppress(TimeoutError):  # then the asserts below say what is missing
                await asyncio.wait_for(api.arrived.wait(), ARRIVAL_TIMEOUT_S)
            proc.send_signal(signal.SIGTERM)
            code = await asyncio.wait_for(proc.wait(), timeout=20)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
    async with engine.connect() as conn:
        statuses = list((await conn.execute(select(JOBS.c.status))).scalars())
    await engine.dispose()
    assert code == 0
    assert len(api.messages_to("alice")) == 1
    assert statuses == ["accepted"]


async def _enable_water(settings: Settings, clock: FakeClock, engine: AsyncEngine) -> None:
    app = create_test_app(settings, clock=clock, engine=engine)
    async with TestClient(TestServer(app)) as client:
        s = TEST_SETTINGS
        wecom = wecom_side(client, s, clock)
        reply = await wecom.send_text("alice", "开启 喝水")
        assert "喝水提醒已开启" in (reply.text or "")


def _noon_zone(now: dt.datetime) -> ZoneInfo:
    """A fixed-offset zone in which `now` is between 11:00 and 13:00."""
    offset = 12 - now.hour  # -11 .. +12 hours, all of which Etc/GMT zones cover
    return ZoneInfo("Etc/GMT" if offset == 0 else f"Etc/GMT{-offset:+d}")
