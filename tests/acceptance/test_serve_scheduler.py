"""`keeper serve` with KEEPER_SCHEDULER=on sends what is due, as a real process."""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path

from bot.sandbox.fake_wecom import run_fake_wecom
from scheduler.core.schedule import Schedule
from storage.engine import create_engine
from storage.repos import rules, users
from tests.acceptance.processes import KEEPER, ArrivalFake, keeper_env
from tests.conftest import TEST_SETTINGS, MigratedSQLite
from tests.ports import free_port

TIMEOUT_S = 60


async def _due_reminder(db_url: str) -> None:
    """A user with a custom reminder that fell due a minute ago."""
    engine = create_engine(db_url)
    now = dt.datetime.now(dt.UTC)
    async with engine.begin() as session:
        user = await users.ensure_and_lock_user(session, "alice", timezone="Asia/Shanghai", now=now)
        once = (now - dt.timedelta(minutes=1)).astimezone(dt.UTC).replace(tzinfo=None)
        await rules.create(
            session,
            user_id=user.id,
            kind="custom",
            policy="at_most_once",
            priority="normal",
            channel="wecom_app",
            now=now,
            next_fire_at=now - dt.timedelta(minutes=1),
            spec=Schedule(once_at=once).to_json(),
            label="测试",
        )
    await engine.dispose()


async def test_serve_with_the_scheduler_on_sends_a_due_reminder_and_stops_cleanly(
    tmp_path: Path, migrated_sqlite: MigratedSQLite
) -> None:
    db_url = await migrated_sqlite(tmp_path / "keeper.db")
    await _due_reminder(db_url)
    s = TEST_SETTINGS
    api = ArrivalFake(corp_id=s.wecom.corp_id, secret=s.wecom.secret, agent_id=s.wecom.agent_id)
    async with run_fake_wecom(api) as api_base:
        env = keeper_env(db_url, api_base, KEEPER_SCHEDULER="on")
        proc = await asyncio.create_subprocess_exec(
            KEEPER,
            "serve",
            "--port",
            str(free_port()),
            env=env,
            cwd=tmp_path,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            await asyncio.wait_for(api.arrived.wait(), TIMEOUT_S)
        finally:
            proc.terminate()
            _, err = await asyncio.wait_for(proc.communicate(), TIMEOUT_S)
    assert [m.content for m in api.messages_to("alice")] == ["⏰ 提醒：测试"]
    assert proc.returncode == 0, err.decode()
    for secret in s.secrets():
        assert secret not in err.decode()
