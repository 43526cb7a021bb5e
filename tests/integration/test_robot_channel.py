"""The WeCom group robot channel against the fake robot on loopback: one test per outcome.

Nothing here waits on the wall clock except the client's own 0.3 s timeout in the
hang and never-resolving tests, which is the behaviour under test.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest

from bot.sandbox.fake_robot import FakeRobot, add_robot_routes, run_fake_robot
from bot.sandbox.fake_webhook import serve
from bot.sandbox.fake_wecom import FakeWeCom, create_fake_wecom_app
from scheduler.channels import OutboundMessage
from scheduler.channels.robot import RobotChannel, RobotConfig, robot_payload
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

KEY = TEST_SETTINGS.channels.robot_key
HI = OutboundMessage(text="⏰ 14:00 复诊")
MakeChannel = Callable[..., Awaitable[RobotChannel]]


@pytest.fixture
def robot(clock: FakeClock) -> FakeRobot:
    return FakeRobot(keys={KEY}, clock=clock.now)


@pytest.fixture
async def base_url(robot: FakeRobot) -> AsyncIterator[str]:
    async with run_fake_robot(robot) as url:
        yield url


@pytest.fixture
async def make_channel(base_url: str, clock: FakeClock) -> AsyncIterator[MakeChannel]:
    """Channels against the fake (or another base URL); closed before the fake stops."""

    def build(api_base: str = base_url, session: Any = None, **kw: Any) -> RobotChannel:
        config = RobotConfig(**{"api_base": api_base, "key": KEY} | kw)
        return RobotChannel(config, session=session, now=clock.now)

    async with opened_channels(build) as make:
        yield make


@pytest.fixture
async def channel(make_channel: MakeChannel) -> RobotChannel:
    return await make_channel()


# -- accepted ------------------------------------------------------------------------


async def test_an_accepted_text_mentions_the_recipient_and_has_no_message_id(
    channel: RobotChannel, robot: FakeRobot
) -> None:
    result = await channel.send("ZhangSan", HI)
    expect(result, "accepted", "none", 0)
    assert result.provider_message_id is None  # the robot returns none
    [message] = robot.messages
    assert (message.key, message.msgtype, message.content) == (KEY, "text", HI.text)
    assert message.mentioned == ("ZhangSan",)


async def test_markdown_is_posted_as_markdown(make_channel: MakeChannel, robot: FakeRobot) -> None:
    channel = await make_channel(msgtype="markdown")
    expect(await channel.send("ZhangSan", HI), "accepted", "none", 0)
    assert robot.messages[0].msgtype == "markdown"


async def test_the_robot_served_from_the_wecom_fakes_host_works_the_same(
    clock: FakeClock, robot: FakeRobot
) -> None:
    wecom = FakeWeCom(clock=clock.now)
    app = add_robot_routes(create_fake_wecom_app(wecom), robot)
    async with serve(app, robot) as url, RobotChannel(RobotConfig(api_base=url, key=KEY)) as ch:
        expect(await ch.send("LiSi", HI), "accepted", "none", 0)
    assert [m.mentioned for m in robot.messages] == [("LiSi",)]


# -- refused without a call ------------------------------------------------------------


@pytest.mark.parametrize(
    ("msgtype", "limit"), [("text", 2048), ("markdown", 4096)], ids=["text", "markdown"]
)
async def test_content_over_the_limit_is_refused_without_a_call_and_at_the_limit_sent(
    make_channel: MakeChannel, robot: FakeRobot, msgtype: str, limit: int
) -> None:
    channel = await make_channel(msgtype=msgtype)
    text = "喝" * (limit // 3) + "a" * (limit % 3)  # exactly `limit` bytes of UTF-8
    over = await channel.send("ZhangSan", OutboundMessage(text=text + "a"))
    expect(over, "failed", "permanent", None)
    assert robot.send_calls == 0
    expect(await channel.send("ZhangSan", OutboundMessage(text=text)), "accepted", "none", 0)
    assert len(robot.messages[0].content.encode()) == limit


@pytest.mark.parametrize("recipient", ["@all", "ZhangSan|LiSi", "", "张三"])
async def test_anything_but_one_userid_is_refused_without_a_call(
    channel: RobotChannel, robot: FakeRobot, recipient: str
) -> None:
    expect(await channel.send(recipient, HI), "failed", "permanent", None)
    assert robot.send_calls == 0


# -- errcodes ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("errcode", "outcome", "error_class", "retry_after"),
    [
        (93000, "failed", "config", None),
        (93004, "failed", "config", None),
        (93008, "failed", "config", None),
        (45009, "retry", "transient", 60.0),
        (45033, "retry", "transient", None),
        (-1, "retry", "transient", None),
        (44004, "failed", "permanent", None),
        (45002, "failed", "permanent", None),
        (40008, "failed", "permanent", None),
        (99999, "failed", "permanent", None),
    ],
)
async def test_each_errcode_class(
    channel: RobotChannel,
    robot: FakeRobot,
    errcode: int,
    outcome: str,
    error_class: str,
    retry_after: float | None,
) -> None:
    robot.fail_next(errcode)
    result = await channel.send("ZhangSan", HI)
    expect(result, outcome, error_class, errcode)
    assert result.retry_after == retry_after
    assert f"errcode {errcode}" in result.error
    assert robot.messages == []


@pytest.mark.parametrize(
    ("act", "errcode"),
    [
        (lambda r: r.remove(KEY), 93000),
        (lambda r: r.disable(KEY), 93004),
        (lambda r: r.leave_group(KEY), 93008),
    ],
    ids=["removed", "disabled", "not-in-group"],
)
async def test_a_robot_the_console_broke_fails_and_holds_the_channel(
    channel: RobotChannel, robot: FakeRobot, act: Callable[[FakeRobot], None], errcode: int
) -> None:
    act(robot)
    expect(await channel.send("ZhangSan", HI), "failed", "config", errcode)


async def test_a_wrong_key_is_93000_and_never_in_the_error(
    make_channel: MakeChannel, robot: FakeRobot
) -> None:
    channel = await make_channel()
    channel.config = RobotConfig(api_base=channel.config.api_base, key="wrong-robot-key-0002")
    result = await channel.send("ZhangSan", HI)
    expect(result, "failed", "config", 93000)
    assert "wrong-robot-key-0002" not in result.error


# -- the budget: 20 a minute per robot ------------------------------------------------


async def test_the_twenty_first_message_in_a_minute_waits_without_a_call(
    channel: RobotChannel, robot: FakeRobot, clock: FakeClock
) -> None:
    for _ in range(20):
        expect(await channel.send("ZhangSan", HI), "accepted", "none", 0)
    clock.advance(timedelta(seconds=30))
    result = await channel.send("ZhangSan", HI)
    expect(result, "retry", "transient", None)
    assert result.retry_after == 30.0
    assert robot.send_calls == 20
    clock.advance(timedelta(seconds=30))
    expect(await channel.send("ZhangSan", HI), "accepted", "none", 0)


async def test_a_second_process_on_the_same_robot_meets_the_robots_own_limit(
    make_channel: MakeChannel, robot: FakeRobot
) -> None:
    first, second = await make_channel(), await make_channel()
    for _ in range(20):
        await first.send("ZhangSan", HI)
    result = await second.send("ZhangSan", HI)
    expect(result, "retry", "transient", 45009)
    assert result.retry_after == 60.0


# -- HTTP and transport ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "outcome", "error_class"),
    [
        (500, "unknown", "uncertain"),
        (502, "unknown", "uncertain"),
        (503, "unknown", "uncertain"),
        (429, "retry", "transient"),
        (404, "failed", "config"),
    ],
)
async def test_an_http_error_page(
    channel: RobotChannel, robot: FakeRobot, status: int, outcome: str, error_class: str
) -> None:
    robot.status_next(status)
    result = await channel.send("ZhangSan", HI)
    expect(result, outcome, error_class, None)
    assert f"HTTP {status}" in result.error


@pytest.mark.parametrize("delivered", [False, True], ids=["lost", "posted"])
async def test_malformed_json_is_unknown(
    channel: RobotChannel, robot: FakeRobot, delivered: bool
) -> None:
    robot.garble_next(delivered=delivered)
    expect(await channel.send("ZhangSan", HI), "unknown", "uncertain", None)
    assert len(robot.messages) == int(delivered)


@pytest.mark.parametrize("delivered", [False, True], ids=["lost", "posted"])
async def test_a_timeout_after_the_request_was_written_is_unknown(
    make_channel: MakeChannel, robot: FakeRobot, delivered: bool
) -> None:
    channel = await make_channel(timeouts=SHORT)
    robot.hang_next(delivered=delivered)
    result = await channel.send("ZhangSan", HI)
    expect(result, "unknown", "uncertain", None)
    assert "timed out after the request was sent" in result.error
    assert len(robot.messages) == int(delivered)


@pytest.mark.parametrize("delivered", [False, True], ids=["lost", "posted"])
async def test_a_reset_after_the_request_was_written_is_unknown_and_not_resent(
    channel: RobotChannel, robot: FakeRobot, delivered: bool
) -> None:
    robot.reset_next(delivered=delivered)
    expect(await channel.send("ZhangSan", HI), "unknown", "uncertain", None)
    assert robot.send_calls == 1


async def test_a_timeout_before_the_request_was_written_is_transient(
    make_channel: MakeChannel,
) -> None:
    async with unresolvable_session() as session:
        channel = await make_channel(
            "http://robot.invalid", timeouts=CONNECT_SHORT, session=session
        )
        result = await channel.send("ZhangSan", HI)
    expect(result, "retry", "transient", None)
    assert "nothing was sent" in result.error


async def test_a_refused_connection_is_transient(make_channel: MakeChannel) -> None:
    channel = await make_channel(f"http://127.0.0.1:{closed_port()}")
    expect(await channel.send("ZhangSan", HI), "retry", "transient", None)


# -- the key -------------------------------------------------------------------------


async def test_the_key_is_in_no_result_and_no_log_line(
    make_channel: MakeChannel, robot: FakeRobot, caplog: pytest.LogCaptureFixture
) -> None:
    channel = await make_channel(timeouts=SHORT)
    results = []
    with caplog.at_level(logging.DEBUG):
        for fault in (robot.garble_next, robot.hang_next, robot.reset_next, lambda: None):
            fault()
            results.append(await channel.send("ZhangSan", HI))
        robot.remove(KEY)
        results.append(await channel.send("ZhangSan", HI))
        async with echoing_proxy("/cgi-bin/webhook/send") as proxy:
            echoed = await make_channel(proxy)
            results.append(await echoed.send("ZhangSan", HI))
    assert [r.outcome for r in results] == [
        "unknown",
        "unknown",
        "unknown",
        "accepted",
        "failed",
        "unknown",
    ]
    assert "key=***" in results[-1].error
    text = logged(caplog) + "\n".join(r.error for r in results)
    assert KEY not in text
    assert "ZhangSan" not in logged(caplog)  # masked


def test_the_payload_mentions_one_member_in_text_only() -> None:
    assert robot_payload("LiSi", "hi", "text") == {
        "msgtype": "text",
        "text": {"content": "hi", "mentioned_list": ["LiSi"]},
    }
    assert robot_payload("LiSi", "hi", "markdown") == {
        "msgtype": "markdown",
        "markdown": {"content": "hi"},
    }
