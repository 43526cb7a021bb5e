"""Where a user's reminders go (issue 12 item 2): their own channels and the fallback.

The clock starts on Wednesday 2026-11-25 10:00 in Shanghai. WeCom refuses the
server's address (60020) from 10:30; alice has bound her WxPusher UID, which became
her fallback, and has important reminders: they still reach her, through WxPusher,
while the admin hears once through the group robot what to add to 企业可信 IP.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from zoneinfo import ZoneInfo

import pytest
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sandbox.fake_robot import FakeRobot, add_robot_routes
from bot.sandbox.fake_serverchan import FakeServerChan, run_fake_serverchan
from bot.sandbox.fake_webhook import serve
from bot.sandbox.fake_wecom import FakeWeCom, create_fake_wecom_app
from bot.sandbox.fake_wxpusher import FakeWxPusher, run_fake_wxpusher
from bot.sandbox.wecom_side import WeComSide
from bot.scheduling import scheduler_for
from scheduler.clock import FakeClock
from scheduler.tick import Scheduler, tick
from storage.channel_models import USER_CHANNELS
from storage.database import Database
from storage.delivery_models import ATTEMPTS, JOBS
from storage.models import INBOUND
from tests.conftest import TEST_SETTINGS, USER_SENDKEY, create_test_app, wecom_side
from tests.settings_env import changed

SHANGHAI = ZoneInfo("Asia/Shanghai")
TODAY = dt.date(2026, 11, 25)
OUTBOUND_IP = "203.0.113.7"
ALICE_UID = "UID_alice0000000000000000001"


@dataclass
class Deployment:
    wecom: WeComSide
    api: FakeWeCom
    robot: FakeRobot
    wxpusher: FakeWxPusher
    serverchan: FakeServerChan
    scheduler: Scheduler
    clock: FakeClock

    async def tick_at(self, hm: str) -> None:
        """Tick at `hm`, then once more a second later (a fallback or an alert queued by
        a send leaves on the next tick, as it would 30 s later in a running worker)."""
        at = dt.datetime.combine(TODAY, dt.time.fromisoformat(hm), SHANGHAI)
        self.clock.set(at)
        await tick(self.scheduler)
        self.clock.set(at + dt.timedelta(seconds=1))
        await tick(self.scheduler)

    async def say(self, who: str, text: str) -> str:
        reply = await self.wecom.send_text(who, text)
        assert reply.status == 200
        return reply.text or ""

    def alerts(self) -> list[str]:
        return [m.content for m in self.robot.messages]


@pytest.fixture
async def deployment(engine: AsyncEngine, clock: FakeClock) -> AsyncIterator[Deployment]:
    s = TEST_SETTINGS
    api = FakeWeCom(
        corp_id=s.wecom.corp_id, secret=s.wecom.secret, agent_id=s.wecom.agent_id, clock=clock.now
    )
    robot = FakeRobot(keys={s.channels.robot_key}, clock=clock.now)
    pusher = FakeWxPusher(
        app_token=s.channels.wxpusher_app_token, uids={ALICE_UID}, clock=clock.now
    )
    chan = FakeServerChan(sendkeys={USER_SENDKEY}, clock=clock.now)
    async with (
        serve(add_robot_routes(create_fake_wecom_app(api), robot), api) as api_base,
        run_fake_wxpusher(pusher) as wxpusher_base,
        run_fake_serverchan(chan) as serverchan_base,
    ):
        settings = changed(
            s,
            wecom={"api_base": api_base},
            channels={
                "wxpusher_api_base": wxpusher_base,
                "serverchan_api_base": serverchan_base,
                "alert_channel": "wecom_robot",
            },
            operations={"admins": frozenset({"boss"})},
        )
        app = create_test_app(settings, clock=clock, engine=engine)
        async with TestClient(TestServer(app)) as client:
            wecom = wecom_side(client, settings, clock)
            async with scheduler_for(
                settings, Database(engine), clock, send_timeout=5
            ) as scheduler:
                yield Deployment(wecom, api, robot, pusher, chan, scheduler, clock)


async def _attempts(engine: AsyncEngine, label: str) -> list[tuple[int, str, str]]:
    async with engine.connect() as conn:
        job = (
            await conn.execute(
                select(JOBS.c.id).where(JOBS.c.payload.contains(label)).order_by(JOBS.c.id)
            )
        ).scalar_one()
        rows = await conn.execute(
            select(ATTEMPTS.c.attempt_no, ATTEMPTS.c.channel, ATTEMPTS.c.outcome)
            .where(ATTEMPTS.c.job_id == job)
            .order_by(ATTEMPTS.c.attempt_no)
        )
        return [tuple(row) for row in rows]  # type: ignore[misc]


async def test_with_wecom_refusing_the_ip_an_important_reminder_still_reaches_wxpusher(
    deployment: Deployment, engine: AsyncEngine
) -> None:
    d = deployment
    reply = await d.say("alice", f"绑定 WxPusher {ALICE_UID}")
    assert "已绑定 WxPusher（UID_al…01）" in reply
    assert "改走 WxPusher" in reply  # no fallback was set: this one became it
    await d.say("alice", "提醒 每天 10:30 吃药 重要")
    await d.say("alice", "提醒 每天 10:36 复诊 重要")
    await d.say("alice", "提醒 每天 10:37 喝茶")  # not important: at most once, never diverted
    d.api.untrusted_ip = OUTBOUND_IP

    await d.tick_at("10:30")  # 60020: the app is held, the admin told, alice's pill via WxPusher
    await d.tick_at("10:37")  # still held: 复诊 goes to WxPusher at once, 喝茶 waits

    [alert] = d.alerts()
    assert "企业可信 IP" in alert
    assert OUTBOUND_IP in alert
    assert d.api.messages_to("alice") == []
    contents = [m.content for m in d.wxpusher.messages]
    assert len(contents) == 2
    assert "吃药" in contents[0]
    assert "复诊" in contents[1]
    assert {m.uid for m in d.wxpusher.messages} == {ALICE_UID}
    assert await _attempts(engine, "吃药") == [
        (1, "wecom_app", "failed"),
        (2, "wxpusher", "accepted"),
    ]
    assert await _attempts(engine, "复诊") == [
        (1, "wecom_app", "failed"),
        (2, "wxpusher", "accepted"),
    ]
    async with engine.connect() as conn:
        tea = (
            await conn.execute(
                select(JOBS.c.status, JOBS.c.channel).where(
                    JOBS.c.payload_kind == "custom", JOBS.c.policy == "at_most_once"
                )
            )
        ).all()
    assert [tuple(t) for t in tea] == [("retry_wait", "wecom_app")]  # waits for the app


async def test_a_primary_personal_wechat_takes_reminders_and_the_app_becomes_the_fallback(
    deployment: Deployment, engine: AsyncEngine
) -> None:
    d = deployment
    await d.say("alice", f"绑定 WxPusher {ALICE_UID}")
    reply = await d.say("alice", "设置 渠道 微信")
    assert "提醒以后走 WxPusher" in reply
    assert "备用通道：企业微信应用" in reply
    await d.say("alice", "提醒 每天 10:30 吃药 重要")

    await d.tick_at("10:30")

    assert [m.uid for m in d.wxpusher.messages] == [ALICE_UID]
    assert d.api.messages_to("alice") == []
    shown = await d.say("alice", "设置 渠道")
    assert "WxPusher（UID_al…01）：主通道，正常（最近一次已送出）" in shown
    assert "企业微信应用：备用" in shown


async def test_a_bound_sendkey_is_sealed_and_never_shown_logged_or_stored_in_plain(
    deployment: Deployment, engine: AsyncEngine, caplog: pytest.LogCaptureFixture
) -> None:
    d = deployment
    caplog.set_level(logging.DEBUG)
    replies = [await d.say("alice", f"绑定 Server酱 {USER_SENDKEY}")]
    replies.append(await d.say("alice", "设置 渠道 微信"))
    await d.say("alice", "提醒 每天 10:30 吃药 重要")
    await d.tick_at("10:30")
    replies.append(await d.say("alice", "设置 渠道"))

    [push] = d.serverchan.pushes
    assert push.sendkey == USER_SENDKEY  # the key did its work
    assert "吃药" in push.title
    assert "SCT20…xy" in replies[0]
    async with engine.connect() as conn:
        stored = [
            str(v)
            for table in (USER_CHANNELS, INBOUND, JOBS, ATTEMPTS)
            for row in (await conn.execute(select(table))).all()
            for v in row
        ]
    assert not [v for v in stored if USER_SENDKEY in v]
    assert not [r for r in replies if USER_SENDKEY in r]
    assert USER_SENDKEY not in caplog.text
    assert "Server酱（SCT20…xy）：主通道，正常" in replies[-1]


async def test_a_sendkey_that_no_longer_opens_fails_for_that_user_and_goes_to_the_fallback(
    deployment: Deployment, engine: AsyncEngine
) -> None:
    d = deployment
    await d.say("alice", f"绑定 Server酱 {USER_SENDKEY}")
    await d.say("alice", "设置 渠道 微信")  # the app becomes the fallback
    await d.say("alice", "提醒 每天 10:30 吃药 重要")
    async with engine.begin() as conn:  # as if WECOM_SECRET had been reset
        await conn.execute(
            USER_CHANNELS.update()
            .where(USER_CHANNELS.c.channel == "serverchan_user")
            .values(receiver="v1." + "A" * 64)
        )

    await d.tick_at("10:30")

    assert d.serverchan.pushes == []
    assert [m.content for m in d.api.messages_to("alice")] == ["⏰ 提醒：吃药"]
    assert await _attempts(engine, "吃药") == [
        (1, "serverchan_user", "failed"),
        (2, "wecom_app", "accepted"),
    ]
    shown = await d.say("alice", "设置 渠道")
    assert "SendKey 读不出来了" in shown
