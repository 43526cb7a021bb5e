"""A scripted mini-program session, end to end: the phone's HTTP calls in, ticks,
subscribe messages out through the fake WeChat, one glass lost on the network.

The day: 10:00 log in, switch reminders on, tap +1 (accept the subscription); 12:00
the reminder leaves as a subscribe message; 12:30 tap +1 again (accept), but the
grant's POST never arrives and the action's answer is lost on the way back; the
phone replays both from its queue with the same ids.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sandbox.fake_wechat import FakeWeChat, run_fake_wechat
from bot.sandbox.fake_wecom import FakeWeCom, run_fake_wecom
from bot.sandbox.wecom_side import WeComSide
from bot.scheduling import scheduler_for
from scheduler.clock import FakeClock
from scheduler.tick import Scheduler, tick
from storage.database import Database
from tests.conftest import TEST_SETTINGS, create_test_app, wecom_side
from tests.integration.mp_support import MiniProgram, make_fake, new_id, rows
from tests.settings_env import changed

OPENID = "oMpUser0001"


@dataclasses.dataclass
class Session:
    phone: MiniProgram
    wechat: FakeWeChat
    scheduler: Scheduler
    clock: FakeClock
    drops: deque[str]  # what the flaky network does to the next POSTs: before | after
    flaky_url: str
    wecom: WeComSide

    async def say(self, text: str, user: str = "alice") -> str:
        reply = await self.wecom.send_text(user, text)
        assert reply.status == 200
        return reply.text or ""

    async def lost_post(self, path: str, body: dict[str, Any]) -> None:
        """POST through the flaky network; the phone sees the connection drop."""
        headers = {"Authorization": f"Bearer {self.phone.token}"}
        async with aiohttp.ClientSession() as http:
            with pytest.raises(aiohttp.ServerDisconnectedError):
                await http.post(self.flaky_url + "/api/mp/v1" + path, json=body, headers=headers)


@asynccontextmanager
async def flaky_network(target: str, drops: deque[str]) -> AsyncIterator[str]:
    """A relay to `target` that drops the connection before forwarding ("before": the
    request never arrives) or after the answer came back ("after": the answer is lost)."""

    async def relay(request: web.Request) -> web.StreamResponse:
        mode, body = drops.popleft(), await request.read()
        if mode == "after":
            headers = {"Authorization": request.headers["Authorization"]}
            headers["Content-Type"] = "application/json"
            async with aiohttp.ClientSession() as http:
                await http.post(target + request.path, data=body, headers=headers)
        assert request.transport is not None
        request.transport.close()
        return web.Response()

    app = web.Application()
    app.router.add_post("/{tail:.*}", relay)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    try:
        yield f"http://{host}:{port}"
    finally:
        await runner.cleanup()


@pytest.fixture
async def day(engine: AsyncEngine, clock: FakeClock) -> AsyncIterator[Session]:
    wechat = make_fake(clock)
    wecom = FakeWeCom(
        corp_id=TEST_SETTINGS.wecom.corp_id,
        secret=TEST_SETTINGS.wecom.secret,
        agent_id=TEST_SETTINGS.wecom.agent_id,
        clock=clock.now,
    )
    async with run_fake_wechat(wechat) as wechat_base, run_fake_wecom(wecom) as wecom_base:
        settings = changed(
            TEST_SETTINGS, mp={"api_base": wechat_base}, wecom={"api_base": wecom_base}
        )
        app = create_test_app(settings, clock=clock, engine=engine)
        async with TestClient(TestServer(app)) as client:
            drops: deque[str] = deque()
            target = str(client.make_url("")).rstrip("/")
            async with (
                flaky_network(target, drops) as flaky_url,
                scheduler_for(settings, Database(engine), clock, send_timeout=5) as scheduler,
            ):
                phone = MiniProgram(client, wechat, OPENID)
                wecom_client = wecom_side(client, settings, clock)
                yield Session(phone, wechat, scheduler, clock, drops, flaky_url, wecom_client)


def local(clock: FakeClock) -> str:
    return clock.now().astimezone().isoformat()


async def test_a_mini_program_day_with_a_lost_glass(day: Session, engine: AsyncEngine) -> None:
    phone, clock = day.phone, day.clock
    await phone.login()
    assert (await phone.plan("enable"))["needs_grant"] is True

    # 10:00 tap: the subscription is asked for (needs_grant), accepted, then the glass.
    first_request = new_id()
    day.wechat.subscribe(OPENID)  # what the user's "accept" gave us on WeChat's side
    await phone.grant(first_request)
    status = await phone.glass(new_id(), local(clock), first_request)
    assert (status["state"], status["needs_grant"], status["today_count"]) == (
        "scheduled",
        False,
        1,
    )
    assert status["next_due_at"] == "2026-11-25T12:00:00+08:00"

    # 12:00: the reminder leaves as a subscribe message, once.
    clock.advance(timedelta(hours=2))
    await tick(day.scheduler)
    await tick(day.scheduler)
    assert [m.touser for m in day.wechat.sent] == [OPENID]
    waiting = await phone.water()
    assert (waiting["state"], waiting["needs_grant"]) == ("awaiting_checkin", True)

    # 12:30 tap: both answers are lost (the grant and the glass were recorded). The
    # client posts a grant before its action, so the action never carries the accept.
    clock.advance(timedelta(minutes=30))
    second_request, second_action = new_id(), new_id()
    day.wechat.subscribe(OPENID)
    grant_body = {
        "request_id": second_request,
        "template_id": TEST_SETTINGS.mp.template_id,
        "result": "accept",
    }
    action_body = phone.action_body(second_action, local(clock), second_request, "accept")
    day.drops.extend(["after", "after"])
    await day.lost_post("/water/grants", grant_body)
    await day.lost_post("/water/actions", action_body)

    # The queue replays, in order, with the same ids.
    await phone.call("POST", "/water/grants", grant_body)
    replayed = await phone.call("POST", "/water/actions", action_body)
    again = await phone.call("POST", "/water/actions", action_body)
    assert replayed == again
    assert (replayed["state"], replayed["needs_grant"], replayed["today_count"]) == (
        "scheduled",
        False,
        2,
    )
    assert replayed["next_due_at"] == "2026-11-25T14:30:00+08:00"  # 12:30 + 120 min

    # One grant per accept, one record per action, one message per grant used.
    grants = dict(await rows(engine, "SELECT request_key, state FROM water_grants"))
    mine = {key: state for key, state in grants.items() if key.startswith(f"mp:{OPENID}:")}
    assert mine == {
        f"mp:{OPENID}:{first_request}": "consumed",
        f"mp:{OPENID}:{second_request}": "available",
    }
    assert set(grants.values()) - set(mine.values()) <= {"invalid"}  # the enable's, unused
    assert len(await rows(engine, "SELECT id FROM water_checkins")) == 2
    assert len(await rows(engine, "SELECT id FROM mp_actions")) == 2
    attempts = await rows(engine, "SELECT channel, outcome FROM delivery_attempts")
    assert attempts == [("mp_subscribe", "accepted")]
    assert len(day.wechat.sent) == 1


async def _scheduled_with_one_grant(day: Session) -> None:
    await day.phone.login()
    await day.phone.plan("enable")
    request = new_id()
    await day.phone.grant(request)
    await day.phone.glass(new_id(), local(day.clock), request)
    day.clock.advance(timedelta(hours=2))


async def test_43101_pauses_the_plan_and_invalidates_its_grant(
    day: Session, engine: AsyncEngine
) -> None:
    await _scheduled_with_one_grant(day)  # accepted in the app, but WeChat has no quota
    await tick(day.scheduler)
    await tick(day.scheduler)
    status = await day.phone.water()
    assert (status["state"], status["needs_grant"]) == ("paused", True)
    assert await rows(engine, "SELECT outcome, provider_code FROM delivery_attempts") == [
        ("failed", 43101)
    ]
    states = {state for (state,) in await rows(engine, "SELECT state FROM water_grants")}
    assert states == {"invalid"}
    assert day.wechat.sent == []


async def test_a_template_error_holds_the_channel_and_opens_an_incident(
    day: Session, engine: AsyncEngine
) -> None:
    await _scheduled_with_one_grant(day)
    day.wechat.subscribe(OPENID)
    day.wechat.fail_next(47003)
    await tick(day.scheduler)
    await tick(day.scheduler)
    assert "mp_subscribe" in day.scheduler.holds
    incidents = await rows(engine, "SELECT kind, subject FROM incidents")
    assert any(subject == "mp_subscribe" for _, subject in incidents)


async def test_a_linked_mini_program_adds_its_glasses_to_the_members_today(day: Session) -> None:
    await day.phone.login()
    await day.phone.glass(new_id(), local(day.clock))  # before linking: its own user
    assert "喝水 +1" in await day.say("喝水")
    reply = await day.say("绑定 小程序")
    code = reply.split("：", 1)[1][:6]
    linked = await day.phone.call("POST", "/link", {"code": code})
    assert linked["today_count"] == 2  # the chat's glass and the app's, moved over
    after = await day.phone.glass(new_id(), local(day.clock))
    assert after["today_count"] == 3
    assert "3 杯" in await day.say("今天")
    assert await day.say("绑定 小程序") != reply  # a new code each time


async def test_without_the_mini_program_configured_no_code_is_given(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    settings = changed(TEST_SETTINGS, mp={"appid": "", "secret": ""})
    app = create_test_app(settings, clock=clock, engine=engine)
    async with TestClient(TestServer(app)) as client:
        reply = await wecom_side(client, settings, clock).send_text("alice", "绑定 小程序")
    assert reply.text == "小程序还没开通：需要管理员设置 KEEPER_MP_APPID 等。"
