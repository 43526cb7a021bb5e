"""Admin alerts (issue 12 item 3): a channel on hold is told to the admins once,
through the alert channel (the group robot here), never through the broken road; its
recovery once too.

The clock starts on Wednesday 2026-11-25 10:00 in Shanghai. alice has three daily
reminders, 10:30, 10:50 and 11:10; WeCom refuses the server's address (60020) until
11:00, when the admin has added it to 企业可信 IP.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sandbox.fake_robot import FakeRobot, add_robot_routes
from bot.sandbox.fake_webhook import serve
from bot.sandbox.fake_wecom import FakeWeCom, create_fake_wecom_app
from bot.sandbox.wecom_side import WeComSide
from bot.scheduling import alert_route, scheduler_for
from scheduler.backup_job import BackupDuty, BackupPlan
from scheduler.clock import FakeClock
from scheduler.tick import Scheduler, tick
from scheduler.watchdog import backup_checked, check_backups, watch_once
from storage.database import Database
from storage.delivery_models import INCIDENTS, JOBS
from storage.repos import backups
from tests.conftest import TEST_SETTINGS, create_test_app, wecom_side
from tests.settings_env import changed

SHANGHAI = ZoneInfo("Asia/Shanghai")
TODAY = dt.date(2026, 11, 25)
OUTBOUND_IP = "203.0.113.7"


@dataclass
class Deployment:
    wecom: WeComSide
    api: FakeWeCom
    robot: FakeRobot
    scheduler: Scheduler
    clock: FakeClock

    async def tick_at(self, hm: str) -> None:
        """Tick at `hm`, then once more a second later (an alert queued by a send
        leaves on the next tick, as it would 30 s later in a running worker)."""
        at = dt.datetime.combine(TODAY, dt.time.fromisoformat(hm), SHANGHAI)
        self.clock.set(at)
        await tick(self.scheduler)
        self.clock.set(at + dt.timedelta(seconds=1))
        await tick(self.scheduler)

    def alerts(self) -> list[str]:
        return [m.content for m in self.robot.messages]


@pytest.fixture
async def deployment(engine: AsyncEngine, clock: FakeClock) -> AsyncIterator[Deployment]:
    s = TEST_SETTINGS
    api = FakeWeCom(
        corp_id=s.wecom.corp_id, secret=s.wecom.secret, agent_id=s.wecom.agent_id, clock=clock.now
    )
    robot = FakeRobot(keys={s.channels.robot_key}, clock=clock.now)
    async with serve(add_robot_routes(create_fake_wecom_app(api), robot), api) as api_base:
        settings = changed(
            s,
            wecom={"api_base": api_base},
            operations={"admins": frozenset({"boss"})},
            channels={"alert_channel": "wecom_robot"},
        )
        app = create_test_app(settings, clock=clock, engine=engine)
        async with TestClient(TestServer(app)) as client:
            wecom = wecom_side(client, settings, clock)
            async with scheduler_for(
                settings, Database(engine), clock, send_timeout=5
            ) as scheduler:
                yield Deployment(wecom, api, robot, scheduler, clock)


async def _remind(d: Deployment, *times: str) -> None:
    for hm in times:
        reply = await d.wecom.send_text("alice", f"提醒 每天 {hm} 吃药")
        assert reply.status == 200


async def test_a_60020_hold_is_told_once_through_the_robot_with_the_ip_to_trust(
    deployment: Deployment,
) -> None:
    d = deployment
    await _remind(d, "10:30", "10:50", "11:10")
    d.api.untrusted_ip = OUTBOUND_IP

    await d.tick_at("10:30")
    [alert] = d.alerts()
    assert "企业可信 IP" in alert
    assert OUTBOUND_IP in alert
    assert "10:30" in alert  # since when
    assert d.robot.messages[0].mentioned == ("boss",)
    assert d.api.messages_to("alice") == []

    await d.tick_at("10:50")  # the hold has run out; WeCom still refuses: same incident
    assert len(d.alerts()) == 1
    assert d.api.messages_to("alice") == []


async def test_recovery_is_told_once_and_the_incident_is_closed(
    deployment: Deployment, engine: AsyncEngine
) -> None:
    d = deployment
    await _remind(d, "10:30", "10:50", "11:10")
    d.api.untrusted_ip = OUTBOUND_IP
    await d.tick_at("10:30")
    await d.tick_at("10:50")

    d.api.untrusted_ip = None  # the admin added the address
    await d.tick_at("11:10")
    await d.tick_at("11:11")

    first, recovery = d.alerts()
    assert "⚠" in first
    assert "恢复" in recovery
    assert [m.content for m in d.api.messages_to("alice")] == ["⏰ 提醒：吃药"]
    async with engine.connect() as conn:
        rows = (await conn.execute(select(INCIDENTS))).all()
        kinds = (
            (await conn.execute(select(JOBS.c.status).where(JOBS.c.payload_kind == "admin_alert")))
            .scalars()
            .all()
        )
    [incident] = rows
    assert (incident.kind, incident.subject) == ("channel_hold", "wecom_app")
    assert incident.open_key is None
    assert incident.alerted_at is not None
    assert incident.recovery_alerted_at is not None
    assert sorted(kinds) == ["accepted", "accepted"]  # recorded like any other job


async def test_a_stopped_scheduler_is_told_once_by_the_watchdog_and_its_return_once(
    deployment: Deployment,
) -> None:
    d = deployment
    await _remind(d, "10:30")  # a rule waits to fire, and no scheduler has ever ticked
    started = d.clock.now()  # 10:00
    d.clock.set(dt.datetime.combine(TODAY, dt.time(10, 9), SHANGHAI))
    assert await watch_once(d.scheduler, watching_since=started) == "stopped"
    assert d.alerts() == []  # not watched for 10 minutes yet: the worker may be starting

    d.clock.set(dt.datetime.combine(TODAY, dt.time(10, 31), SHANGHAI))
    assert await watch_once(d.scheduler, watching_since=started) == "stopped"
    [alert] = d.alerts()
    assert "调度器停了" in alert
    assert "keeper worker" in alert
    d.clock.advance(dt.timedelta(minutes=1))
    assert await watch_once(d.scheduler, watching_since=started) == "stopped"
    assert len(d.alerts()) == 1
    assert d.api.messages_to("alice") == []  # the watchdog sends alerts, never reminders

    await d.tick_at("10:33")  # a worker starts again
    assert await watch_once(d.scheduler, watching_since=started) == "ok"
    assert d.alerts()[1].startswith("✅ keeper：调度器恢复了")
    assert len(d.alerts()) == 2


async def test_admin_status_names_the_alert_road_and_the_open_incident(
    deployment: Deployment,
) -> None:
    d = deployment
    await _remind(d, "10:30")
    d.api.untrusted_ip = OUTBOUND_IP
    await d.tick_at("10:30")

    reply = await d.wecom.send_text("boss", "管理 状态")
    assert reply.status == 200
    assert "告警通道：群机器人" in (reply.text or "")
    assert "⚠ 未解决：企业微信应用暂停发送，从 11-25 10:30 起（已告警）" in (reply.text or "")


async def test_without_an_alert_channel_the_broken_wecom_app_is_not_asked_to_report_itself(
    deployment: Deployment, engine: AsyncEngine
) -> None:
    d = deployment
    fallback = alert_route(changed(TEST_SETTINGS, operations={"admins": frozenset({"boss"})}))
    assert fallback is not None
    assert fallback.fallback
    d.scheduler = dataclasses.replace(d.scheduler, alerts=fallback)
    await _remind(d, "10:30")
    d.api.untrusted_ip = OUTBOUND_IP
    await d.tick_at("10:30")

    assert d.alerts() == []
    assert d.api.messages_to("boss") == []
    async with engine.connect() as conn:
        [incident] = (await conn.execute(select(INCIDENTS))).all()
    assert incident.alerted_at is None  # open, and shown in 管理 状态 instead


async def test_an_overdue_backup_is_told_once_and_its_return_once_through_the_hook(
    deployment: Deployment,
) -> None:
    d = deployment
    last = dt.datetime(2026, 11, 20, 3, 0, tzinfo=dt.UTC)
    for overdue, hm in ((True, "10:05"), (True, "10:06"), (False, "10:07"), (False, "10:08")):
        async with d.scheduler.database.transaction() as session:
            await backup_checked(
                d.scheduler, session, overdue=overdue, last_verified_at=last, now=d.clock.now()
            )
        await d.tick_at(hm)
    first, recovery = d.alerts()
    assert "备份超期" in first
    assert "11-20 11:00" in first  # since the last verified backup
    assert recovery.startswith("✅ keeper：备份恢复正常了（11-20 11:00 起中断")


async def test_a_failure_while_recording_the_incident_never_costs_the_sends_finalisation(
    deployment: Deployment, engine: AsyncEngine, caplog: pytest.LogCaptureFixture
) -> None:
    d = deployment
    assert d.scheduler.alerts is not None
    broken_route = dataclasses.replace(d.scheduler.alerts, timezone="Nowhere/Invalid")
    d.scheduler = dataclasses.replace(d.scheduler, alerts=broken_route)
    await _remind(d, "10:30")
    d.api.untrusted_ip = OUTBOUND_IP
    await d.tick_at("10:30")

    async with engine.connect() as conn:
        statuses = (await conn.execute(select(JOBS.c.status))).scalars().all()
        incidents = (await conn.execute(select(INCIDENTS))).all()
    assert statuses == ["failed"]  # finalised as always, not left processing
    assert incidents == []  # the savepoint undid the half-made incident
    assert "incident not recorded" in caplog.text


async def test_the_tick_opens_a_backup_overdue_incident_from_the_recorded_runs(
    deployment: Deployment, tmp_path: Path
) -> None:
    """`check_backups` on the tick's heartbeat: nothing before any run, nothing while
    the first is being made, an alert once the last verified one is 26 h old, and the
    all-clear once a new one is verified."""
    d = deployment
    plan = BackupPlan(
        database_url="sqlite+aiosqlite://", directory=tmp_path, key="k" * 16,
        at=dt.time(3, 30), zone=SHANGHAI, keep=14,
    )  # fmt: skip
    watching = dataclasses.replace(d.scheduler, backups=BackupDuty(plan))

    minutes = iter(range(5, 60))

    async def check() -> None:
        await d.tick_at(f"10:{next(minutes):02d}")  # moves the clock on a minute
        async with watching.database.transaction() as session:
            await check_backups(watching, session, d.clock.now())
        await d.tick_at(f"10:{next(minutes):02d}")  # sends what the check queued

    await check()  # no run at all: nothing to say
    async with watching.database.transaction() as session:
        first = await backups.claim_day(
            session, day=TODAY, owner="worker:1", now=d.clock.now() - dt.timedelta(hours=2)
        )
    assert first is not None
    await check()  # the first backup is still being made: not overdue
    assert d.alerts() == []

    async with watching.database.transaction() as session:
        await backups.finish(
            session, first, finished_at=d.clock.now() - dt.timedelta(hours=27),
            path="keeper-a.kbak", verified=True, revision="0013", rows=10, size_bytes=1,
            problem="",
        )  # fmt: skip
    await check()
    await check()  # the same incident: told once
    [alert] = d.alerts()
    assert "备份超期" in alert

    async with watching.database.transaction() as session:
        second = await backups.claim_day(
            session, day=TODAY + dt.timedelta(days=1), owner="worker:1", now=d.clock.now()
        )
        assert second is not None
        await backups.finish(
            session, second, finished_at=d.clock.now(), path="keeper-b.kbak", verified=True,
            revision="0013", rows=10, size_bytes=1, problem="",
        )  # fmt: skip
    await check()
    assert len(d.alerts()) == 2
    assert d.alerts()[1].startswith("✅ keeper：备份恢复正常了")
