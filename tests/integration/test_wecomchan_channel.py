"""The wecomchan channel against the fake relay (PHP and Go flavours) on loopback.

Nothing here waits on the wall clock except the client's own timeouts in the hang
and never-resolving tests, which are the behaviour under test.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

import pytest

from bot.sandbox.fake_wecomchan import FakeWecomchan, run_fake_wecomchan
from scheduler.channels import OutboundMessage
from scheduler.channels.wecomchan import WecomchanChannel, WecomchanConfig, sendkey_of
from scheduler.channels.wecomchan_errors import classify_reply
from scheduler.clock import FakeClock
from tests.conftest import TEST_SETTINGS
from tests.integration.channel_checks import (
    CONNECT_SHORT,
    SHORT,
    echoing_proxy,
    expect,
    logged,
    opened_channels,
    unresolvable_session,
)
from tests.ports import free_port as closed_port

KEY = sendkey_of(TEST_SETTINGS.channels.wecomchan_url)
ME = "ZhangSan"
HI = OutboundMessage(text="⏰ 14:00 复诊 & 带上病历本?")
MakeChannel = Callable[..., Awaitable[WecomchanChannel]]


@pytest.fixture(params=["php", "go"])
def fake(request: pytest.FixtureRequest, clock: FakeClock) -> FakeWecomchan:
    return FakeWecomchan(sendkey=KEY, flavour=request.param, clock=clock.now)


@pytest.fixture
async def base_url(fake: FakeWecomchan) -> AsyncIterator[str]:
    async with run_fake_wecomchan(fake) as url:
        yield url


def relay_url(base: str, key: str = KEY) -> str:
    return f"{base}/wecomchan?sendkey={key}"


@pytest.fixture
async def make_channel(base_url: str, clock: FakeClock) -> AsyncIterator[MakeChannel]:
    def build(url: str | None = None, session: Any = None, **kw: Any) -> WecomchanChannel:
        config = WecomchanConfig(url=url or relay_url(base_url), **kw)
        return WecomchanChannel(config, session=session, now=clock.now)

    async with opened_channels(build) as make:
        yield make


@pytest.fixture
async def channel(make_channel: MakeChannel) -> WecomchanChannel:
    return await make_channel()


# -- accepted ------------------------------------------------------------------------


async def test_errcode_0_through_the_relay_is_accepted_with_wecoms_msgid(
    channel: WecomchanChannel, fake: FakeWecomchan
) -> None:
    result = await channel.send(ME, HI)
    expect(result, "accepted", "none", 0)
    [message] = fake.messages
    assert result.provider_message_id == message.msgid
    assert (message.msg, message.msg_type) == (HI.text, "text")  # form body, not the URL


async def test_the_php_relays_address_works_too(
    make_channel: MakeChannel, fake: FakeWecomchan, base_url: str
) -> None:
    channel = await make_channel(f"{base_url}/index.php?sendkey={KEY}")
    expect(await channel.send(ME, HI), "accepted", "none", 0)


async def test_an_empty_message_is_refused_without_a_call(
    channel: WecomchanChannel, fake: FakeWecomchan
) -> None:
    expect(await channel.send(ME, OutboundMessage(text="  ")), "failed", "permanent", None)
    assert fake.send_calls == 0


# -- the relay's own answers -------------------------------------------------------------


async def test_a_wrong_sendkey_is_failed_on_php_and_unknown_on_go(
    make_channel: MakeChannel, fake: FakeWecomchan, base_url: str
) -> None:
    channel = await make_channel(relay_url(base_url, "not-the-relay-key"))
    result = await channel.send(ME, HI)
    if fake.flavour == "php":  # plain text "bad params"
        expect(result, "failed", "config", None)
        assert "bad params" in result.error
    else:  # Go panics; the connection drops
        expect(result, "unknown", "uncertain", None)
    assert "not-the-relay-key" not in result.error
    assert fake.messages == []


async def test_a_relay_without_a_wecom_token_is_unknown(
    channel: WecomchanChannel, fake: FakeWecomchan
) -> None:
    fake.token_broken = True  # PHP prints false (an empty body); Go panics (a drop)
    result = await channel.send(ME, HI)
    expect(result, "unknown", "uncertain", None)


@pytest.mark.parametrize(
    ("body", "outcome"),
    [(b"bad params", "failed"), (b"bad params\n", "failed"), (b"", "unknown"), (b" \n", "unknown")],
)
def test_the_relays_plain_answers(body: bytes, outcome: str) -> None:
    assert classify_reply(200, body).rule.outcome == outcome


# -- WeCom's errcodes, passed through ----------------------------------------------------


@pytest.mark.parametrize(
    ("errcode", "outcome", "error_class"),
    [
        (-1, "retry", "transient"),
        (45009, "retry", "transient"),
        (42001, "retry", "transient"),  # the relay's token: its to refresh, not ours
        (60020, "failed", "config"),
        (40001, "failed", "config"),
        (81013, "failed", "permanent"),
        (99999, "failed", "permanent"),
    ],
)
async def test_wecoms_errcodes_through_the_relay(
    channel: WecomchanChannel, fake: FakeWecomchan, errcode: int, outcome: str, error_class: str
) -> None:
    fake.fail_next(errcode)
    result = await channel.send(ME, HI)
    expect(result, outcome, error_class, errcode)
    assert f"errcode {errcode}" in result.error


# -- HTTP and transport ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "outcome", "error_class"),
    [(500, "unknown", "uncertain"), (502, "unknown", "uncertain"), (404, "failed", "config")],
)
async def test_an_http_error_page(
    channel: WecomchanChannel,
    fake: FakeWecomchan,
    status: int,
    outcome: str,
    error_class: str,
) -> None:
    fake.status_next(status)
    expect(await channel.send(ME, HI), outcome, error_class, None)


@pytest.mark.parametrize("delivered", [False, True], ids=["lost", "relayed"])
async def test_malformed_json_is_unknown(
    channel: WecomchanChannel, fake: FakeWecomchan, delivered: bool
) -> None:
    fake.garble_next(delivered=delivered)
    expect(await channel.send(ME, HI), "unknown", "uncertain", None)
    assert len(fake.messages) == int(delivered)


@pytest.mark.parametrize("delivered", [False, True], ids=["lost", "relayed"])
async def test_a_timeout_after_the_request_was_written_is_unknown(
    make_channel: MakeChannel, fake: FakeWecomchan, delivered: bool
) -> None:
    channel = await make_channel(timeouts=SHORT)
    fake.hang_next(delivered=delivered)
    expect(await channel.send(ME, HI), "unknown", "uncertain", None)
    assert len(fake.messages) == int(delivered)


async def test_a_dropped_connection_is_unknown_and_not_resent(
    channel: WecomchanChannel, fake: FakeWecomchan
) -> None:
    fake.reset_next(delivered=True)
    expect(await channel.send(ME, HI), "unknown", "uncertain", None)
    assert (fake.send_calls, len(fake.messages)) == (1, 1)


async def test_a_timeout_before_the_request_was_written_is_transient(
    make_channel: MakeChannel,
) -> None:
    async with unresolvable_session() as session:
        channel = await make_channel(
            relay_url("http://relay.invalid"), timeouts=CONNECT_SHORT, session=session
        )
        result = await channel.send(ME, HI)
    expect(result, "retry", "transient", None)


async def test_a_refused_connection_is_transient(make_channel: MakeChannel) -> None:
    channel = await make_channel(relay_url(f"http://127.0.0.1:{closed_port()}"))
    expect(await channel.send(ME, HI), "retry", "transient", None)


# -- the sendkey -------------------------------------------------------------------------


async def test_the_sendkey_is_in_no_result_and_no_log_line(
    make_channel: MakeChannel, fake: FakeWecomchan, caplog: pytest.LogCaptureFixture
) -> None:
    channel = await make_channel(timeouts=SHORT)
    results = []
    with caplog.at_level(logging.DEBUG):
        for fault in (fake.garble_next, fake.hang_next, fake.reset_next, lambda: None):
            fault()
            results.append(await channel.send(ME, HI))
        async with echoing_proxy("/wecomchan") as proxy:
            echoed = await make_channel(relay_url(proxy))
            results.append(await echoed.send(ME, HI))
    outcomes = [r.outcome for r in results]
    assert outcomes == ["unknown", "unknown", "unknown", "accepted", "unknown"]
    assert "sendkey=***" in results[-1].error
    text = logged(caplog) + "\n".join(r.error for r in results)
    assert KEY not in text


def test_the_sendkey_is_read_from_the_relays_address() -> None:
    assert sendkey_of("https://h/wecomchan?a=1&sendkey=k3y&b=2") == "k3y"
    assert sendkey_of("https://h/wecomchan") == ""
    config = WecomchanConfig(url="https://h/wecomchan?sendkey=k3y")
    assert "k3y" not in repr(config)
    assert urlsplit(config.url).path == "/wecomchan"
