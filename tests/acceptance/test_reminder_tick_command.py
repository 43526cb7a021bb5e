"""Event reminders and an outage through real `keeper tick --at` processes.

The user talks to an in-process app on a fake clock (Wednesday 2026-11-25 10:00 in
Shanghai); between conversations the app is closed and each scheduler pass is a
`keeper tick --at ISO` process against the same SQLite file and the fake WeCom API.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.sandbox.fake_wecom import FakeWeCom, run_fake_wecom
from bot.sandbox.wecom_side import FIRST_MSG_ID, WeComSide
from scheduler.clock import FakeClock
from scheduler.core.texts import messages
from storage.engine import create_engine
from tests.acceptance.processes import fake_wecom_api, keeper_env, run_keeper
from tests.conftest import TEST_SETTINGS, MigratedSQLite, create_test_app, wecom_side
from tests.settings_env import changed

SHANGHAI = ZoneInfo("Asia/Shanghai")
TODAY = dt.date(2026, 11, 25)  # the fixture clock's local day


def local(day: int, hm: str) -> dt.datetime:
    """`hm` on the day `day` days after TODAY, in Shanghai."""
    return dt.datetime.combine(TODAY + dt.timedelta(days=day), dt.time.fromisoformat(hm), SHANGHAI)


@dataclasses.dataclass
class Setup:
    db_url: str
    api: FakeWeCom
    api_base: str
    clock: FakeClock
    msg_ids: Iterator[int] = dataclasses.field(
        default_factory=lambda: itertools.count(FIRST_MSG_ID)
    )

    @asynccontextmanager
    async def chat(self) -> AsyncIterator[WeComSide]:
        """An in-process app on the database; closed again before any tick process."""
        engine = create_engine(self.db_url)
        settings = changed(TEST_SETTINGS, wecom={"api_base": self.api_base})
        app = create_test_app(settings, clock=self.clock, engine=engine)
        try:
            async with TestClient(TestServer(app)) as client:
                s = settings
                yield wecom_side(client, s, self.clock)
        finally:
            await engine.dispose()

    async def tick_at(self, day: int, hm: str) -> str:
        """Run `keeper tick --at` as a process; its report line."""
        at = local(day, hm).isoformat()
        code, out, err = await run_keeper(
            ["tick", "--at", at], keeper_env(self.db_url, self.api_base)
        )
        assert code == 0, err
        for value in TEST_SETTINGS.secrets():
            assert value not in out + err
        return out

    async def say(self, wecom: WeComSide, text: str) -> str:
        """Alice says `text`; MsgIds continue across chats (a repeated one is a retry)."""
        reply = await wecom.send_text("alice", text, msg_id=next(self.msg_ids))
        return reply.text or ""

    def sent_to(self, user: str = "alice") -> list[str]:
        return [m.content for m in self.api.messages_to(user)]


@pytest.fixture
async def setup(
    tmp_path: Path, clock: FakeClock, migrated_sqlite: MigratedSQLite
) -> AsyncIterator[Setup]:
    db_url = await migrated_sqlite(tmp_path / "keeper.db")
    api = fake_wecom_api()
    async with run_fake_wecom(api) as api_base:
        yield Setup(db_url=db_url, api=api, api_base=api_base, clock=clock)


async def test_an_event_is_reminded_once_by_tick_processes(setup: Setup) -> None:
    async with setup.chat() as wecom:
        assert "明天 13:30 提醒你" in await setup.say(wecom, "日程 明天 14:00 复诊")
    assert "claimed=0" in await setup.tick_at(1, "13:29")
    assert "accepted=1" in await setup.tick_at(1, "13:30")
    assert "claimed=0" in await setup.tick_at(1, "14:00")
    assert "claimed=0" in await setup.tick_at(2, "13:30")
    assert setup.sent_to() == [messages.event_reminder("复诊", local(1, "14:00"), 30)]


async def test_after_an_outage_one_tick_sends_the_recent_one_late_and_the_user_is_told(
    setup: Setup,
) -> None:
    async with setup.chat() as wecom:
        await setup.say(wecom, "提醒 今天 11:00 交材料")
        await setup.say(wecom, "提醒 每天 12:00 吃药")
        await setup.say(wecom, "日程 今天 13:10 复诊")  # reminded at 12:40
    report = await setup.tick_at(0, "13:00")  # the first pass after three hours down
    assert "expired=2" in report
    assert "accepted=1" in report
    late = messages.event_reminder("复诊", local(0, "13:10"), 10) + "（晚了 20 分钟）"
    assert setup.sent_to() == [late]
    setup.clock.set(local(0, "13:01"))
    async with setup.chat() as wecom:
        told = await setup.say(wecom, "今天")
        again = await setup.say(wecom, "今天")
    missed = "（有 2 条提醒过了时间没能发出：11:00 交材料、12:00 吃药。没有补发。）"
    assert told.splitlines()[-1] == missed
    assert "没能发出" not in again
