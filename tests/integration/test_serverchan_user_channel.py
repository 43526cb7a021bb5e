"""Server酱 with each user's own SendKey (`绑定 Server酱`) against the fake Server酱.

The key is resolved per send (here by a dict standing in for the sealed rows); what
the operator's table calls a configuration error of the key is this user's receiver
(permanent), so one user's bad key never holds the channel for everyone.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.sandbox.fake_serverchan import FakeServerChan, run_fake_serverchan
from scheduler.channels.serverchan_user import NO_KEY, UNREADABLE, UserServerChanChannel
from scheduler.clock import FakeClock
from scheduler.core.channel import OutboundMessage, SendResult
from storage.secret_box import Unreadable
from tests.conftest import USER_SENDKEY

HI = OutboundMessage(text="⏰ 提醒：吃药")
WRONG_KEY = "SCT99999TwrongKey00000000"
KEYS = {"user:1": USER_SENDKEY, "user:2": WRONG_KEY}


async def _resolve(recipient: str) -> str | None:
    if recipient == "user:3":
        raise Unreadable("rotated")
    return KEYS.get(recipient)


@pytest.fixture
def fake(clock: FakeClock) -> FakeServerChan:
    return FakeServerChan(sendkeys={USER_SENDKEY}, daily_quota=1, clock=clock.now)


@pytest.fixture
async def channel(fake: FakeServerChan, clock: FakeClock) -> AsyncIterator[UserServerChanChannel]:
    async with run_fake_serverchan(fake) as base, aiohttp.ClientSession() as http:
        yield UserServerChanChannel(api_base=base, resolve=_resolve, session=http, now=clock.now)


def _no_key_in(result: SendResult, caplog: pytest.LogCaptureFixture) -> None:
    assert USER_SENDKEY not in result.error
    assert WRONG_KEY not in result.error
    assert USER_SENDKEY not in caplog.text
    assert WRONG_KEY not in caplog.text


async def test_a_message_leaves_with_the_users_own_key(
    channel: UserServerChanChannel, fake: FakeServerChan, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    result = await channel.send("user:1", HI)
    assert (result.outcome, result.error_class) == ("accepted", "none")
    assert result.provider_message_id == fake.pushes[0].pushid
    assert fake.pushes[0].sendkey == USER_SENDKEY
    _no_key_in(result, caplog)


async def test_a_key_server_chan_refuses_is_this_users_permanent_failure(
    channel: UserServerChanChannel, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    result = await channel.send("user:2", HI)
    assert (result.outcome, result.error_class) == ("failed", "permanent")
    _no_key_in(result, caplog)


async def test_a_users_used_up_daily_quota_is_permanent_for_this_message(
    channel: UserServerChanChannel, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    assert (await channel.send("user:1", HI)).outcome == "accepted"
    result = await channel.send("user:1", HI)
    assert (result.outcome, result.error_class) == ("failed", "permanent")
    assert "quota" in result.error
    _no_key_in(result, caplog)


async def test_http_429_is_keepers_ip_over_the_limit_a_config_error(
    channel: UserServerChanChannel, fake: FakeServerChan
) -> None:
    fake.status_next(429)
    result = await channel.send("user:1", HI)
    assert (result.outcome, result.error_class) == ("failed", "config")


async def test_no_key_bound_is_a_permanent_failure_without_a_call(
    channel: UserServerChanChannel, fake: FakeServerChan
) -> None:
    result = await channel.send("user:9", HI)
    assert (result.outcome, result.error_class, result.error) == ("failed", "permanent", NO_KEY)
    assert fake.send_calls == 0


async def test_a_key_that_no_longer_opens_is_this_users_permanent_failure_without_a_call(
    channel: UserServerChanChannel, fake: FakeServerChan
) -> None:
    result = await channel.send("user:3", HI)
    assert (result.outcome, result.error_class, result.error) == ("failed", "permanent", UNREADABLE)
    assert fake.send_calls == 0
