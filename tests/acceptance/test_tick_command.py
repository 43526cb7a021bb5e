"""`keeper tick --at` and the demo's reminders, as real processes against the fake API."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from bot.sandbox.fake_wecom import FakeWeCom, run_fake_wecom
from scheduler.clock import FakeClock
from scheduler.core.texts import messages
from storage.engine import create_engine
from tests.acceptance.processes import keeper_env, run_keeper
from tests.conftest import TEST_SETTINGS, MigratedSQLite, create_test_app, wecom_side
from tests.settings_env import changed


async def test_tick_at_sends_a_due_reminder_once_and_nothing_the_second_time(
    tmp_path: Path, clock: FakeClock, migrated_sqlite: MigratedSQLite
) -> None:
    db_url = await migrated_sqlite(tmp_path / "keeper.db")
    engine = create_engine(db_url)
    api = FakeWeCom(
        corp_id=TEST_SETTINGS.wecom.corp_id,
        secret=TEST_SETTINGS.wecom.secret,
        agent_id=TEST_SETTINGS.wecom.agent_id,
    )
    async with run_fake_wecom(api) as api_base:
        settings = changed(TEST_SETTINGS, wecom={"api_base": api_base})
        async with TestClient(
            TestServer(create_test_app(settings, clock=clock, engine=engine))
        ) as client:
            s = settings
            wecom = wecom_side(client, s, clock)
            assert "下次提醒 12:00" in ((await wecom.send_text("alice", "开启 喝水")).text or "")
        await engine.dispose()
        at = (clock.now() + dt.timedelta(hours=2, minutes=1)).isoformat()
        first = await run_keeper(["tick", "--at", at], keeper_env(db_url, api_base))
        second = await run_keeper(["tick", "--at", at], keeper_env(db_url, api_base))
    assert first[0] == 0, first[2]
    assert "accepted=1" in first[1]
    assert second[0] == 0, second[2]
    assert "claimed=0" in second[1]
    assert [m.content for m in api.messages_to("alice")] == [messages.WATER_REMINDER]
    for value in TEST_SETTINGS.secrets():
        assert value not in first[2] + second[2]


async def test_the_demo_shows_a_reminder_arriving_and_a_check_in_scheduling_the_next(
    tmp_path: Path,
) -> None:
    script = (
        "/time 2030-01-01T09:00\n开启 喝水\n/time 2030-01-01T11:30\n喝水\n/time 2030-01-01T14:00\n"
    )
    code, out, err = await run_keeper(
        ["chat", "--db", str(tmp_path / "demo.db")],
        keeper_env("sqlite+aiosqlite:///unused.db", ""),
        stdin=script.encode(),
    )
    assert code == 0, err
    assert "下次提醒 11:00" in out
    assert out.count("📨") == 2
    assert "📨 11:00 提醒> 该喝水了" in out
    assert "下次提醒 13:30" in out
    assert "📨 13:30 提醒> 该喝水了" in out


async def test_tick_from_cron_makes_the_days_backup_and_waits_for_it(
    tmp_path: Path, migrated_sqlite: MigratedSQLite
) -> None:
    """A cron-driven deployment (`keeper tick` every minute) gets its daily backup too:
    the process waits for the backup it started, then exits; the next tick does not
    make a second one the same day. The key is in no output."""
    db_url = await migrated_sqlite(tmp_path / "keeper.db")
    key = "cron tick backup passphrase 01"
    backups_dir = tmp_path / "backups"
    at = "2026-12-01T03:31+08:00"
    api = FakeWeCom(
        corp_id=TEST_SETTINGS.wecom.corp_id,
        secret=TEST_SETTINGS.wecom.secret,
        agent_id=TEST_SETTINGS.wecom.agent_id,
    )
    async with run_fake_wecom(api) as api_base:
        env = keeper_env(
            db_url, api_base, KEEPER_BACKUP_DIR=str(backups_dir), KEEPER_BACKUP_KEY=key
        )
        first = await run_keeper(["tick", "--at", at], env)
        second = await run_keeper(["tick", "--at", at], env)
    assert first[0] == 0, first[2]
    assert second[0] == 0, second[2]
    assert first[1].rstrip().endswith(" backup=ran")
    assert "backup=" not in second[1]
    assert sorted(p.name for p in backups_dir.iterdir()) == ["keeper-20261130T193100Z.kbak"]
    assert key not in first[1] + first[2] + second[1] + second[2]
