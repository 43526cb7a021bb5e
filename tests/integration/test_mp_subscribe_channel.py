"""The subscribe-message channel against the fake WeChat on loopback: one test per
outcome. Only the client's own timeouts are waited on (the hang tests)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from bot.sandbox.fake_wechat import FakeWeChat, run_fake_wechat
from scheduler.channels import OutboundMessage
from scheduler.channels.mp_subscribe import MpSubscribeChannel, MpSubscribeConfig, thing
from scheduler.channels.wecom_token import MemoryTokenStore
from scheduler.clock import FakeClock
from tests.conftest import TEST_SETTINGS
from tests.integration.channel_checks import (
    CONNECT_SHORT,
    SHORT,
    expect,
    logged,
    opened_channels,
    unresolvable_session,
)
from tests.integration.mp_support import make_fake
from tests.ports import free_port as closed_port

ME = "oMpUser0001"
HI = OutboundMessage(text="💧 该喝水了\n喝完回一句 喝水")
MakeChannel = Callable[..., Awaitable[MpSubscribeChannel]]


@pytest.fixture
def fake(clock: FakeClock) -> FakeWeChat:
    fake = make_fake(clock)
    fake.subscribe(ME)
    return fake


@pytest.fixture
async def base_url(fake: FakeWeChat) -> AsyncIterator[str]:
    async with run_fake_wechat(fake) as url:
        yield url


@pytest.fixture
async def make_channel(base_url: str, clock: FakeClock) -> AsyncIterator[MakeChannel]:
    store = MemoryTokenStore()

    def build(api_base: str = base_url, session: Any = None, **kw: Any) -> MpSubscribeChannel:
        values = {
            "api_base": api_base,
            "appid": TEST_SETTINGS.mp.appid,
            "secret": TEST_SETTINGS.mp.secret,
            "template_id": TEST_SETTINGS.mp.template_id,
        }
        config = MpSubscribeConfig(**values | kw)
        return MpSubscribeChannel(config, store=store, session=session, now=clock.now)

    async with opened_channels(build) as make:
        yield make


@pytest.fixture
async def channel(make_channel: MakeChannel) -> MpSubscribeChannel:
    return await make_channel()


async def test_an_accepted_send_keeps_the_msgid_and_spends_the_one_time_quota(
    channel: MpSubscribeChannel, fake: FakeWeChat
) -> None:
    result = await channel.send(ME, HI)
    expect(result, "accepted", "none", 0)
    [sent] = fake.sent
    assert result.provider_message_id == str(sent.msgid)
    assert sent.data == {"thing1": "💧 该喝水了", "time2": "2026-11-25 10:00"}
    assert (sent.touser, sent.page, fake.quota[ME]) == (ME, "pages/water/water", 0)
    expect(await channel.send(ME, HI), "failed", "permanent", 43101)


async def test_the_token_is_fetched_once_and_reused(
    channel: MpSubscribeChannel, fake: FakeWeChat
) -> None:
    fake.subscribe(ME, 2)
    for _ in range(3):
        await channel.send(ME, HI)
    assert (fake.token_calls, fake.send_calls) == (1, 3)


async def test_an_expired_token_is_refreshed_once_and_the_message_resent(
    channel: MpSubscribeChannel, fake: FakeWeChat
) -> None:
    fake.subscribe(ME)
    await channel.send(ME, HI)
    fake.expire_tokens()
    expect(await channel.send(ME, HI), "accepted", "none", 0)
    assert (fake.token_calls, fake.send_calls, len(fake.sent)) == (2, 3, 2)


async def test_a_token_refused_right_after_a_refresh_is_a_config_failure(
    channel: MpSubscribeChannel, fake: FakeWeChat
) -> None:
    fake.fail_next(40001, times=2)
    expect(await channel.send(ME, HI), "failed", "config", 40001)
    assert fake.token_calls == 2


@pytest.mark.parametrize(
    ("code", "outcome", "error_class"),
    [
        (43101, "failed", "permanent"),
        (40003, "failed", "permanent"),
        (47003, "failed", "config"),
        (40037, "failed", "config"),
        (41030, "failed", "config"),
        (45009, "retry", "transient"),
        (-1, "retry", "transient"),
        (99999, "failed", "permanent"),
    ],
)
async def test_each_documented_errcode(
    channel: MpSubscribeChannel, fake: FakeWeChat, code: int, outcome: str, error_class: str
) -> None:
    fake.fail_next(code)
    result = await channel.send(ME, HI)
    expect(result, outcome, error_class, code)
    assert fake.sent == []


async def test_the_fake_refuses_a_wrong_template_and_page_as_wechat_does(
    make_channel: MakeChannel,
) -> None:
    wrong_template = await make_channel(template_id="tmpl-other-0001")
    expect(await wrong_template.send(ME, HI), "failed", "config", 40037)
    wrong_page = await make_channel(page="pages/gone/gone")
    expect(await wrong_page.send(ME, HI), "failed", "config", 41030)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "一二三四五六七八九十一二三四五六七八九十多出来",
            "一二三四五六七八九十一二三四五六七八九十",
        ),
        ("\n\n  第一行\n第二行", "第一行"),
        ("tab\there", "tabhere"),
        ("", "提醒"),
    ],
)
def test_a_thing_value_is_one_line_of_at_most_twenty_characters(text: str, value: str) -> None:
    assert thing(text) == value


async def test_a_long_reminder_is_cut_and_the_fake_accepts_it(
    channel: MpSubscribeChannel, fake: FakeWeChat
) -> None:
    expect(await channel.send(ME, OutboundMessage(text="喝" * 50)), "accepted", "none", 0)
    assert fake.sent[0].data["thing1"] == "喝" * 20


@pytest.mark.parametrize("recipient", ["", "mp:oMpUser0001", "a|b", "@all"])
async def test_anything_but_one_openid_is_refused_without_a_call(
    channel: MpSubscribeChannel, fake: FakeWeChat, recipient: str
) -> None:
    expect(await channel.send(recipient, HI), "failed", "permanent", None)
    assert fake.send_calls == fake.token_calls == 0


@pytest.mark.parametrize(
    ("status", "outcome", "error_class"),
    [(500, "unknown", "uncertain"), (502, "unknown", "uncertain"), (429, "retry", "transient")],
)
async def test_an_http_error_page(
    channel: MpSubscribeChannel, fake: FakeWeChat, status: int, outcome: str, error_class: str
) -> None:
    fake.status_next(status)
    expect(await channel.send(ME, HI), outcome, error_class, None)


@pytest.mark.parametrize("delivered", [False, True], ids=["lost", "taken"])
async def test_malformed_json_is_unknown(
    channel: MpSubscribeChannel, fake: FakeWeChat, delivered: bool
) -> None:
    fake.garble_next(delivered=delivered)
    expect(await channel.send(ME, HI), "unknown", "uncertain", None)
    assert len(fake.sent) == int(delivered)


@pytest.mark.parametrize("delivered", [False, True], ids=["lost", "taken"])
async def test_a_timeout_after_the_request_was_written_is_unknown(
    make_channel: MakeChannel, fake: FakeWeChat, delivered: bool
) -> None:
    channel = await make_channel(timeouts=SHORT)
    await channel.tokens.get()  # the token is cached: only the send hangs
    fake.hang_next(delivered=delivered)
    expect(await channel.send(ME, HI), "unknown", "uncertain", None)
    assert len(fake.sent) == int(delivered)


async def test_a_dropped_connection_after_the_request_was_written_is_unknown(
    channel: MpSubscribeChannel, fake: FakeWeChat
) -> None:
    fake.reset_next(delivered=True)
    expect(await channel.send(ME, HI), "unknown", "uncertain", None)
    assert (fake.send_calls, len(fake.sent)) == (1, 1)


async def test_a_timeout_before_the_request_was_written_is_transient(
    make_channel: MakeChannel,
) -> None:
    async with unresolvable_session() as session:
        channel = await make_channel(
            "http://wechat.invalid", timeouts=CONNECT_SHORT, session=session
        )
        result = await channel.send(ME, HI)
    expect(result, "retry", "transient", None)
    assert "nothing was sent" in result.error


async def test_a_refused_connection_is_transient(make_channel: MakeChannel) -> None:
    channel = await make_channel(f"http://127.0.0.1:{closed_port()}")
    expect(await channel.send(ME, HI), "retry", "transient", None)


@pytest.mark.parametrize(("field", "code"), [("appid", 40013), ("secret", 40001)])
async def test_a_wrong_appid_or_secret_is_a_config_failure(
    make_channel: MakeChannel, field: str, code: int
) -> None:
    value = "wx00000000000000ff" if field == "appid" else "0" * 32
    channel = await make_channel(**{field: value})
    expect(await channel.send(ME, HI), "failed", "config", code)


async def test_the_secret_and_the_token_are_in_no_result_and_no_log_line(
    make_channel: MakeChannel, fake: FakeWeChat, caplog: pytest.LogCaptureFixture
) -> None:
    channel = await make_channel(timeouts=SHORT)
    fake.subscribe(ME, 5)
    results = []
    with caplog.at_level(logging.DEBUG):
        for fault in (fake.garble_next, fake.hang_next, fake.reset_next, lambda: None):
            fault()
            results.append(await channel.send(ME, HI))
        fake.fail_next(40001, times=2)
        results.append(await channel.send(ME, HI))
    text = logged(caplog) + " ".join(r.error for r in results)
    assert TEST_SETTINGS.mp.secret not in text
    assert all(token not in text for token in channel._issued)
    assert ME not in text
