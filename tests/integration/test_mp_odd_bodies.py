"""Odd bodies and odd tokens get the contract's 4xx, never a 500 and never an ERROR
line: anyone can send them, so each would otherwise flood the log (issue 20 item 2)."""

from __future__ import annotations

import datetime as dt
import logging

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from bot import signed
from bot.mp import auth as mp_auth
from bot.sandbox.fake_wechat import FakeWeChat
from bot.web import auth as web_auth
from scheduler.clock import FakeClock
from tests.conftest import TEST_SETTINGS
from tests.integration.conftest import row_counts
from tests.integration.mp_support import Client, MiniProgram, new_id

DEEP = "[" * 30_000
"""Deeper than any parser recursion limit: json.loads gives up with a RecursionError."""


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("path", ["/login", "/water/actions", "/water/grants", "/water/plan"])
async def test_json_nested_past_the_parsers_limit_is_a_bad_request(
    phone: MiniProgram, caplog: pytest.LogCaptureFixture, path: str
) -> None:
    headers = {"Authorization": f"Bearer {phone.token}", "Content-Type": "application/json"}
    response = await phone.api.post("/api/mp/v1" + path, data=DEEP, headers=headers)
    assert (response.status, (await response.json())["error"]) == (400, "bad_request")
    assert _errors(caplog) == []


@pytest.mark.parametrize("when", ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"])
async def test_an_occurred_at_no_utc_date_can_hold_is_a_bad_request(
    phone: MiniProgram, engine: AsyncEngine, caplog: pytest.LogCaptureFixture, when: str
) -> None:
    before = await row_counts(engine)
    answer = await phone.call(
        "POST", "/water/actions", phone.action_body(new_id(), when), status=400
    )
    assert answer["error"] == "bad_request"
    assert await row_counts(engine) == before
    assert _errors(caplog) == []


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "application/jsonx", ""]
)
async def test_a_body_that_is_not_declared_json_is_refused_unread(
    phone: MiniProgram, fake: FakeWeChat, engine: AsyncEngine, content_type: str
) -> None:
    before, calls = await row_counts(engine), fake.login_calls
    good = f'{{"js_code": "{fake.new_code("oMpOther0001")}"}}'
    headers = {"Authorization": f"Bearer {phone.token}"}
    if content_type:
        headers["Content-Type"] = content_type
    for path, body in [("/login", good), ("/water/plan", '{"action": "enable"}')]:
        response = await phone.api.post("/api/mp/v1" + path, data=body, headers=headers)
        answer = await response.json()
        assert (response.status, answer["error"]) == (415, "unsupported_media_type"), path
        assert answer["message"]
    assert await row_counts(engine) == before
    assert fake.login_calls == calls  # the AppSecret never left


@pytest.mark.parametrize("content_type", ["application/json; charset=utf-8", "Application/JSON"])
async def test_json_with_a_charset_or_in_capitals_is_still_json(
    phone: MiniProgram, content_type: str
) -> None:
    headers = {"Authorization": f"Bearer {phone.token}", "Content-Type": content_type}
    response = await phone.api.post(
        "/api/mp/v1/water/plan", data='{"action": "enable"}', headers=headers
    )
    assert response.status == 200


@pytest.mark.parametrize(
    ("content_type", "body", "status"),
    [
        ("application/json; charset=klingon", b'{"action": "enable"}', 200),  # read as UTF-8
        ("application/json", '{"action": "启用"}'.encode("gb18030"), 400),  # not UTF-8
    ],
)
async def test_json_is_read_as_utf8_whatever_its_charset_says(
    phone: MiniProgram, content_type: str, body: bytes, status: int
) -> None:
    headers = {"Authorization": f"Bearer {phone.token}", "Content-Type": content_type}
    response = await phone.api.post("/api/mp/v1/water/plan", data=body, headers=headers)
    assert response.status == status


def _signed(key: bytes, payload: str) -> str:
    return f"{payload}.{signed._sign(key, payload)}"


async def test_a_correctly_signed_token_expiring_past_year_9999_is_unauthorized(
    phone: MiniProgram, caplog: pytest.LogCaptureFixture
) -> None:
    key = mp_auth.token_key(TEST_SETTINGS.web_key())
    phone.token = _signed(key, f"mp1.1.{phone.openid}.{10**12}")
    assert (await phone.call("GET", "/water", status=401))["error"] == "unauthorized"
    assert _errors(caplog) == []


async def test_a_correctly_signed_cookie_expiring_past_year_9999_is_no_session(
    api: Client, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    cookie = _signed(TEST_SETTINGS.web_key(), f"v1.1.user.{10**12}")
    api.session.cookie_jar.update_cookies({web_auth.COOKIE_NAME: cookie})
    response = await api.get("/web/me", allow_redirects=False)
    assert response.status == 401
    assert _errors(caplog) == []
    assert clock.now() < dt.datetime.fromtimestamp(signed.LAST_EXPIRY, dt.UTC)
