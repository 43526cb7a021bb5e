"""The sandbox's fakes of the one-call providers behave as their documentation says,
spoken to with raw HTTP on loopback (what the channels never send is checked here)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any, Literal

import aiohttp
import pytest

from bot.sandbox.fake_robot import FakeRobot, run_fake_robot
from bot.sandbox.fake_serverchan import FakeServerChan, run_fake_serverchan
from bot.sandbox.fake_webhook import GARBLED
from bot.sandbox.fake_wecomchan import FakeWecomchan, run_fake_wecomchan
from bot.sandbox.fake_wxpusher import FakeWxPusher, run_fake_wxpusher
from scheduler.clock import FakeClock

ROBOT_KEY, APP_TOKEN, SENDKEY, RELAY_KEY = "k-robot-0001", "AT_token0001", "SCTkey0001", "rk-0001"
UID = "UID_me0001"


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def post(http: aiohttp.ClientSession, url: str, **kw: Any) -> tuple[int, Any]:
    async with http.post(url, **kw) as response:
        body = await response.read()
        try:
            return response.status, json.loads(body)
        except ValueError:
            return response.status, body


# -- the group robot ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "errcode"),
    [
        (b"not json", 47001),
        ({"msgtype": "image", "image": {}}, 40008),
        ({"msgtype": "text", "text": {"content": ""}}, 44004),
        ({"msgtype": "text", "text": {}}, 44004),
        ({"msgtype": "text", "text": {"content": "a" * 2049}}, 45002),
        ({"msgtype": "markdown", "markdown": {"content": "a" * 4097}}, 45002),
        ({"msgtype": "markdown", "markdown": {"content": "a" * 4096}}, 0),
    ],
)
async def test_the_robot_checks_the_body_as_documented(
    http: aiohttp.ClientSession, clock: FakeClock, body: Any, errcode: int
) -> None:
    robot = FakeRobot(keys={ROBOT_KEY}, clock=clock.now)
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    async with run_fake_robot(robot) as url:
        status, answer = await post(http, f"{url}/cgi-bin/webhook/send?key={ROBOT_KEY}", data=raw)
    assert (status, answer["errcode"]) == (200, errcode)
    assert len(robot.messages) == int(errcode == 0)


async def test_the_robot_allows_20_a_minute_then_45009_until_the_minute_passes(
    http: aiohttp.ClientSession, clock: FakeClock
) -> None:
    robot = FakeRobot(keys={ROBOT_KEY}, clock=clock.now)
    text = {"msgtype": "text", "text": {"content": "hi"}}
    async with run_fake_robot(robot) as url:
        send = f"{url}/cgi-bin/webhook/send?key={ROBOT_KEY}"
        codes = [(await post(http, send, json=text))[1]["errcode"] for _ in range(21)]
        clock.advance(timedelta(minutes=1))
        codes.append((await post(http, send, json=text))[1]["errcode"])
    assert codes == [0] * 20 + [45009, 0]


async def test_a_garbled_answer_is_cut_json_with_status_200(
    http: aiohttp.ClientSession, clock: FakeClock
) -> None:
    robot = FakeRobot(keys={ROBOT_KEY}, clock=clock.now)
    robot.garble_next()
    async with run_fake_robot(robot) as url:
        status, body = await post(http, f"{url}/cgi-bin/webhook/send?key={ROBOT_KEY}", json={})
    assert (status, body) == (200, GARBLED)


# -- WxPusher ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "code", "msg"),
    [
        ({"appToken": APP_TOKEN, "content": "", "uids": [UID]}, 1001, "内容不能为空"),
        ({"appToken": APP_TOKEN, "content": "hi"}, 1001, "uids和topicIds不能同时为空"),
        ({"appToken": APP_TOKEN, "content": "a" * 40001, "uids": [UID]}, 1001, "内容过长"),
        ({"appToken": "AT_other", "content": "hi", "uids": [UID]}, 1002, "appToken"),
    ],
)
async def test_wxpusher_refuses_a_bad_call_with_a_code_and_a_msg(
    http: aiohttp.ClientSession, clock: FakeClock, body: Any, code: int, msg: str
) -> None:
    fake = FakeWxPusher(app_token=APP_TOKEN, uids={UID}, clock=clock.now)
    async with run_fake_wxpusher(fake) as url:
        status, answer = await post(http, f"{url}/api/send/message", json=body)
    assert (status, answer["code"], answer["success"]) == (200, code, False)
    assert msg in answer["msg"]


async def test_wxpusher_answers_each_uid_in_its_own_item_sharing_one_content_id(
    http: aiohttp.ClientSession, clock: FakeClock
) -> None:
    fake = FakeWxPusher(app_token=APP_TOKEN, uids={UID}, clock=clock.now)
    body = {"appToken": APP_TOKEN, "content": "hi", "uids": [UID, "UID_gone"]}
    async with run_fake_wxpusher(fake) as url:
        _, answer = await post(http, f"{url}/api/send/message", json=body)
    assert (answer["code"], answer["success"]) == (1000, True)
    mine, gone = answer["data"]
    assert (mine["uid"], mine["code"], gone["uid"], gone["code"]) == (UID, 1000, "UID_gone", 1001)
    assert mine["messageContentId"] == gone["messageContentId"]
    assert mine["sendRecordId"] == fake.messages[0].send_record_id
    assert gone["sendRecordId"] is None


# -- Server酱 ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"desp": "x"}, "title不能为空"),
        ({"title": "a\nb"}, "title不能包含换行"),
        ({"title": "a" * 33}, "title最长32个字"),
        ({"title": "ok", "desp": "a" * (32 * 1024 + 1)}, "desp最长32KB"),
    ],
)
async def test_serverchan_refuses_a_title_it_cannot_show(
    http: aiohttp.ClientSession, clock: FakeClock, fields: dict[str, str], reason: str
) -> None:
    fake = FakeServerChan(sendkeys={SENDKEY}, clock=clock.now)
    async with run_fake_serverchan(fake) as url:
        status, answer = await post(http, f"{url}/{SENDKEY}.send", data=fields)
    assert (status, answer["code"], answer["message"]) == (200, 1, reason)
    assert fake.pushes == []


async def test_serverchan_takes_json_too_and_answers_a_pushid(
    http: aiohttp.ClientSession, clock: FakeClock
) -> None:
    fake = FakeServerChan(sendkeys={SENDKEY}, clock=clock.now)
    async with run_fake_serverchan(fake) as url:
        _, answer = await post(http, f"{url}/{SENDKEY}.send", json={"title": "t", "desp": "d"})
    assert answer["code"] == 0
    assert answer["data"]["pushid"] == fake.pushes[0].pushid
    assert answer["data"]["error"] == "SUCCESS"


async def test_serverchans_quota_resets_on_the_next_beijing_day(
    http: aiohttp.ClientSession, clock: FakeClock
) -> None:
    fake = FakeServerChan(sendkeys={SENDKEY}, daily_quota=1, clock=clock.now)  # 10:00 Beijing
    async with run_fake_serverchan(fake) as url:
        first = await post(http, f"{url}/{SENDKEY}.send", data={"title": "t"})
        clock.advance(timedelta(hours=13, minutes=59))  # 23:59 Beijing: same day
        second = await post(http, f"{url}/{SENDKEY}.send", data={"title": "t"})
        clock.advance(timedelta(minutes=1))  # 00:00 Beijing
        third = await post(http, f"{url}/{SENDKEY}.send", data={"title": "t"})
    assert [a["code"] for _, a in (first, second, third)] == [0, 40001, 0]


# -- wecomchan ---------------------------------------------------------------------------


@pytest.mark.parametrize("flavour", ["php", "go"])
async def test_the_relay_reads_query_and_form_alike(
    http: aiohttp.ClientSession, clock: FakeClock, flavour: Literal["php", "go"]
) -> None:
    fake = FakeWecomchan(sendkey=RELAY_KEY, flavour=flavour, clock=clock.now)
    async with run_fake_wecomchan(fake) as url:
        _, by_query = await post(http, f"{url}/wecomchan?sendkey={RELAY_KEY}&msg=a")
        _, by_form = await post(http, f"{url}/wecomchan", data={"sendkey": RELAY_KEY, "msg": "b"})
    assert (by_query["errcode"], by_form["errcode"]) == (0, 0)
    assert [m.msg for m in fake.messages] == ["a", "b"]


async def test_the_php_relay_says_bad_params_for_an_empty_msg(
    http: aiohttp.ClientSession, clock: FakeClock
) -> None:
    fake = FakeWecomchan(sendkey=RELAY_KEY, clock=clock.now)
    async with run_fake_wecomchan(fake) as url:
        status, body = await post(http, f"{url}/index.php?sendkey={RELAY_KEY}&msg=")
    assert (status, body) == (200, b"bad params")
