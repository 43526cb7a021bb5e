"""Property: whatever reaches a JSON endpoint or the WeCom callback, the answer is never
a 5xx and nothing is logged at ERROR (issue 20 item 2: anyone could flood the log).

The JSON endpoints are read from the app's route table (`json_routes`), so a new one
is covered the day it is added. They are called with a valid token, so the body is
really read: arbitrary JSON, objects made of the contract's own keys and words (so
the checks behind the shape are reached too), instants in every offset from year 1
to 9999, plain strings and bytes, under several content types. The callback gets
arbitrary query strings and bodies, and correctly signed and encrypted odd XML,
which goes all the way into the conversation. `tests/integration/test_callback_fuzz.py`
keeps its fixed-seed hostile shapes; this file lets hypothesis look for new ones.

Examples share one server and database per engine (that is what the health check
suppression is for): state piles up as it would in production.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections.abc import AsyncIterator
from xml.sax.saxutils import escape

import pytest
from aiohttp import web
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.callback import CALLBACK_PATH
from bot.mp.routes import BASE
from bot.sandbox.fake_wechat import FakeWeChat
from bot.sandbox.wecom_side import WeComSide, cdata
from scheduler.clock import FakeClock
from tests.conftest import TEST_SETTINGS, create_test_app, wecom_side
from tests.integration.mp_support import Client, MiniProgram, make_fake, serve_api

FAST = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=40)
"""Any text a client can send (lone surrogates cannot be encoded, so none is sent)."""

# -- the mini-program's JSON endpoints --------------------------------------------------


def json_routes(app: web.Application) -> list[tuple[str, str]]:
    """(method, path) of every JSON endpoint: each plain route under the mini-program
    base, and every other POST route but the callback (a new one is JSON until it says
    otherwise)."""
    found = set()
    for route in app.router.routes():
        path = route.resource.get_info().get("path") if route.resource else None
        if path is None or route.method in ("HEAD", "*") or path == CALLBACK_PATH:
            continue
        if path.startswith(BASE + "/") or route.method == "POST":
            found.add((route.method, path))
    return sorted(found)


CONTRACT_KEYS = (
    "js_code", "code", "request_id", "template_id", "result", "action_id",
    "grant_request_id", "subscription_status", "occurred_at", "current_count",
    "daily_goal", "action", "interval_minutes", "wake", "sleep",
)  # fmt: skip
CONTRACT_WORDS = (
    "accept", "reject", "ban", "filter", "skipped", "enable", "close", "update",
    TEST_SETTINGS.mp.template_id, "07:30", "22:00", "24:00", "123456", "0b9f3c1e0b9f3c1e",
)  # fmt: skip
INSTANTS = st.builds(
    lambda moment, minutes: moment.replace(
        tzinfo=dt.timezone(dt.timedelta(minutes=minutes))
    ).isoformat(),
    st.datetimes(),
    st.integers(-23 * 60 - 59, 23 * 60 + 59),
)
"""ISO 8601 instants anywhere from year 1 to 9999, in any offset: some of them have no
UTC date at all."""
LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    TEXT,
    st.sampled_from(CONTRACT_WORDS),
    st.uuids().map(str),
    INSTANTS,
)
JSON = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(CONTRACT_KEYS) | TEXT, inner, max_size=5)
    ),
    max_leaves=12,
)
CONTRACT_OBJECTS = st.fixed_dictionaries({}, optional=dict.fromkeys(CONTRACT_KEYS, JSON))
BODIES = st.one_of(
    CONTRACT_OBJECTS.map(lambda value: json.dumps(value).encode()),
    JSON.map(lambda value: json.dumps(value).encode()),
    TEXT.map(str.encode),
    st.binary(max_size=200),
)
CONTENT_TYPES = st.sampled_from(
    ["application/json", "application/json", "application/json; charset=latin-1", "text/plain"]
)
DEEP = b"[" * 30_000


@pytest.fixture
def fake(clock: FakeClock) -> FakeWeChat:
    return make_fake(clock)


@pytest.fixture
async def phone(
    fake: FakeWeChat, clock: FakeClock, engine: AsyncEngine
) -> AsyncIterator[MiniProgram]:
    async with serve_api(fake, clock, engine) as (client, _):
        phone = MiniProgram(client, fake)
        await phone.login()
        yield phone


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.ERROR]


def test_the_json_routes_are_read_from_the_route_table() -> None:
    """The property below covers what this finds; here, that it finds them all."""
    from bot.app import create_app

    assert json_routes(create_app(TEST_SETTINGS)) == [
        ("GET", f"{BASE}/water"),
        ("POST", f"{BASE}/link"),
        ("POST", f"{BASE}/login"),
        ("POST", f"{BASE}/water/actions"),
        ("POST", f"{BASE}/water/grants"),
        ("POST", f"{BASE}/water/plan"),
    ]


@FAST
@given(body=BODIES, content_type=CONTENT_TYPES)
@example(body=DEEP, content_type="application/json")
@example(body=b'{"occurred_at": "0001-01-01T00:00:00+01:00"}', content_type="application/json")
async def test_no_body_gets_a_5xx_or_an_error_line_from_any_json_endpoint(
    phone: MiniProgram, caplog: pytest.LogCaptureFixture, body: bytes, content_type: str
) -> None:
    caplog.clear()
    api: Client = phone.api
    headers = {"Authorization": f"Bearer {phone.token}", "Content-Type": content_type}
    for method, path in json_routes(api.app):
        response = await api.request(method, path, data=body, headers=headers)
        answer = await response.json()  # the contract's shape, whatever happened
        assert response.status < 500, (method, path, answer)
        assert isinstance(answer, dict)
    assert _errors(caplog) == []


# -- the WeCom callback -----------------------------------------------------------------

QUERY_NAMES = ("msg_signature", "timestamp", "nonce", "echostr")
REQUIRED = ("FromUserName", "MsgType", "CreateTime")
TAGS = (
    *REQUIRED, "ToUserName", "Content", "MsgId", "AgentID", "Event", "EventKey", "TaskId",
    "CardType", "ResponseCode",
)  # fmt: skip
XML_TEXT = st.text(
    st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]) | st.sampled_from("\t\n"),
    max_size=40,
)
"""Text an XML document can hold (no control characters but tab and newline)."""
NUMBERS = st.one_of(
    st.integers(-(10**13), 10**13).map(str),
    st.sampled_from(["1764036000", "١٧٦٤٠٣٦٠٠٠", "²", "99999999999", "999999999999", " 1"]),
)
"""Numbers as a client may write them: signs, 13 digits, digits str.isdigit takes
and int() refuses or reads."""
FIELD_VALUES = st.one_of(
    XML_TEXT,
    st.sampled_from(["text", "event", "click", "template_card_event", "alice", "喝水"]),
    NUMBERS,
)
MESSAGES = st.fixed_dictionaries(
    {
        "FromUserName": st.sampled_from(["alice", "lisi"]) | XML_TEXT,
        "MsgType": st.sampled_from(["text", "event"]) | XML_TEXT,
        "CreateTime": st.just("{now}") | NUMBERS,
    },
    optional={tag: FIELD_VALUES for tag in TAGS if tag not in REQUIRED},
)
"""A message's fields: mostly the shape WeCom sends, so the odd values reach the
conversation, not only the reader."""


def _xml(fields: dict[str, str], wrapped: bool, now: int) -> str:
    parts = (
        f"<{tag}>{cdata(value) if wrapped else escape(value)}</{tag}>"
        for tag, value in fields.items()
    )
    return ("<xml>" + "".join(parts) + "</xml>").replace("{now}", str(now))


QUERIES = st.dictionaries(st.sampled_from(QUERY_NAMES) | TEXT, TEXT | NUMBERS, max_size=5)
RAW = st.tuples(st.sampled_from(["GET", "POST"]), QUERIES, st.binary(max_size=300) | BODIES)


@pytest.fixture
async def side(clock: FakeClock, engine: AsyncEngine) -> AsyncIterator[tuple[Client, WeComSide]]:
    from aiohttp.test_utils import TestClient, TestServer

    app = create_test_app(TEST_SETTINGS, clock=clock, engine=engine)
    async with TestClient(TestServer(app)) as client:
        yield client, wecom_side(client, TEST_SETTINGS, clock)


@FAST
@given(raw=RAW, message=st.tuples(MESSAGES, st.booleans()) | XML_TEXT, echo=XML_TEXT)
@example(
    raw=("GET", {"msg_signature": "x", "timestamp": "²", "nonce": "1", "echostr": "x"}, b""),
    message=({"FromUserName": "alice", "MsgType": "text", "CreateTime": "999999999999"}, True),
    echo="",
)
async def test_no_query_body_or_signed_message_gets_a_5xx_or_an_error_line_from_the_callback(
    side: tuple[Client, WeComSide],
    caplog: pytest.LogCaptureFixture,
    raw: tuple[str, dict[str, str], bytes],
    message: tuple[dict[str, str], bool] | str,
    echo: str,
) -> None:
    caplog.clear()
    client, wecom = side
    plain = message if isinstance(message, str) else _xml(*message, wecom.now())
    method, query, body = raw
    statuses = [(await client.request(method, CALLBACK_PATH, params=query, data=body)).status]
    signed = wecom.build(plain)  # correctly signed and encrypted, fresh timestamp
    response = await client.post(CALLBACK_PATH, params=signed.query, data=signed.body)
    statuses.append(response.status)
    echostr = wecom.crypto.encrypt(echo)
    check = signed.replace_query(
        msg_signature=wecom.crypto.signature(signed.query["timestamp"], "1", echostr),
        nonce="1",
        echostr=echostr,
    )
    statuses.append((await client.get(CALLBACK_PATH, params=check.query)).status)
    assert [status for status in statuses if status >= 500] == [], (raw, plain, echo)
    assert _errors(caplog) == []
