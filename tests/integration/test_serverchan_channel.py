"""The Server酱 Turbo channel against the fake Server酱 on loopback: one test per outcome.

Nothing here waits on the wall clock except the client's own timeouts in the hang
and never-resolving tests, which are the behaviour under test.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest

from bot.sandbox.fake_serverchan import FakeServerChan, run_fake_serverchan
from scheduler.channels import OutboundMessage
from scheduler.channels.serverchan import ServerChanChannel, ServerChanConfig, title_of
from scheduler.channels.serverchan_errors import classify_reply
from scheduler.channels.webhook import Reply
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

KEY = TEST_SETTINGS.channels.serverchan_sendkey
ME = "ZhangSan"
HI = OutboundMessage(text="⏰ 14:00 复诊\n\n带上**病历本**")
MakeChannel = Callable[..., Awaitable[ServerChanChannel]]


@pytest.fixture
def fake(clock: FakeClock) -> FakeServerChan:
    return FakeServerChan(sendkeys={KEY}, clock=clock.now)


@pytest.fixture
async def base_url(fake: FakeServerChan) -> AsyncIterator[str]:
    async with run_fake_serverchan(fake) as url:
        yield url


@pytest.fixture
async def make_channel(base_url: str, clock: FakeClock) -> AsyncIterator[MakeChannel]:
    def build(api_base: str = base_url, session: Any = None, **kw: Any) -> ServerChanChannel:
        config = ServerChanConfig(**{"api_base": api_base, "sendkey": KEY} | kw)
        return ServerChanChannel(config, session=session, now=clock.now)

    async with opened_channels(build) as make:
        yield make


@pytest.fixture
async def channel(make_channel: MakeChannel) -> ServerChanChannel:
    return await make_channel()


# -- accepted: queued, with a pushid -------------------------------------------------------


async def test_code_0_with_a_pushid_is_accepted(
    channel: ServerChanChannel, fake: FakeServerChan
) -> None:
    result = await channel.send(ME, HI)
    expect(result, "accepted", "none", 0)
    [push] = fake.pushes
    assert result.provider_message_id == push.pushid
    assert (push.sendkey, push.title, push.desp) == (KEY, "⏰ 14:00 复诊", HI.text)


async def test_a_long_first_line_becomes_a_32_character_title(
    channel: ServerChanChannel, fake: FakeServerChan
) -> None:
    text = "提醒：" + "交材料" * 20
    expect(await channel.send(ME, OutboundMessage(text=text)), "accepted", "none", 0)
    assert len(fake.pushes[0].title) == 32
    assert fake.pushes[0].title.endswith("…")
    assert fake.pushes[0].desp == text


@pytest.mark.parametrize(
    ("text", "title"),
    [("一行", "一行"), ("\n\n  第二行才有字\n第三行", "第二行才有字"), ("a\r\nb", "a"), ("", "")],
)
def test_the_title_is_the_first_line_with_text_and_never_holds_a_newline(
    text: str, title: str
) -> None:
    assert title_of(text) == title


async def test_an_empty_message_is_refused_without_a_call(
    channel: ServerChanChannel, fake: FakeServerChan
) -> None:
    expect(await channel.send(ME, OutboundMessage(text=" \n ")), "failed", "permanent", None)
    assert fake.send_calls == 0


async def test_a_desp_over_32_kb_is_refused_without_a_call(
    channel: ServerChanChannel, fake: FakeServerChan
) -> None:
    result = await channel.send(ME, OutboundMessage(text="水" * 11000))
    expect(result, "failed", "permanent", None)
    assert fake.send_calls == 0


def test_code_0_without_a_pushid_is_unknown() -> None:
    body = json.dumps({"code": 0, "message": "", "data": {"error": "SUCCESS"}}).encode()
    verdict = classify_reply(200, body)
    assert (verdict.rule.outcome, verdict.message_id) == ("unknown", None)


# -- the documented failures ----------------------------------------------------------


@pytest.mark.parametrize("status", [200, 500], ids=["get-style-200", "post-style-500"])
async def test_the_daily_quota_answer_is_a_failure_that_says_so(
    channel: ServerChanChannel, fake: FakeServerChan, clock: FakeClock, status: int
) -> None:
    fake.daily_quota, fake.quota_status = 1, status
    expect(await channel.send(ME, HI), "accepted", "none", 0)
    result = await channel.send(ME, HI)
    expect(result, "failed", "config", 40001)
    assert "daily send quota used up" in result.error
    assert "超过当天的发送次数限制[1]" in result.error
    clock.advance(timedelta(days=1))
    expect(await channel.send(ME, HI), "accepted", "none", 0)


async def test_http_429_is_a_failure_naming_the_24_hour_limit(
    channel: ServerChanChannel, fake: FakeServerChan
) -> None:
    fake.status_next(429)
    result = await channel.send(ME, HI)
    expect(result, "failed", "config", None)
    assert "24 h call limit" in result.error


@pytest.mark.parametrize("status", [200, 401], ids=["200", "401"])
async def test_a_wrong_sendkey_answer_without_a_code_is_failed(
    make_channel: MakeChannel, fake: FakeServerChan, status: int
) -> None:
    fake.sendkeys, fake.bad_key_status = {"SCTanotherKey9999"}, status
    result = await (await make_channel()).send(ME, HI)
    expect(result, "failed", "config", None)
    assert "Custom authentication failed" in result.error
    assert KEY not in result.error


@pytest.mark.parametrize("code", [1, 20001, 40002])
async def test_any_other_code_is_a_permanent_failure_with_its_message(
    channel: ServerChanChannel, fake: FakeServerChan, code: int
) -> None:
    fake.fail_next(code)
    result = await channel.send(ME, HI)
    expect(result, "failed", "permanent", code)
    assert f"code {code}: fake error {code}" in result.error


# -- the budget: none unless the account's daily quota is configured -------------------


async def test_a_configured_daily_budget_waits_without_a_call(
    make_channel: MakeChannel, fake: FakeServerChan, clock: FakeClock
) -> None:
    channel = await make_channel(per_day=2)
    for _ in range(2):
        expect(await channel.send(ME, HI), "accepted", "none", 0)
    result = await channel.send(ME, HI)
    expect(result, "retry", "transient", None)
    assert result.retry_after == timedelta(days=1).total_seconds()
    assert fake.send_calls == 2


# -- HTTP and transport ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "outcome", "error_class"),
    [(500, "unknown", "uncertain"), (502, "unknown", "uncertain"), (404, "failed", "config")],
)
async def test_an_http_error_page(
    channel: ServerChanChannel,
    fake: FakeServerChan,
    status: int,
    outcome: str,
    error_class: str,
) -> None:
    fake.status_next(status)
    result = await channel.send(ME, HI)
    expect(result, outcome, error_class, None)
    assert f"HTTP {status}" in result.error


@pytest.mark.parametrize("delivered", [False, True], ids=["lost", "queued"])
async def test_malformed_json_is_unknown(
    channel: ServerChanChannel, fake: FakeServerChan, delivered: bool
) -> None:
    fake.garble_next(delivered=delivered)
    expect(await channel.send(ME, HI), "unknown", "uncertain", None)
    assert len(fake.pushes) == int(delivered)


@pytest.mark.parametrize("delivered", [False, True], ids=["lost", "queued"])
async def test_a_timeout_after_the_request_was_written_is_unknown(
    make_channel: MakeChannel, fake: FakeServerChan, delivered: bool
) -> None:
    channel = await make_channel(timeouts=SHORT)
    fake.hang_next(delivered=delivered)
    result = await channel.send(ME, HI)
    expect(result, "unknown", "uncertain", None)
    assert len(fake.pushes) == int(delivered)


async def test_a_reset_after_the_request_was_written_is_unknown_and_not_resent(
    channel: ServerChanChannel, fake: FakeServerChan
) -> None:
    fake.reset_next()
    expect(await channel.send(ME, HI), "unknown", "uncertain", None)
    assert fake.send_calls == 1


async def test_a_timeout_before_the_request_was_written_is_transient(
    make_channel: MakeChannel,
) -> None:
    async with unresolvable_session() as session:
        channel = await make_channel(
            "http://sctapi.invalid", timeouts=CONNECT_SHORT, session=session
        )
        result = await channel.send(ME, HI)
    expect(result, "retry", "transient", None)


async def test_a_refused_connection_is_transient(make_channel: MakeChannel) -> None:
    channel = await make_channel(f"http://127.0.0.1:{closed_port()}")
    expect(await channel.send(ME, HI), "retry", "transient", None)


# -- the SendKey, which sits in the URL path --------------------------------------------


async def test_the_sendkey_in_the_path_is_in_no_result_and_no_log_line(
    make_channel: MakeChannel, fake: FakeServerChan, caplog: pytest.LogCaptureFixture
) -> None:
    channel = await make_channel(timeouts=SHORT)
    results = []
    with caplog.at_level(logging.DEBUG):
        for fault in (fake.garble_next, fake.hang_next, fake.reset_next, lambda: None):
            fault()
            results.append(await channel.send(ME, HI))
        fake.sendkeys = set()
        results.append(await channel.send(ME, HI))
        async with echoing_proxy("/{key}.send") as proxy:
            echoed = await make_channel(proxy)
            results.append(await echoed.send(ME, HI))
        async with unresolvable_session() as session:
            unreachable = await make_channel(
                "http://sctapi.invalid", timeouts=CONNECT_SHORT, session=session
            )
            results.append(await unreachable.send(ME, HI))
    outcomes = [r.outcome for r in results]
    assert outcomes == ["unknown", "unknown", "unknown", "accepted", "failed", "unknown", "retry"]
    assert "/***.send" in results[5].error  # the echoed URL, its path redacted
    text = logged(caplog) + "\n".join(r.error for r in results)
    assert KEY not in text


async def test_an_echoing_error_page_keeps_no_part_of_the_sendkey(
    make_channel: MakeChannel,
) -> None:
    """A page that echoes the request is cut to a 200-character snippet; the key is
    taken out of the body before anything reads it (as `_exchange` does), so not even
    the front half of a key straddling the cut survives in the stored error."""
    channel = await make_channel()
    head = "<html><h1>404</h1><p>Cannot POST /"
    pad = "x" * (200 - len(head) - len(KEY) // 2)  # the cut falls inside the key
    reply = Reply(status=404, body=f"{head}{pad}{KEY}.send</p></html>".encode())
    verdict = channel.classify(channel._scrubbed(reply), ME)
    error = channel._result(verdict, channel._monotonic(), ME).error
    assert "HTTP 404" in error
    assert KEY[: len(KEY) // 4] not in error
