"""`/metrics`: Prometheus text on its own local port, never on the public one."""

from __future__ import annotations

import datetime as dt

from aiohttp import ClientSession
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy.ext.asyncio import AsyncEngine

from bot import keys
from bot.app import create_app
from scheduler.clock import FakeClock
from storage.repos import backups
from tests.conftest import TEST_SETTINGS, create_test_app, wecom_side
from tests.settings_env import changed


async def test_metrics_are_served_on_their_own_port_with_every_family(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    settings = changed(TEST_SETTINGS, operations={"metrics_port": 0})  # 0: any free port
    app = create_test_app(settings, clock=clock, engine=engine)
    async with TestClient(TestServer(app)) as client:
        wecom = wecom_side(client, settings, clock)
        await wecom.send_text("alice", "体重 72.4")
        await wecom.send_text("alice", "提醒 每天 22:00 吃药")
        async with engine.begin() as session:
            run = await backups.claim_day(
                session, day=dt.date(2026, 11, 25), owner="w:1", now=clock.now()
            )
            assert run is not None
            await backups.finish(
                session, run, finished_at=clock.now(), path="keeper-x.kbak", verified=True,
                revision="0012", rows=1, size_bytes=1, problem="",
            )  # fmt: skip
        port = app[keys.METRICS_PORT]
        assert port
        async with (
            ClientSession() as session,
            session.get(f"http://127.0.0.1:{port}/metrics") as response,
        ):
            assert response.status == 200
            assert response.headers["Content-Type"].startswith("text/plain")
            body = await response.text()
        public = await client.get("/metrics")
        assert public.status == 404  # the callback's port does not serve it
    for family in (
        'keeper_callbacks_total{outcome="ok"}',
        "keeper_callback_seconds_bucket",
        "keeper_jobs",
        "keeper_delivery_attempts_total",
        "keeper_tick_lag_seconds",
        "keeper_backup_last_verified_timestamp_seconds",
        "keeper_token_refreshes_total",
        "keeper_channel_holds_total",
        "keeper_mp_rate_limited_total",
    ):
        assert family in body, family
    [backup_at] = [
        float(line.split()[1])
        for line in body.splitlines()
        if line.startswith("keeper_backup_last_verified_timestamp_seconds ")
    ]
    assert backup_at == clock.now().timestamp()


async def test_without_a_metrics_port_nothing_listens(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    app = create_app(TEST_SETTINGS, clock=clock, engine=engine)
    async with TestClient(TestServer(app)):
        assert app[keys.METRICS_PORT] == 0


async def test_a_taken_metrics_port_leaves_the_app_running_without_metrics(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    first = create_app(
        changed(TEST_SETTINGS, operations={"metrics_port": 0}), clock=clock, engine=engine
    )
    async with TestClient(TestServer(first)):
        taken = first[keys.METRICS_PORT]
        second = create_app(
            changed(TEST_SETTINGS, operations={"metrics_port": taken}), clock=clock, engine=engine
        )
        async with TestClient(TestServer(second)) as client:
            assert second[keys.METRICS_PORT] == 0
            assert (await client.get("/healthz")).status == 200
