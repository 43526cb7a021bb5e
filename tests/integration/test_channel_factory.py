"""The extra channels built from settings, each against its fake; rotation one by one."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from bot.sandbox.fake_robot import FakeRobot, add_robot_routes
from bot.sandbox.fake_serverchan import FakeServerChan, run_fake_serverchan
from bot.sandbox.fake_webhook import serve
from bot.sandbox.fake_wecom import FakeWeCom, create_fake_wecom_app
from bot.sandbox.fake_wecomchan import FakeWecomchan, run_fake_wecomchan
from bot.sandbox.fake_wxpusher import FakeWxPusher, run_fake_wxpusher
from bot.settings import Settings
from scheduler.channels import OutboundMessage
from scheduler.channels.factory import from_settings
from scheduler.channels.webhook import WebhookChannel
from scheduler.channels.wecomchan import sendkey_of
from scheduler.clock import FakeClock
from tests.conftest import TEST_SETTINGS
from tests.integration.channel_checks import expect
from tests.settings_env import changed

HI = OutboundMessage(text="⏰ 14:00 复诊")
NAMES = {"wecom_robot", "wxpusher", "serverchan", "wecomchan"}
RECIPIENTS = {
    "wecom_robot": "ZhangSan",
    "wxpusher": "UID_zhangsan0001",
    "serverchan": "ZhangSan",
    "wecomchan": "ZhangSan",
}


@dataclass
class Fakes:
    robot: FakeRobot
    wxpusher: FakeWxPusher
    serverchan: FakeServerChan
    wecomchan: FakeWecomchan
    settings: Settings


@pytest.fixture
async def fakes(clock: FakeClock) -> AsyncIterator[Fakes]:
    """Every fake on loopback, and settings pointing at them (the robot on WeCom's host)."""
    s = TEST_SETTINGS
    robot = FakeRobot(keys={s.channels.robot_key}, clock=clock.now)
    wx = FakeWxPusher(
        app_token=s.channels.wxpusher_app_token, uids={"UID_zhangsan0001"}, clock=clock.now
    )
    sct = FakeServerChan(sendkeys={s.channels.serverchan_sendkey}, clock=clock.now)
    relay = FakeWecomchan(sendkey=sendkey_of(s.channels.wecomchan_url), clock=clock.now)
    wecom_app = add_robot_routes(create_fake_wecom_app(FakeWeCom(clock=clock.now)), robot)
    async with AsyncExitStack() as stack:
        wecom_url = await stack.enter_async_context(serve(wecom_app, robot))
        wx_url = await stack.enter_async_context(run_fake_wxpusher(wx))
        sct_url = await stack.enter_async_context(run_fake_serverchan(sct))
        relay_url = await stack.enter_async_context(run_fake_wecomchan(relay))
        settings = changed(
            s,
            wecom={"api_base": wecom_url},
            channels={
                "wxpusher_api_base": wx_url,
                "serverchan_api_base": sct_url,
                "wecomchan_url": f"{relay_url}/wecomchan?sendkey={relay.sendkey}",
            },
        )
        yield Fakes(robot, wx, sct, relay, settings)


def built(
    settings: Settings, session: aiohttp.ClientSession, **kw: Any
) -> dict[str, WebhookChannel]:
    """`from_settings` as `bot.scheduling` calls it: the group robot on WeCom's host."""
    return from_settings(settings.channels, session, robot_api_base=settings.wecom.api_base, **kw)


def channel_code(name: str) -> int:
    """The provider's code for "accepted" (WxPusher: 1000, the rest: 0)."""
    return 1000 if name == "wxpusher" else 0


async def test_every_configured_channel_is_built_and_reaches_its_fake(
    fakes: Fakes, clock: FakeClock
) -> None:
    async with aiohttp.ClientSession() as session:
        channels = built(fakes.settings, session, now=clock.now)
        assert set(channels) == NAMES
        for name, channel in channels.items():
            assert channel.name == name
            expect(await channel.send(RECIPIENTS[name], HI), "accepted", "none", channel_code(name))
    assert len(fakes.robot.messages) == len(fakes.wxpusher.messages) == 1
    assert len(fakes.serverchan.pushes) == len(fakes.wecomchan.messages) == 1


async def test_no_credential_no_channel() -> None:
    async with aiohttp.ClientSession() as session:
        bare = changed(
            TEST_SETTINGS,
            channels={
                "robot_key": "",
                "wxpusher_app_token": "",
                "serverchan_sendkey": "",
                "wecomchan_url": "",
            },
        )
        assert built(bare, session) == {}


@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("wecom_robot", {"robot_key": "rotated-robot-key-0002"}),
        ("wxpusher", {"wxpusher_app_token": "AT_rotatedToken0002"}),
        ("serverchan", {"serverchan_sendkey": "SCTrotatedKey0002"}),
        ("wecomchan", {"wecomchan_url": "http://127.0.0.1:9/wecomchan?sendkey=rotated-0002"}),
    ],
)
async def test_a_rotated_credential_rebuilds_only_its_own_channel(
    fakes: Fakes, clock: FakeClock, name: str, change: dict[str, str]
) -> None:
    async with aiohttp.ClientSession() as session:
        before = built(fakes.settings, session, now=clock.now)
        after = built(changed(fakes.settings, channels=change), session, previous=before)
    assert after[name] is not before[name]
    assert all(after[other] is before[other] for other in NAMES - {name})


async def test_an_unchanged_channel_keeps_its_budget_across_a_rebuild(
    fakes: Fakes, clock: FakeClock
) -> None:
    async with aiohttp.ClientSession() as session:
        channels = built(fakes.settings, session, now=clock.now)
        for _ in range(20):
            await channels["wecom_robot"].send("ZhangSan", HI)
        again = built(fakes.settings, session, now=clock.now, previous=channels)
        expect(await again["wecom_robot"].send("ZhangSan", HI), "retry", "transient", None)
        rotated = changed(fakes.settings, channels={"robot_key": "rotated-robot-key-0002"})
        fakes.robot.keys.add("rotated-robot-key-0002")
        fresh = built(rotated, session, now=clock.now, previous=again)
        expect(await fresh["wecom_robot"].send("ZhangSan", HI), "accepted", "none", 0)
