"""The WeCom app channel against the fake WeCom API on loopback: one test per outcome.

Nothing here waits on the wall clock except the client's own 0.3 s timeout in the
hang tests, which is the behaviour under test.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bot.sandbox.fake_wecom import FakeWeCom, run_fake_wecom
from scheduler.channels import OutboundMessage, SendResult
from scheduler.channels.wecom_app import (
    WeComAppChannel,
    WeComAppConfig,
    classify_update_reply,
    message_payload,
    transport_signal,
    update_card_payload,
)
from scheduler.channels.wecom_token import CachedToken, MemoryTokenStore
from scheduler.clock import FakeClock
from scheduler.core.cards import CardAction, replace_name, water_card
from scheduler.core.channel import CardUpdater
from tests.conftest import TEST_SETTINGS
from tests.ports import free_port as closed_port

HI = OutboundMessage(text="该喝水了，回复 喝水 打卡")
MakeChannel = Callable[..., Awaitable[WeComAppChannel]]


@pytest.fixture
def fake(clock: FakeClock) -> FakeWeCom:
    return FakeWeCom(
        corp_id=TEST_SETTINGS.wecom.corp_id,
        secret=TEST_SETTINGS.wecom.secret,
        agent_id=TEST_SETTINGS.wecom.agent_id,
        users={"ZhangSan", "LiSi", "WangWu"},
        unlicensed_users={"WangWu"},
        clock=clock.now,
    )


@pytest.fixture
async def base_url(fake: FakeWeCom) -> AsyncIterator[str]:
    async with run_fake_wecom(fake) as url:
        yield url


def config(api_base: str, **overrides: Any) -> WeComAppConfig:
    fields: dict[str, Any] = {
        "api_base": api_base,
        "corp_id": TEST_SETTINGS.wecom.corp_id,
        "agent_id": TEST_SETTINGS.wecom.agent_id,
        "secret": TEST_SETTINGS.wecom.secret,
        "connect_timeout": 5.0,
        "total_timeout": 10.0,
    }
    return WeComAppConfig(**{**fields, **overrides})


@pytest.fixture
async def make_channel(base_url: str, clock: FakeClock) -> AsyncIterator[MakeChannel]:
    """Channels against the fake (or another base URL); closed before the fake stops."""
    opened: list[WeComAppChannel] = []

    async def make(
        api_base: str = base_url, store: MemoryTokenStore | None = None, **kw: Any
    ) -> WeComAppChannel:
        channel = WeComAppChannel(config(api_base, **kw), store=store, now=clock.now)
        opened.append(await channel.__aenter__())
        return channel

    yield make
    for channel in opened:
        await channel.close()


@pytest.fixture
async def channel(make_channel: MakeChannel) -> WeComAppChannel:
    return await make_channel()


def expect(result: SendResult, outcome: str, error_class: str, code: int | None) -> None:
    assert (result.outcome, result.error_class, result.provider_code) == (
        outcome,
        error_class,
        code,
    )
    assert result.duration_ms >= 0
    assert (result.error == "") == (outcome == "accepted")


# -- accepted ------------------------------------------------------------------------


async def test_an_accepted_text_keeps_the_msgid(channel: WeComAppChannel, fake: FakeWeCom) -> None:
    result = await channel.send("ZhangSan", HI)
    expect(result, "accepted", "none", 0)
    [message] = fake.messages
    assert result.provider_message_id == message.msgid
    assert message.payload == {
        "touser": "ZhangSan",
        "agentid": TEST_SETTINGS.wecom.agent_id,
        "msgtype": "text",
        "text": {"content": HI.text},
    }
    assert result.retry_after is None


async def test_the_token_is_fetched_once_for_many_sends(
    channel: WeComAppChannel, fake: FakeWeCom
) -> None:
    results = await asyncio.gather(*(channel.send(user, HI) for user in ["ZhangSan", "LiSi"] * 5))
    assert {r.outcome for r in results} == {"accepted"}
    assert (fake.gettoken_calls, len(fake.messages)) == (1, 10)


async def test_dedup_asks_wecom_to_drop_an_identical_repeat(
    channel: WeComAppChannel, fake: FakeWeCom
) -> None:
    message = OutboundMessage(text="重要：14:00 复诊", dedup=True)
    first, again = await channel.send("LiSi", message), await channel.send("LiSi", message)
    assert first.outcome == again.outcome == "accepted"
    assert first.provider_message_id == again.provider_message_id
    assert (len(fake.messages), fake.duplicates_dropped) == (1, 1)
    assert fake.messages[0].payload["enable_duplicate_check"] == 1
    assert fake.messages[0].payload["duplicate_check_interval"] == 1800


async def test_a_card_is_sent_as_a_template_card(channel: WeComAppChannel, fake: FakeWeCom) -> None:
    card = {"card_type": "text_notice", "main_title": {"title": "今日计划"}}
    result = await channel.send("ZhangSan", OutboundMessage(text="今日计划", card=card))
    expect(result, "accepted", "none", 0)
    assert fake.messages[0].payload["template_card"] == card


# -- the recipient -------------------------------------------------------------------


@pytest.mark.parametrize("recipient", ["Ghost", "WangWu"], ids=["invaliduser", "unlicenseduser"])
async def test_a_recipient_wecom_rejects_is_a_permanent_failure(
    channel: WeComAppChannel, fake: FakeWeCom, recipient: str
) -> None:
    result = await channel.send(recipient, HI)
    expect(result, "failed", "permanent", 81013)
    assert result.provider_message_id is None
    assert fake.messages == []


@pytest.mark.parametrize("recipient", ["@all", "ZhangSan|LiSi", "", "张三", "a" * 65])
async def test_a_broadcast_or_a_malformed_recipient_is_refused_without_a_call(
    channel: WeComAppChannel, fake: FakeWeCom, recipient: str
) -> None:
    result = await channel.send(recipient, HI)
    expect(result, "failed", "permanent", None)
    assert (fake.gettoken_calls, fake.send_calls) == (0, 0)


# -- errcodes ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("errcode", "outcome", "error_class", "retry_after"),
    [
        (-1, "retry", "transient", None),
        (45009, "retry", "transient", 60.0),
        (45033, "retry", "transient", None),
        (60020, "failed", "config", None),
        (40001, "failed", "config", None),
        (48002, "failed", "config", None),
        (301002, "failed", "config", None),
        (81013, "failed", "permanent", None),
        (44004, "failed", "permanent", None),
        (99999, "failed", "permanent", None),
    ],
)
async def test_each_errcode_class_on_send(
    channel: WeComAppChannel,
    fake: FakeWeCom,
    errcode: int,
    outcome: str,
    error_class: str,
    retry_after: float | None,
) -> None:
    fake.fail_next(errcode)
    result = await channel.send("ZhangSan", HI)
    expect(result, outcome, error_class, errcode)
    assert result.retry_after == retry_after
    assert f"errcode {errcode}" in result.error
    assert (fake.send_calls, fake.messages) == (1, [])


async def test_a_token_expired_mid_run_is_refreshed_and_the_message_resent_once(
    channel: WeComAppChannel, fake: FakeWeCom
) -> None:
    expect(await channel.send("ZhangSan", HI), "accepted", "none", 0)
    fake.expire_tokens()
    result = await channel.send("ZhangSan", HI)
    expect(result, "accepted", "none", 0)
    assert (fake.gettoken_calls, fake.send_calls, len(fake.messages)) == (2, 3, 2)


async def test_an_invalid_token_40014_is_refreshed_and_resent_at_once(
    channel: WeComAppChannel, fake: FakeWeCom
) -> None:
    fake.fail_next(40014)
    expect(await channel.send("ZhangSan", HI), "accepted", "none", 0)
    assert (fake.gettoken_calls, fake.send_calls, len(fake.messages)) == (2, 2, 1)


async def test_a_token_rejected_twice_is_refreshed_only_once(
    channel: WeComAppChannel, fake: FakeWeCom
) -> None:
    fake.fail_next(42001, times=2)
    result = await channel.send("ZhangSan", HI)
    expect(result, "retry", "transient", 42001)
    assert (fake.gettoken_calls, fake.send_calls, fake.messages) == (2, 2, [])


# -- gettoken failures: nothing was sent, so never unknown ----------------------------


@pytest.mark.parametrize(
    ("fault", "outcome", "error_class"),
    [
        (lambda f: f.fail_next(40001, on="gettoken"), "failed", "config"),
        (lambda f: f.fail_next(60020, on="gettoken"), "failed", "config"),
        (lambda f: f.fail_next(-1, on="gettoken"), "retry", "transient"),
        (lambda f: f.status_next(502, on="gettoken"), "retry", "transient"),
        # aiohttp itself retries an idempotent GET once after a reset, so reset twice
        (lambda f: f.reset_next(2, on="gettoken"), "retry", "transient"),
        (lambda f: f.hang_next(on="gettoken"), "retry", "transient"),
    ],
    ids=["40001", "60020", "busy", "502", "reset", "hang"],
)
async def test_a_failed_gettoken_sends_nothing_and_is_never_uncertain(
    make_channel: MakeChannel,
    fake: FakeWeCom,
    fault: Callable[[FakeWeCom], None],
    outcome: str,
    error_class: str,
) -> None:
    channel = await make_channel(connect_timeout=0.3, total_timeout=0.3)
    fault(fake)
    result = await channel.send("ZhangSan", HI)
    assert (result.outcome, result.error_class) == (outcome, error_class)
    assert fake.send_calls == 0


async def test_a_wrong_secret_is_a_config_error(make_channel: MakeChannel, fake: FakeWeCom) -> None:
    channel = await make_channel(secret="not-the-right-secret")
    result = await channel.send("ZhangSan", HI)
    expect(result, "failed", "config", 40001)
    assert "not-the-right-secret" not in result.error


# -- transport -----------------------------------------------------------------------


@pytest.mark.parametrize("delivered", [False, True], ids=["lost", "delivered"])
async def test_a_hang_after_sending_is_unknown_after_the_client_timeout(
    make_channel: MakeChannel, fake: FakeWeCom, delivered: bool
) -> None:
    channel = await make_channel(connect_timeout=0.3, total_timeout=0.3)
    await channel.tokens.get()  # so the hang hits message/send, not gettoken
    fake.hang_next(delivered=delivered)
    result = await channel.send("ZhangSan", HI)
    expect(result, "unknown", "uncertain", None)
    assert "timed out after the request was sent" in result.error
    assert len(fake.messages) == int(delivered)  # which is exactly why it is unknown


@pytest.mark.parametrize("delivered", [False, True], ids=["lost", "delivered"])
async def test_a_reset_after_sending_is_unknown(
    channel: WeComAppChannel, fake: FakeWeCom, delivered: bool
) -> None:
    fake.reset_next(delivered=delivered)
    result = await channel.send("ZhangSan", HI)
    expect(result, "unknown", "uncertain", None)
    assert len(fake.messages) == int(delivered)
    assert fake.send_calls == 1  # neither we nor aiohttp resend a POST


@asynccontextmanager
async def closing_on_accept() -> AsyncIterator[str]:
    """A server that drops every connection before reading a byte."""

    async def drop(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.close()

    server = await asyncio.start_server(drop, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        yield f"http://127.0.0.1:{port}"


async def seeded_store(
    clock: FakeClock, value: str = "SEEDED-TOKEN-VALUE-0001"
) -> MemoryTokenStore:
    """A store already holding a valid token, so the channel goes straight to message/send."""
    store = MemoryTokenStore()
    token = CachedToken(
        value=value, expires_at=clock.now() + timedelta(hours=2), fetched_at=clock.now()
    )
    await store.save(TEST_SETTINGS.wecom.corp_id, TEST_SETTINGS.wecom.agent_id, token)
    return store


async def test_a_reset_before_the_server_read_anything_is_still_unknown_from_our_side(
    make_channel: MakeChannel, clock: FakeClock
) -> None:
    async with closing_on_accept() as url:
        channel = await make_channel(url, store=await seeded_store(clock))
        result = await channel.send("ZhangSan", HI)
    expect(result, "unknown", "uncertain", None)


@pytest.mark.parametrize("status", [500, 502, 503, 504])
async def test_an_http_5xx_is_unknown(
    channel: WeComAppChannel, fake: FakeWeCom, status: int
) -> None:
    fake.status_next(status)
    result = await channel.send("ZhangSan", HI)
    expect(result, "unknown", "uncertain", None)
    assert f"HTTP {status}" in result.error


@pytest.mark.parametrize(
    ("status", "outcome", "error_class"), [(429, "retry", "transient"), (404, "failed", "config")]
)
async def test_an_http_4xx_from_something_in_between(
    channel: WeComAppChannel, fake: FakeWeCom, status: int, outcome: str, error_class: str
) -> None:
    fake.status_next(status)
    expect(await channel.send("ZhangSan", HI), outcome, error_class, None)


async def test_connection_refused_is_transient(make_channel: MakeChannel, clock: FakeClock) -> None:
    channel = await make_channel(
        f"http://127.0.0.1:{closed_port()}", store=await seeded_store(clock)
    )
    result = await channel.send("ZhangSan", HI)
    expect(result, "retry", "transient", None)
    assert "nothing was sent" in result.error


async def test_connection_refused_on_gettoken_is_transient(make_channel: MakeChannel) -> None:
    channel = await make_channel(f"http://127.0.0.1:{closed_port()}")
    expect(await channel.send("ZhangSan", HI), "retry", "transient", None)


class _Key:
    host, port, ssl = "127.0.0.1", 9, False


@pytest.mark.parametrize(
    ("exc", "signal"),
    [
        (aiohttp.ClientConnectorError(_Key(), OSError(111, "refused")), "connect_failed"),  # type: ignore[arg-type]
        (aiohttp.ConnectionTimeoutError("connect"), "connect_failed"),
        (aiohttp.SocketTimeoutError("read"), "timeout_after_send"),
        (TimeoutError(), "timeout_after_send"),
        (aiohttp.ServerDisconnectedError(), "reset_after_send"),
        (aiohttp.ClientOSError(104, "reset by peer"), "reset_after_send"),
        (aiohttp.ClientPayloadError("truncated"), "reset_after_send"),
    ],
    ids=lambda v: type(v).__name__ if isinstance(v, BaseException) else v,
)
def test_transport_exceptions_map_to_signals(exc: BaseException, signal: str) -> None:
    assert transport_signal(exc) == signal


def test_a_config_outside_wecoms_limits_is_refused() -> None:
    with pytest.raises(ValueError, match="duplicate_check_interval"):
        config("http://x", duplicate_check_interval=5 * 3600)
    with pytest.raises(ValueError, match="timeout"):
        config("http://x", connect_timeout=20.0, total_timeout=10.0)


def test_the_payload_names_one_recipient_and_the_app() -> None:
    payload = message_payload("LiSi", HI, agent_id=7, duplicate_check_interval=60)
    assert payload == {
        "touser": "LiSi",
        "agentid": 7,
        "msgtype": "text",
        "text": {"content": HI.text},
    }


# -- update_template_card ------------------------------------------------------------

DRANK = replace_name(CardAction(kind="water", action="done"))


async def card_code(channel: WeComAppChannel, fake: FakeWeCom, user: str = "ZhangSan") -> str:
    """Send `user` a water card; the response_code of their copy."""
    card = OutboundMessage(text="该喝水了", card=water_card("该喝水了", "keeper-water-5-1"))
    expect(await channel.send(user, card), "accepted", "none", 0)
    code = fake.messages_to(user)[-1].response_code
    assert code is not None
    return code


def test_the_wecom_channel_is_a_card_updater(channel: WeComAppChannel) -> None:
    updater: CardUpdater = channel
    assert updater is channel


async def test_a_clicked_card_is_greyed_out_for_its_recipient(
    channel: WeComAppChannel, fake: FakeWeCom
) -> None:
    code = await card_code(channel, fake)
    result = await channel.update_card("ZhangSan", code, DRANK)
    expect(result, "accepted", "none", 0)
    assert (result.provider_message_id, result.retry_after) == (None, None)
    [card_update] = fake.card_updates
    assert (card_update.recipient, card_update.replace_name) == ("ZhangSan", "已喝 💧")
    assert card_update.task_id == "keeper-water-5-1"


async def test_the_code_from_a_click_callback_works_too(
    channel: WeComAppChannel, fake: FakeWeCom
) -> None:
    await card_code(channel, fake)
    click_code = fake.issue_click_code(fake.messages_to("ZhangSan")[-1])
    expect(await channel.update_card("ZhangSan", click_code, DRANK), "accepted", "none", 0)


async def test_a_reused_response_code_is_a_permanent_failure(
    channel: WeComAppChannel, fake: FakeWeCom
) -> None:
    code = await card_code(channel, fake)
    expect(await channel.update_card("ZhangSan", code, DRANK), "accepted", "none", 0)
    result = await channel.update_card("ZhangSan", code, DRANK)
    expect(result, "failed", "permanent", 42022)
    assert "errcode 42022" in result.error
    assert len(fake.card_updates) == 1


async def test_an_expired_or_unknown_response_code_is_a_permanent_failure(
    channel: WeComAppChannel, fake: FakeWeCom, clock: FakeClock
) -> None:
    code = await card_code(channel, fake)
    expect(
        await channel.update_card("ZhangSan", "no-such-code", DRANK), "failed", "permanent", 40058
    )
    clock.advance(timedelta(hours=72))
    expect(await channel.update_card("ZhangSan", code, DRANK), "failed", "permanent", 40058)
    assert fake.card_updates == []


async def test_a_recipient_who_never_got_the_card_is_a_permanent_failure(
    channel: WeComAppChannel, fake: FakeWeCom
) -> None:
    code = await card_code(channel, fake, "ZhangSan")
    result = await channel.update_card("LiSi", code, DRANK)
    expect(result, "failed", "permanent", 0)  # errcode 0, but LiSi is in invaliduser
    assert fake.card_updates == []


async def test_an_expired_token_is_refreshed_once_for_an_update_too(
    channel: WeComAppChannel, fake: FakeWeCom
) -> None:
    code = await card_code(channel, fake)
    fake.expire_tokens()
    expect(await channel.update_card("ZhangSan", code, DRANK), "accepted", "none", 0)
    assert (fake.gettoken_calls, fake.update_calls, len(fake.card_updates)) == (2, 2, 1)


async def test_a_hung_update_is_unknown(make_channel: MakeChannel, fake: FakeWeCom) -> None:
    channel = await make_channel(connect_timeout=0.3, total_timeout=0.3)
    code = await card_code(channel, fake)
    fake.hang_next(on="update_card", delivered=True)
    result = await channel.update_card("ZhangSan", code, DRANK)
    expect(result, "unknown", "uncertain", None)
    assert len(fake.card_updates) == 1  # WeCom may well have applied it


@pytest.mark.parametrize(
    ("fault", "outcome", "error_class"),
    [
        (lambda f: f.fail_next(-1, on="update_card"), "retry", "transient"),
        (lambda f: f.fail_next(60020, on="update_card"), "failed", "config"),
        (lambda f: f.status_next(502, on="update_card"), "unknown", "uncertain"),
        (lambda f: f.reset_next(on="update_card"), "unknown", "uncertain"),
    ],
    ids=["busy", "untrusted-ip", "502", "reset"],
)
async def test_an_update_is_classified_like_a_send(
    channel: WeComAppChannel,
    fake: FakeWeCom,
    fault: Callable[[FakeWeCom], None],
    outcome: str,
    error_class: str,
) -> None:
    code = await card_code(channel, fake)
    fault(fake)
    result = await channel.update_card("ZhangSan", code, DRANK)
    assert (result.outcome, result.error_class) == (outcome, error_class)
    assert fake.update_calls == 1  # never resent by itself


@pytest.mark.parametrize("recipient", ["@all", "ZhangSan|LiSi", ""])
async def test_an_update_for_anything_but_one_user_is_refused_without_a_call(
    channel: WeComAppChannel, fake: FakeWeCom, recipient: str
) -> None:
    expect(await channel.update_card(recipient, "code", DRANK), "failed", "permanent", None)
    assert (fake.gettoken_calls, fake.update_calls) == (0, 0)


def test_the_update_payload_names_one_user_the_app_and_the_label() -> None:
    assert update_card_payload("LiSi", "rc-1", "已完成", agent_id=7) == {
        "userids": ["LiSi"],
        "agentid": 7,
        "response_code": "rc-1",
        "button": {"replace_name": "已完成"},
    }


@pytest.mark.parametrize(
    ("invaliduser", "outcome"),
    [([], "accepted"), (["zhangsan"], "failed"), (["lisi"], "accepted"), ("zhangsan", "failed")],
)
def test_the_update_reply_lists_invalid_users_as_an_array(
    invaliduser: list[str] | str, outcome: str
) -> None:
    body = json.dumps({"errcode": 0, "errmsg": "ok", "invaliduser": invaliduser}).encode()
    assert classify_update_reply(200, body, "ZhangSan").rule.outcome == outcome


# -- secrets -------------------------------------------------------------------------


def echo_app(token: str) -> web.Application:
    """A broken proxy that echoes the request URL, and the token itself, in its 502 page."""

    async def echo(request: web.Request) -> web.Response:
        return web.Response(status=502, text=f"bad gateway for {request.url} ({token})")

    app = web.Application()
    app.router.add_post("/cgi-bin/message/send", echo)
    return app


async def test_an_error_page_echoing_the_url_does_not_leak_the_token(
    make_channel: MakeChannel, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    token = "SEEDED-TOKEN-VALUE-0001"
    runner = web.AppRunner(echo_app(token), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        host, port = runner.addresses[0][:2]
        channel = await make_channel(
            f"http://{host}:{port}", store=await seeded_store(clock, token)
        )
        with caplog.at_level(logging.INFO, logger="scheduler.channels"):
            result = await channel.send("ZhangSan", HI)
    finally:
        await runner.cleanup()
    expect(result, "unknown", "uncertain", None)
    assert "access_token=***" in result.error
    assert token not in result.error
    assert token not in logged(caplog)


def logged(caplog: pytest.LogCaptureFixture) -> str:
    """Every record's message and extra fields, as a handler could print them."""
    return "\n".join(f"{r.getMessage()} {vars(r)}" for r in caplog.records)


async def test_no_token_or_secret_in_any_result_or_log_line(
    make_channel: MakeChannel, fake: FakeWeCom, caplog: pytest.LogCaptureFixture
) -> None:
    store = MemoryTokenStore()
    channel = await make_channel(store=store, connect_timeout=0.3, total_timeout=0.3)
    results = []
    with caplog.at_level(logging.DEBUG):
        results.append(await channel.send("ZhangSan", HI))
        first = await store.load(TEST_SETTINGS.wecom.corp_id, TEST_SETTINGS.wecom.agent_id)
        fake.expire_tokens()
        results.append(await channel.send("ZhangSan", HI))  # 42001, refreshed, resent
        faults: list[Callable[[], None]] = [
            lambda: fake.fail_next(60020),
            lambda: fake.status_next(502),
            fake.reset_next,
            fake.hang_next,
        ]
        for fault in faults:
            fault()
            results.append(await channel.send("ZhangSan", HI))
        second = await store.load(TEST_SETTINGS.wecom.corp_id, TEST_SETTINGS.wecom.agent_id)
    assert first is not None
    assert second is not None
    assert first.value != second.value
    secrets = [TEST_SETTINGS.wecom.secret, first.value, second.value]
    text = logged(caplog) + "\n".join(r.error for r in results)
    assert [s for s in secrets if s in text] == []
    outcomes = [r.outcome for r in results]
    assert outcomes == ["accepted", "accepted", "failed", "unknown", "unknown", "unknown"]
