"""`keeper tick --at` and the demo's reminders, as real processes against the fake API."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import os
import sys
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from bot.app import create_app
from bot.sandbox.fake_wecom import FakeWeCom, run_fake_wecom
from bot.sandbox.wecom_side import WeComSide
from scheduler import messages
from scheduler.clock import FakeClock
from storage.engine import create_engine
from storage.migrate import upgrade
from tests.conftest import TEST_SETTINGS

KEEPER = str(Path(sys.executable).parent / "keeper")


async def _keeper(args: list[str], env: dict[str, str], stdin: bytes = b"") -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        KEEPER,
        *args,
        env=env,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(stdin), timeout=120)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def _env(db_url: str, api_base: str) -> dict[str, str]:
    s = TEST_SETTINGS
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KEEPER_", "WECOM_"))}
    env.update(
        KEEPER_DATABASE_URL=db_url,
        WECOM_CORP_ID=s.corp_id,
        WECOM_AGENT_ID=str(s.agent_id),
        WECOM_SECRET=s.secret,
        WECOM_TOKEN=s.token,
        WECOM_AES_KEY=s.aes_key,
        WECOM_API_BASE=api_base,
    )
    return env


async def test_tick_at_sends_a_due_reminder_once_and_nothing_the_second_time(
    tmp_path: Path, clock: FakeClock
) -> None:
    db_url = f"sqlite+aiosqlite:///{tmp_path / 'keeper.db'}"
    engine = create_engine(db_url)
    await upgrade(engine)
    api = FakeWeCom(
        corp_id=TEST_SETTINGS.corp_id, secret=TEST_SETTINGS.secret, agent_id=TEST_SETTINGS.agent_id
    )
    async with run_fake_wecom(api) as api_base:
        settings = dataclasses.replace(TEST_SETTINGS, api_base=api_base)
        async with TestClient(
            TestServer(create_app(settings, clock=clock, engine=engine))
        ) as client:
            s = settings
            wecom = WeComSide(
                str(client.make_url("")).rstrip("/"),
                s.token,
                s.aes_key,
                s.corp_id,
                s.agent_id,
                clock.now,
                session=client.session,
            )
            assert "下次提醒 12:00" in ((await wecom.send_text("alice", "开启 喝水")).text or "")
        await engine.dispose()
        at = (clock.now() + dt.timedelta(hours=2, minutes=1)).isoformat()
        first = await _keeper(["tick", "--at", at], _env(db_url, api_base))
        second = await _keeper(["tick", "--at", at], _env(db_url, api_base))
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
    code, out, err = await _keeper(
        ["chat", "--db", str(tmp_path / "demo.db")],
        _env("sqlite+aiosqlite:///unused.db", ""),
        script.encode(),
    )
    assert code == 0, err
    assert "下次提醒 11:00" in out
    assert out.count("📨") == 2
    assert "📨 11:00 提醒> 该喝水了" in out
    assert "下次提醒 13:30" in out
    assert "📨 13:30 提醒> 该喝水了" in out
