"""The WxPusher channel against the fake WxPusher on loopback: one test per outcome.

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

from bot.sandbox.fake_wxpusher import FakeWxPusher, run_fake_wxpusher
from scheduler.channels import OutboundMessage
from scheduler.channels.wxpusher import WxPusherChannel, WxPusherConfig, wxpusher_payload
from scheduler.channels.wxpusher_errors import classify_reply
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

TOKEN = TEST_SETTINGS.channels.wxpusher_app_token
ME, STRANGER = "UID_zhangsan0001", "UID_stranger0002"
HI = OutboundMessage(text="⏰ 14:00 复诊\n带上病历本")
MakeChannel = Callable[..., Awaitable[WxPusherChannel]]


@pytest.fixture
def fake(clock: FakeClock) -> FakeWxPusher:
    return FakeWxPusher(app_token=TOKEN, uids={ME}, clock=clock.now)


@pytest.fixture
async def base_url(fake: FakeWxPusher) -> AsyncIterator[str]:
    async with run_fake_wxpusher(fake) as url:
        yield url


@pytest.fixture
async def make_channel(base_url: str, clock: FakeClock) -> AsyncIterator[MakeChannel]:
    def build(api_base: str = base_url, session: Any = None, **kw: Any) -> WxPusherChannel:
        config = WxPusherConfig(**{"api_base": api_base, "app_token": TOKEN} | kw)
        return WxPusherChannel(config, session=session, now=clock.now)

    async with opened_channels(build) as make:
        yield make


@pytest.fixture
async def channel(make_channel: MakeChannel) -> WxPusherChannel:
    return await make_channel()


# -- accepted: a send task, not a delivery -----------------------------------------------


async def test_code_1000_is_accepted_with_the_targets_send_record_id(
    channel: WxPusherChannel, fake: FakeWxPusher
) -> None:
    result = await channel.send(ME, HI)
    expect(result, "accepted", "none", 1000)
    [task] = fake.messages
    assert result.provider_message_id == str(task.send_record_id)
    assert (task.uid, task.content, task.summary, task.content_type) == (
        ME,
        HI.text,
        "⏰ 14:00 复诊",
        1,
    )


async def test_a_uid_refused_inside_data_is_a_failure_despite_code_1000(
    channel: WxPusherChannel, fake: FakeWxPusher
) -> None:
    result = await channel.send(STRANGER, HI)
    expect(result, "failed", "permanent", 1001)
    assert "用户不存在或者已取消关注" in result.error
    assert fake.messages == []


@pytest.mark.parametrize(
    "data",
    [[], None, [{"uid": STRANGER, "code": 1000, "sendRecordId": 7}], "nonsense"],
    ids=["empty", "null", "someone-else", "not-a-list"],
)
def test_code_1000_without_an_item_for_our_uid_is_unknown(data: object) -> None:
    body = json.dumps({"code": 1000, "msg": "处理成功", "data": data, "success": True})
    verdict = classify_reply(200, body.encode(), ME)
    assert (verdict.rule.outcome, verdict.message_id) == ("unknown", None)


@pytest.mark.parametrize("recipient", ["", "zhangsan", "UID_a|UID_b", "TOPIC_1", "@all"])
async def test_anything_but_one_uid_is_refused_without_a_call(
    channel: WxPusherChannel, fake: FakeWxPusher, recipient: str
) -> None:
    expect(await channel.send(recipient, HI), "failed", "permanent", None)
    assert fake.send_calls == 0


async def test_content_over_40000_characters_is_refused_without_a_call(
    channel: WxPusherChannel, fake: FakeWxPusher
) -> None:
    expect(await channel.send(ME, OutboundMessage(text="水" * 40001)), "failed", "permanent", None)
    assert fake.send_calls == 0


# -- every other code is failed, with its msg --------------------------------------------


@pytest.mark.parametrize(
    ("code", "error_class"),
    [
        (1001, "permanent"),
        (1002, "config"),
        (1003, "config"),
        (1004, "permanent"),
        (1005, "permanent"),
        (1007, "permanent"),
        (1008, "permanent"),
        (1010, "permanent"),
    ],
)
async def test_every_other_code_is_failed_with_its_msg(
    channel: WxPusherChannel, fake: FakeWxPusher, code: int, error_class: str
) -> None:
    fake.fail_next(code)
    result = await channel.send(ME, HI)
    expect(result, "failed", error_class, code)
    assert f"code {code}: fake error {code}" in result.error
    assert fake.messages == []


async def test_a_wrong_app_token_is_a_config_failure_never_shown(
    make_channel: MakeChannel, fake: FakeWxPusher
) -> None:
    fake.app_token = "AT_theNewTokenAfterReset"  # reset in the console: ours is dead
    channel = await make_channel()
    result = await channel.send(ME, HI)
    expect(result, "failed", "config", 1002)
    assert TOKEN not in result.error


async def test_the_fakes_rate_limit_answers_1001_with_a_reason(
    make_channel: MakeChannel, fake: FakeWxPusher
) -> None:
    first, second = await make_channel(), await make_channel()
    for _ in range(20):
        await first.send(ME, HI)
    result = await second.send(ME, HI)
    expect(result, "failed", "permanent", 1001)
    assert "频率" in result.error


# -- the budget: about 2 a second ------------------------------------------------------


async def test_the_twenty_first_call_in_ten_seconds_waits_without_a_call(
    channel: WxPusherChannel, fake: FakeWxPusher, clock: FakeClock
) -> None:
    for _ in range(20):
        expect(await channel.send(ME, HI), "accepted", "none", 1000)
    result = await channel.send(ME, HI)
    expect(result, "retry", "transient", None)
    assert result.retry_after == 10.0
    assert fake.send_calls == 20
    clock.advance(timedelta(seconds=10))
    expect(await channel.send(ME, HI), "accepted", "none", 1000)


# -- HTTP and transport ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "outcome", "error_class"),
    [
        (500, "unknown", "uncertain"),
        (502, "unknown", "uncertain"),
        (504, "unknown", "uncertain"),
        (429, "retry", "transient"),
        (403, "failed", "config"),
    ],
)
async def test_an_http_error_page(
    channel: WxPusherChannel, fake: FakeWxPusher, status: int, outcome: str, error_class: str
) -> None:
    fake.status_next(status)
    result = await channel.send(ME, HI)
    expect(result, outcome, error_class, None)
    assert f"HTTP {status}" in result.error


@pytest.mark.parametrize("delivered", [False, True], ids=["lost", "created"])
async def test_malformed_json_is_unknown(
    channel: WxPusherChannel, fake: FakeWxPusher, delivered: bool
) -> None:
    fake.garble_next(delivered=delivered)
    expect(await channel.send(ME, HI), "unknown", "uncertain", None)
    assert len(fake.messages) == int(delivered)


@pytest.mark.parametrize("delivered", [False, True], ids=["lost", "created"])
async def test_a_timeout_after_the_request_was_written_is_unknown(
    make_channel: MakeChannel, fake: FakeWxPusher, delivered: bool
) -> None:
    channel = await make_channel(timeouts=SHORT)
    fake.hang_next(delivered=delivered)
    result = await channel.send(ME, HI)
    expect(result, "unknown", "uncertain", None)
    assert "timed out after the request was sent" in result.error
    assert len(fake.messages) == int(delivered)


async def test_a_reset_after_the_request_was_written_is_unknown_and_not_resent(
    channel: WxPusherChannel, fake: FakeWxPusher
) -> None:
    fake.reset_next(delivered=True)
    expect(await channel.send(ME, HI), "unknown", "uncertain", None)
    assert (fake.send_calls, len(fake.messages)) == (1, 1)


async def test_a_timeout_before_the_request_was_written_is_transient(
    make_channel: MakeChannel,
) -> None:
    async with unresolvable_session() as session:
        channel = await make_channel(
            "http://wxpusher.invalid", timeouts=CONNECT_SHORT, session=session
        )
        result = await channel.send(ME, HI)
    expect(result, "retry", "transient", None)
    assert "nothing was sent" in result.error


async def test_a_refused_connection_is_transient(make_channel: MakeChannel) -> None:
    channel = await make_channel(f"http://127.0.0.1:{closed_port()}")
    expect(await channel.send(ME, HI), "retry", "transient", None)


# -- the appToken ---------------------------------------------------------------------


async def test_the_app_token_is_in_no_result_and_no_log_line(
    make_channel: MakeChannel, fake: FakeWxPusher, caplog: pytest.LogCaptureFixture
) -> None:
    channel = await make_channel(timeouts=SHORT)
    results = []
    with caplog.at_level(logging.DEBUG):
        for fault in (fake.garble_next, fake.hang_next, fake.reset_next, lambda: None):
            fault()
            results.append(await channel.send(ME, HI))
        fake.app_token = "AT_rotatedElsewhere"
        results.append(await channel.send(ME, HI))
        async with echoing_proxy("/api/send/message") as proxy:
            echoed = await make_channel(proxy)
            results.append(await echoed.send(ME, HI))
    outcomes = [r.outcome for r in results]
    assert outcomes == ["unknown", "unknown", "unknown", "accepted", "failed", "unknown"]
    assert "appToken" in results[-1].error  # the echoed body, with the value redacted
    text = logged(caplog) + "\n".join(r.error for r in results)
    assert TOKEN not in text
    assert ME not in logged(caplog)


def test_the_payload_is_plain_text_to_one_uid_never_a_topic() -> None:
    payload = wxpusher_payload("AT_x", ME, "第一行\n第二行")
    assert payload == {
        "appToken": "AT_x",
        "content": "第一行\n第二行",
        "summary": "第一行",
        "contentType": 1,
        "uids": [ME],
    }
