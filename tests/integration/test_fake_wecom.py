"""The sandbox: the fake WeCom message API behaves as documented, and the
WeCom-side client speaks the callback protocol, both on loopback."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any
from xml.etree import ElementTree

import aiohttp
import pytest
from aiohttp import web
from wechatpy.enterprise import parse_message
from wechatpy.messages import BaseMessage

from bot.crypto import BadSignature, CryptoError, WeComCrypto, parse_envelope
from bot.sandbox.fake_wecom import FakeWeCom, run_fake_wecom
from bot.sandbox.wecom_side import FIRST_MSG_ID, Reply, WeComSide, cdata

CORP_ID = "wwfakecorp000001"
SECRET = "s3cret-for-tests"
AGENT_ID = 1000002
TOKEN = "QDG6eK"
AES_KEY = "jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C"


class FakeClock:
    """A settable clock: tests move time instead of waiting for it."""

    def __init__(self) -> None:
        self.now = datetime(2024, 11, 29, 8, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


async def until(predicate: Callable[[], bool]) -> None:
    """Yield to the loop until predicate holds (no wall-clock sleeping)."""
    async with asyncio.timeout(10):
        while not predicate():  # noqa: ASYNC110 - the fake's state is in-process; sleep(0) only yields
            await asyncio.sleep(0)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def fake(clock: FakeClock) -> FakeWeCom:
    return FakeWeCom(
        corp_id=CORP_ID,
        secret=SECRET,
        agent_id=AGENT_ID,
        users={"ZhangSan", "LiSi", "WangWu"},
        unlicensed_users={"WangWu"},
        clock=clock,
    )


@pytest.fixture
async def base_url(fake: FakeWeCom) -> AsyncIterator[str]:
    async with run_fake_wecom(fake) as url:
        yield url


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def gettoken(
    http: aiohttp.ClientSession, base_url: str, corpid: str = CORP_ID, secret: str = SECRET
) -> dict[str, Any]:
    params = {"corpid": corpid, "corpsecret": secret}
    async with http.get(f"{base_url}/cgi-bin/gettoken", params=params) as response:
        assert response.status == 200
        body: dict[str, Any] = await response.json()
        return body


async def token_for(http: aiohttp.ClientSession, base_url: str) -> str:
    return str((await gettoken(http, base_url))["access_token"])


async def send(
    http: aiohttp.ClientSession, base_url: str, token: str, body: dict[str, Any] | bytes
) -> dict[str, Any]:
    url = f"{base_url}/cgi-bin/message/send"
    kwargs: dict[str, Any] = {"data": body} if isinstance(body, bytes) else {"json": body}
    async with http.post(url, params={"access_token": token}, **kwargs) as response:
        assert response.status == 200
        result: dict[str, Any] = await response.json()
        return result


def text(touser: str, content: str = "该喝水了", **extra: Any) -> dict[str, Any]:
    body = {"touser": touser, "msgtype": "text", "agentid": AGENT_ID, "text": {"content": content}}
    return {**body, **extra}


# -- gettoken -------------------------------------------------------------------------


async def test_gettoken_issues_a_token_for_7200_seconds(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom
) -> None:
    body = await gettoken(http, base_url)
    assert body["errcode"] == 0
    assert body["errmsg"] == "ok"
    assert body["expires_in"] == 7200
    assert body["access_token"]
    assert fake.gettoken_calls == 1


async def test_gettoken_returns_the_same_token_while_it_is_valid(
    http: aiohttp.ClientSession, base_url: str, clock: FakeClock
) -> None:
    first = await gettoken(http, base_url)
    clock.advance(seconds=600)
    second = await gettoken(http, base_url)
    assert second["access_token"] == first["access_token"]
    assert second["expires_in"] == 6600


@pytest.mark.parametrize(
    ("corpid", "secret", "errcode"),
    [(CORP_ID, "wrong", 40001), ("wwsomeoneelse", SECRET, 40013)],
    ids=["wrong-secret", "wrong-corpid"],
)
async def test_gettoken_with_wrong_credentials_gets_the_documented_errcode(
    http: aiohttp.ClientSession, base_url: str, corpid: str, secret: str, errcode: int
) -> None:
    body = await gettoken(http, base_url, corpid, secret)
    assert body["errcode"] == errcode
    assert f"devtool/query?e={errcode}" in body["errmsg"]
    assert "access_token" not in body


# -- message/send ---------------------------------------------------------------------


async def test_a_text_message_is_accepted_and_recorded(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom, clock: FakeClock
) -> None:
    result = await send(http, base_url, await token_for(http, base_url), text("ZhangSan"))
    assert result == {
        "errcode": 0,
        "errmsg": "ok",
        "invaliduser": "",
        "invalidparty": "",
        "invalidtag": "",
        "unlicenseduser": "",
        "msgid": result["msgid"],
    }
    [message] = fake.messages
    assert (message.recipient, message.msgtype, message.content) == ("ZhangSan", "text", "该喝水了")
    assert (message.msgid, message.received_at) == (result["msgid"], clock.now)
    assert fake.messages_to("zhangsan") == [message]


async def test_an_unknown_recipient_is_listed_in_invaliduser_and_the_rest_receive_it(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom
) -> None:
    token = await token_for(http, base_url)
    result = await send(http, base_url, token, text("ZhangSan|Ghost|LiSi"))
    assert (result["errcode"], result["invaliduser"]) == (0, "ghost")
    assert [m.recipient for m in fake.messages] == ["ZhangSan", "LiSi"]
    assert {m.msgid for m in fake.messages} == {result["msgid"]}


async def test_an_unlicensed_recipient_is_listed_in_unlicenseduser(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom
) -> None:
    result = await send(http, base_url, await token_for(http, base_url), text("LiSi|WangWu"))
    assert (result["errcode"], result["unlicenseduser"]) == (0, "wangwu")
    assert [m.recipient for m in fake.messages] == ["LiSi"]


@pytest.mark.parametrize("touser", ["Ghost", "Ghost|Nobody", "WangWu", ""])
async def test_when_no_recipient_is_deliverable_the_answer_is_81013(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom, touser: str
) -> None:
    result = await send(http, base_url, await token_for(http, base_url), text(touser))
    assert result["errcode"] == 81013
    assert "msgid" not in result
    assert fake.messages == []


async def test_the_default_fake_accepts_every_recipient(http: aiohttp.ClientSession) -> None:
    fake = FakeWeCom(corp_id=CORP_ID, secret=SECRET, agent_id=AGENT_ID)
    async with run_fake_wecom(fake) as base_url:
        result = await send(http, base_url, await token_for(http, base_url), text("anyone"))
    assert (result["errcode"], result["invaliduser"]) == (0, "")
    assert [m.recipient for m in fake.messages] == ["anyone"]


async def test_a_long_text_is_cut_to_2048_bytes_without_splitting_a_character(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom
) -> None:
    await send(http, base_url, await token_for(http, base_url), text("LiSi", "水" * 1000))
    content = fake.messages[0].content
    assert content == "水" * 682  # 682 * 3 = 2046 bytes; the 683rd would pass 2048
    assert fake.messages[0].payload["text"]["content"] == "水" * 1000


async def test_markdown_is_accepted(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom
) -> None:
    body = {"touser": "LiSi", "msgtype": "markdown", "agentid": AGENT_ID}
    body["markdown"] = {"content": "**晨报**"}
    result = await send(http, base_url, await token_for(http, base_url), body)
    assert result["errcode"] == 0
    assert (fake.messages[0].msgtype, fake.messages[0].content) == ("markdown", "**晨报**")


@pytest.mark.parametrize(
    ("card_type", "has_response_code"),
    [("button_interaction", True), ("vote_interaction", True), ("text_notice", False)],
)
async def test_only_interactive_template_cards_get_a_response_code(
    http: aiohttp.ClientSession, base_url: str, card_type: str, has_response_code: bool
) -> None:
    card = {"card_type": card_type, "task_id": "t1", "main_title": {"title": "复诊"}}
    body = {"touser": "LiSi", "msgtype": "template_card", "agentid": AGENT_ID}
    result = await send(
        http, base_url, await token_for(http, base_url), body | {"template_card": card}
    )
    assert result["errcode"] == 0
    assert ("response_code" in result) is has_response_code


@pytest.mark.parametrize(
    ("body", "errcode"),
    [
        (b"{not json", 47001),
        (b"[1, 2]", 47001),
        (text("LiSi", agentid=1000099), 301002),
        (text("LiSi", agentid="x"), 40056),
        ({k: v for k, v in text("LiSi").items() if k != "agentid"}, 40056),
        (text("LiSi", msgtype="voice"), 40008),
        (text("LiSi", ""), 44004),
        (text("LiSi") | {"text": {}}, 44004),
    ],
    ids=["not-json", "not-object", "other-agent", "bad-agentid", "no-agentid", "voice",
         "empty-text", "no-content"],
)  # fmt: skip
async def test_a_bad_request_gets_the_documented_errcode(
    http: aiohttp.ClientSession,
    base_url: str,
    fake: FakeWeCom,
    body: dict[str, Any] | bytes,
    errcode: int,
) -> None:
    result = await send(http, base_url, await token_for(http, base_url), body)
    assert result["errcode"] == errcode
    assert fake.messages == []


@pytest.mark.parametrize(
    ("token", "errcode"), [("", 41001), ("no-such-token", 40014)], ids=["missing", "unknown"]
)
async def test_a_missing_or_unknown_token_is_refused(
    http: aiohttp.ClientSession, base_url: str, token: str, errcode: int
) -> None:
    assert (await send(http, base_url, token, text("LiSi")))["errcode"] == errcode


async def test_a_token_past_its_7200_seconds_gets_42001_and_a_new_one_is_issued(
    http: aiohttp.ClientSession, base_url: str, clock: FakeClock
) -> None:
    token = await token_for(http, base_url)
    clock.advance(seconds=7200)
    assert (await send(http, base_url, token, text("LiSi")))["errcode"] == 42001
    fresh = await token_for(http, base_url)
    assert fresh != token
    assert (await send(http, base_url, fresh, text("LiSi")))["errcode"] == 0


async def test_expire_tokens_makes_every_issued_token_42001(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom
) -> None:
    token = await token_for(http, base_url)
    fake.expire_tokens()
    assert (await send(http, base_url, token, text("LiSi")))["errcode"] == 42001
    assert await token_for(http, base_url) != token


async def test_duplicate_check_drops_an_identical_message_inside_the_window(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom, clock: FakeClock
) -> None:
    token = await token_for(http, base_url)
    body = text("LiSi", enable_duplicate_check=1, duplicate_check_interval=600)
    first = await send(http, base_url, token, body)
    clock.advance(seconds=599)
    again = await send(http, base_url, token, body)
    clock.advance(seconds=1)
    later = await send(http, base_url, token, body)
    assert again == first
    assert later["msgid"] != first["msgid"]
    assert [m.msgid for m in fake.messages] == [first["msgid"], later["msgid"]]
    assert fake.duplicates_dropped == 1


async def test_without_duplicate_check_a_repeat_is_delivered_again(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom
) -> None:
    token = await token_for(http, base_url)
    await send(http, base_url, token, text("LiSi"))
    await send(http, base_url, token, text("LiSi"))
    assert len(fake.messages) == 2
    assert fake.send_calls == 2


# -- message/update_template_card --------------------------------------------------


def button_card(touser: str, task_id: str = "keeper-water-1-1") -> dict[str, Any]:
    card = {
        "card_type": "button_interaction",
        "main_title": {"title": "喝水提醒"},
        "task_id": task_id,
        "button_list": [{"text": "喝了", "style": 1, "key": "keeper:water:done"}],
    }
    return {"touser": touser, "msgtype": "template_card", "agentid": AGENT_ID} | {
        "template_card": card
    }


def grey_out(userids: list[str], response_code: str, **extra: Any) -> dict[str, Any]:
    body = {"userids": userids, "agentid": AGENT_ID, "response_code": response_code}
    return body | {"button": {"replace_name": "已喝 💧"}} | extra


async def update(
    http: aiohttp.ClientSession, base_url: str, token: str, body: dict[str, Any] | bytes
) -> dict[str, Any]:
    url = f"{base_url}/cgi-bin/message/update_template_card"
    kwargs: dict[str, Any] = {"data": body} if isinstance(body, bytes) else {"json": body}
    async with http.post(url, params={"access_token": token}, **kwargs) as response:
        assert response.status == 200
        result: dict[str, Any] = await response.json()
        return result


async def sent_card(
    http: aiohttp.ClientSession, base_url: str, token: str, touser: str = "LiSi"
) -> str:
    result = await send(http, base_url, token, button_card(touser))
    assert result["errcode"] == 0
    return str(result["response_code"])


async def test_an_interactive_card_records_its_response_code(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom
) -> None:
    token = await token_for(http, base_url)
    code = await sent_card(http, base_url, token, "ZhangSan|LiSi")
    assert [m.response_code for m in fake.messages] == [code, code]
    await send(http, base_url, token, text("LiSi"))
    assert fake.messages[-1].response_code is None


async def test_a_response_code_updates_the_card_once(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom, clock: FakeClock
) -> None:
    token = await token_for(http, base_url)
    code = await sent_card(http, base_url, token)
    result = await update(http, base_url, token, grey_out(["LiSi"], code))
    assert result == {"errcode": 0, "errmsg": "ok", "invaliduser": []}
    [card_update] = fake.card_updates_to("lisi")
    assert (card_update.recipient, card_update.response_code) == ("LiSi", code)
    assert (card_update.replace_name, card_update.card) == ("已喝 💧", None)
    assert (card_update.task_id, card_update.msgid) == ("keeper-water-1-1", fake.messages[0].msgid)
    assert card_update.received_at == clock.now
    again = await update(http, base_url, token, grey_out(["LiSi"], code))
    assert again["errcode"] == 42022  # assumed: the global table's "code已经被使用过"
    assert len(fake.card_updates) == 1
    assert fake.update_calls == 2


async def test_a_click_hands_out_a_second_code_for_the_same_card(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom
) -> None:
    token = await token_for(http, base_url)
    send_code = await sent_card(http, base_url, token)
    click_code = fake.issue_click_code(fake.messages[0])
    assert click_code != send_code
    assert (await update(http, base_url, token, grey_out(["LiSi"], click_code)))["errcode"] == 0
    assert (await update(http, base_url, token, grey_out(["LiSi"], send_code)))["errcode"] == 0
    assert [u.response_code for u in fake.card_updates] == [click_code, send_code]


async def test_only_interactive_cards_can_be_clicked(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom
) -> None:
    await send(http, base_url, await token_for(http, base_url), text("LiSi"))
    with pytest.raises(ValueError, match="interactive"):
        fake.issue_click_code(fake.messages[0])


async def test_an_unknown_response_code_is_refused(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom
) -> None:
    token = await token_for(http, base_url)
    result = await update(http, base_url, token, grey_out(["LiSi"], "never-issued"))
    assert result["errcode"] == 40058  # assumed: "不合法的参数"
    assert fake.card_updates == []


async def test_a_response_code_expires_after_72_hours(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom, clock: FakeClock
) -> None:
    token = await token_for(http, base_url)
    early, late = await sent_card(http, base_url, token), await sent_card(http, base_url, token)
    clock.advance(hours=72, seconds=-1)
    token = await token_for(http, base_url)  # the first token expired meanwhile
    assert (await update(http, base_url, token, grey_out(["LiSi"], early)))["errcode"] == 0
    clock.advance(seconds=1)
    assert (await update(http, base_url, token, grey_out(["LiSi"], late)))["errcode"] == 40058
    assert len(fake.card_updates) == 1


async def test_a_user_who_did_not_receive_the_card_is_listed_and_the_code_kept(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom
) -> None:
    token = await token_for(http, base_url)
    code = await sent_card(http, base_url, token, "LiSi")
    result = await update(http, base_url, token, grey_out(["ZhangSan", "Ghost"], code))
    assert (result["errcode"], result["invaliduser"]) == (0, ["zhangsan", "ghost"])
    assert fake.card_updates == []
    mixed = await update(http, base_url, token, grey_out(["ZhangSan", "LiSi"], code))
    assert (mixed["errcode"], mixed["invaliduser"]) == (0, ["zhangsan"])
    assert [u.recipient for u in fake.card_updates] == ["LiSi"]


async def test_a_whole_new_card_may_replace_the_old_one(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom
) -> None:
    token = await token_for(http, base_url)
    code = await sent_card(http, base_url, token)
    card = {"card_type": "text_notice", "main_title": {"title": "已喝"}}
    body = {"userids": ["LiSi"], "agentid": AGENT_ID, "response_code": code, "template_card": card}
    assert (await update(http, base_url, token, body))["errcode"] == 0
    assert (fake.card_updates[0].replace_name, fake.card_updates[0].card) == ("", card)


@pytest.mark.parametrize(
    ("body", "errcode"),
    [
        (b"{not json", 47001),
        (grey_out(["LiSi"], "CODE", agentid=1000099), 301002),
        (grey_out(["LiSi"], "CODE", agentid="x"), 40056),
        (grey_out([], "CODE"), 82001),
        (grey_out(["LiSi"], "CODE") | {"userids": "LiSi"}, 40058),
        (grey_out(["LiSi"], ""), 40058),
        (grey_out(["LiSi"], "CODE", button={"replace_name": ""}), 40058),
        (grey_out(["LiSi"], "CODE", button=None), 40058),
    ],
    ids=["not-json", "other-agent", "bad-agentid", "no-userids", "userids-not-a-list",
         "no-response-code", "empty-replace-name", "no-button"],
)  # fmt: skip
async def test_a_bad_update_gets_an_errcode_and_spends_nothing(
    http: aiohttp.ClientSession,
    base_url: str,
    fake: FakeWeCom,
    body: dict[str, Any] | bytes,
    errcode: int,
) -> None:
    token = await token_for(http, base_url)
    code = await sent_card(http, base_url, token)
    if isinstance(body, dict) and body["response_code"] == "CODE":
        body = body | {"response_code": code}
    assert (await update(http, base_url, token, body))["errcode"] == errcode
    assert (await update(http, base_url, token, grey_out(["LiSi"], code)))["errcode"] == 0


@pytest.mark.parametrize(("token", "errcode"), [("", 41001), ("no-such-token", 40014)])
async def test_an_update_checks_the_token_like_send(
    http: aiohttp.ClientSession, base_url: str, token: str, errcode: int
) -> None:
    code = await sent_card(http, base_url, await token_for(http, base_url))
    assert (await update(http, base_url, token, grey_out(["LiSi"], code)))["errcode"] == errcode


async def test_faults_can_target_the_update_route_alone(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom
) -> None:
    token = await token_for(http, base_url)
    code = await sent_card(http, base_url, token)
    fake.fail_next(-1, on="update_card")
    assert (await update(http, base_url, token, grey_out(["LiSi"], code)))["errcode"] == -1
    fake.reset_next(on="update_card", delivered=True)
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await update(http, base_url, token, grey_out(["LiSi"], code))
    assert len(fake.card_updates) == 1  # applied before the connection dropped
    assert (await update(http, base_url, token, grey_out(["LiSi"], code)))["errcode"] == 42022


# -- faults ---------------------------------------------------------------------------


@pytest.mark.parametrize("errcode", [-1, 45009, 60020, 40014, 42001])
async def test_fail_next_answers_with_the_errcode_then_recovers(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom, errcode: int
) -> None:
    token = await token_for(http, base_url)
    fake.fail_next(errcode, times=2)
    assert (await send(http, base_url, token, text("LiSi")))["errcode"] == errcode
    assert (await send(http, base_url, token, text("LiSi")))["errcode"] == errcode
    assert (await send(http, base_url, token, text("LiSi")))["errcode"] == 0
    assert len(fake.messages) == 1


async def test_a_fault_on_gettoken_leaves_message_send_alone(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom
) -> None:
    token = await token_for(http, base_url)
    fake.fail_next(-1, on="gettoken")
    assert (await send(http, base_url, token, text("LiSi")))["errcode"] == 0
    assert (await gettoken(http, base_url))["errcode"] == -1
    assert (await gettoken(http, base_url))["errcode"] == 0


async def test_status_next_answers_an_html_error_page(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom
) -> None:
    token = await token_for(http, base_url)
    fake.status_next(502)
    url = f"{base_url}/cgi-bin/message/send"
    async with http.post(url, params={"access_token": token}, json=text("LiSi")) as response:
        assert response.status == 502
        assert response.content_type == "text/html"
        assert "502 Bad Gateway" in await response.text()
    assert fake.messages == []
    assert (await send(http, base_url, token, text("LiSi")))["errcode"] == 0


@pytest.mark.parametrize("delivered", [False, True])
async def test_reset_next_drops_the_connection_after_reading_the_request(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom, delivered: bool
) -> None:
    token = await token_for(http, base_url)
    fake.reset_next(delivered=delivered)
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await send(http, base_url, token, text("LiSi"))
    assert len(fake.messages) == int(delivered)
    assert (await send(http, base_url, token, text("LiSi")))["errcode"] == 0


@pytest.mark.parametrize("delivered", [False, True])
async def test_hang_next_never_answers_so_the_client_times_out(
    http: aiohttp.ClientSession, base_url: str, fake: FakeWeCom, delivered: bool
) -> None:
    token = await token_for(http, base_url)
    fake.hang_next(delivered=delivered)
    url = f"{base_url}/cgi-bin/message/send"
    timeout = aiohttp.ClientTimeout(total=0.2)
    with pytest.raises(TimeoutError):
        await http.post(url, params={"access_token": token}, json=text("LiSi"), timeout=timeout)
    assert fake.hanging == 1
    assert len(fake.messages) == int(delivered)
    fake.release_hung()
    await until(lambda: fake.hanging == 0)
    assert (await send(http, base_url, token, text("LiSi")))["errcode"] == 0


async def test_shutting_the_fake_down_releases_a_hung_request(
    http: aiohttp.ClientSession,
) -> None:
    fake = FakeWeCom(corp_id=CORP_ID, secret=SECRET, agent_id=AGENT_ID)
    async with run_fake_wecom(fake) as base_url:
        token = await token_for(http, base_url)
        fake.hang_next(on="send")
        pending = asyncio.create_task(send(http, base_url, token, text("LiSi")))
        await until(lambda: fake.hanging == 1)
    assert fake.hanging == 0
    with pytest.raises(aiohttp.ClientConnectionError):
        await pending


# -- the WeCom-side client against a stand-in callback endpoint -----------------------


def stand_in_callback(
    crypto: WeComCrypto, seen: list[BaseMessage], reply_crypto: WeComCrypto
) -> web.Application:
    """A minimal callback endpoint, enough to exercise the client's wire format.

    Text gets an encrypted passive reply "收到：<content>"; events get an empty 200.
    """

    async def check_url(request: web.Request) -> web.Response:
        q = request.query
        try:
            echo = crypto.verify_url(q["msg_signature"], q["timestamp"], q["nonce"], q["echostr"])
        except CryptoError:
            return web.Response(status=403)
        return web.Response(text=echo)

    async def receive(request: web.Request) -> web.Response:
        q = request.query
        try:
            envelope = parse_envelope(await request.read())
            crypto.verify(q["msg_signature"], q["timestamp"], q["nonce"], envelope.encrypt)
            message = parse_message(crypto.decrypt(envelope.encrypt))
        except CryptoError:
            return web.Response(status=403)
        seen.append(message)
        if message.type != "text":
            return web.Response()
        # Not wechatpy's TextReply: it does not split "]]>" inside CDATA.
        reply = reply_xml(message.source, message.target, f"收到：{message.content}")
        return web.Response(
            text=reply_crypto.encrypt_reply(reply, timestamp=q["timestamp"], nonce=q["nonce"])
        )

    app = web.Application()
    app.router.add_get("/wecom/callback", check_url)
    app.router.add_post("/wecom/callback", receive)
    return app


def reply_xml(to_user: str, from_user: str, content: str) -> str:
    return (
        f"<xml><ToUserName>{cdata(to_user)}</ToUserName>"
        f"<FromUserName>{cdata(from_user)}</FromUserName><CreateTime>1</CreateTime>"
        f"<MsgType><![CDATA[text]]></MsgType><Content>{cdata(content)}</Content></xml>"
    )


@asynccontextmanager
async def serve(app: web.Application) -> AsyncIterator[str]:
    runner = web.AppRunner(app)
    await runner.setup()
    try:
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        host, port = runner.addresses[0][:2]
        yield f"http://{host}:{port}"
    finally:
        await runner.cleanup()


@pytest.fixture
def seen() -> list[BaseMessage]:
    return []


@pytest.fixture
async def side(seen: list[BaseMessage], clock: FakeClock) -> AsyncIterator[WeComSide]:
    crypto = WeComCrypto(TOKEN, AES_KEY, CORP_ID)
    async with (
        serve(stand_in_callback(crypto, seen, crypto)) as base_url,
        WeComSide(base_url, TOKEN, AES_KEY, CORP_ID, AGENT_ID, clock) as client,
    ):
        yield client


async def test_the_wecom_side_passes_the_url_check(side: WeComSide) -> None:
    for attempt in range(10):  # several ciphertexts, so '+', '/' and '=' all travel
        echostr = f"12884320235527761{attempt:02d}"
        assert await side.verify_url(echostr) == Reply(
            status=200, text=echostr, body=echostr.encode()
        )


async def test_a_text_message_arrives_as_wecom_builds_it(
    side: WeComSide, seen: list[BaseMessage], clock: FakeClock
) -> None:
    reply = await side.send_text("ZhangSan", "体重 72.4")
    assert (reply.status, reply.text, reply.msg_type) == (200, "收到：体重 72.4", "text")
    [message] = seen
    assert (message.type, message.source, message.target) == ("text", "ZhangSan", CORP_ID)
    assert (message.agent, message.id) == (AGENT_ID, FIRST_MSG_ID)
    assert message.create_time == clock.now


@pytest.mark.parametrize("content", ["a]]>b", "<xml>&amp;</xml>", "]]]]>>", "🙂\n第二行"])
async def test_content_survives_exactly_whatever_it_contains(
    side: WeComSide, seen: list[BaseMessage], content: str
) -> None:
    reply = await side.send_text("ZhangSan", content)
    assert seen[0].content == content
    assert reply.text == f"收到：{content}"


async def test_msg_ids_increase_unless_one_is_given_for_a_retry(
    side: WeComSide, seen: list[BaseMessage]
) -> None:
    await side.send_text("LiSi", "喝水")
    await side.send_text("LiSi", "喝水")
    await side.send_text("LiSi", "喝水", msg_id=FIRST_MSG_ID, create_time=1)
    assert [m.id for m in seen] == [FIRST_MSG_ID, FIRST_MSG_ID + 1, FIRST_MSG_ID]


async def test_events_arrive_with_their_fields_and_an_empty_reply_is_none(
    side: WeComSide, seen: list[BaseMessage]
) -> None:
    replies = [
        await side.subscribe("LiSi"),
        await side.enter_agent("LiSi"),
        await side.click("LiSi", "MENU_TODAY"),
        await side.template_card_event("LiSi", event_key="done:3", task_id="task-3"),
    ]
    assert {(r.status, r.text, r.body) for r in replies} == {(200, None, b"")}
    assert [m.event for m in seen[:3]] == ["subscribe", "enter_agent", "click"]
    assert seen[2].key == "MENU_TODAY"
    card = seen[3]._data  # wechatpy 1.8 does not know template_card_event
    assert (card["Event"], card["EventKey"], card["TaskId"]) == (
        "template_card_event",
        "done:3",
        "task-3",
    )


async def test_a_card_click_carries_its_response_code_and_can_be_retried(
    side: WeComSide, seen: list[BaseMessage]
) -> None:
    for _ in range(2):
        await side.template_card_event(
            "LiSi",
            event_key="keeper:water:done",
            task_id="keeper-water-1-1",
            response_code="fake-response-code-000002",
            create_time=1700000000,
        )
    first, retry = (m._data for m in seen)
    assert first == retry
    assert [first[f] for f in ("EventKey", "TaskId", "CardType", "ResponseCode", "CreateTime")] == [
        "keeper:water:done",
        "keeper-water-1-1",
        "button_interaction",
        "fake-response-code-000002",
        "1700000000",
    ]


async def test_a_reply_signed_with_another_token_is_refused(
    seen: list[BaseMessage], clock: FakeClock
) -> None:
    crypto = WeComCrypto(TOKEN, AES_KEY, CORP_ID)
    impostor = WeComCrypto("another-token", AES_KEY, CORP_ID)
    async with (
        serve(stand_in_callback(crypto, seen, impostor)) as base_url,
        WeComSide(base_url, TOKEN, AES_KEY, CORP_ID, AGENT_ID, clock) as side,
    ):
        with pytest.raises(BadSignature):
            await side.send_text("LiSi", "你好")


async def test_a_tampered_request_gets_the_endpoints_refusal(
    side: WeComSide, seen: list[BaseMessage]
) -> None:
    request = side.build("<xml><MsgType>text</MsgType></xml>")
    reply = await side.post(request.replace_query(msg_signature="0" * 40))
    assert (reply.status, reply.text) == (403, None)
    assert seen == []


async def test_a_reply_over_2048_bytes_is_flagged(side: WeComSide) -> None:
    assert not (await side.send_text("LiSi", "短")).exceeds_wecom_limit
    assert (await side.send_text("LiSi", "长" * 700)).exceeds_wecom_limit


async def test_a_callers_session_is_left_open(
    http: aiohttp.ClientSession, seen: list[BaseMessage], clock: FakeClock
) -> None:
    crypto = WeComCrypto(TOKEN, AES_KEY, CORP_ID)
    async with serve(stand_in_callback(crypto, seen, crypto)) as base_url:
        side = WeComSide(base_url, TOKEN, AES_KEY, CORP_ID, AGENT_ID, clock, session=http)
        async with side:
            await side.send_text("LiSi", "你好")
    assert not http.closed


@pytest.mark.parametrize("content", ["plain", "a]]>b", "]]>", "]]>]]>", "<&>"])
def test_cdata_wraps_any_text_so_xml_reads_it_back(content: str) -> None:
    assert ElementTree.fromstring(f"<a>{cdata(content)}</a>").text == content
