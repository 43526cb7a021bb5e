"""A fake of WeCom's server-side message API, for tests and `keeper chat`.

It serves the two endpoints keeper calls, on loopback, the way the WeCom
documentation describes them:

- `GET /cgi-bin/gettoken?corpid=&corpsecret=` ("获取access_token"),
- `POST /cgi-bin/message/send?access_token=` ("发送应用消息"),

records what it received, and can be told to misbehave (an errcode, a hang, a
reset connection, an HTTP error page) so that delivery code can be tested
against every outcome the design classifies. Where WeCom's documentation is
silent, the docstring of the branch says what we assumed.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from http import HTTPStatus
from typing import Any, Literal

from aiohttp import web

__all__ = [
    "FAKE_WECOM_KEY",
    "FakeWeCom",
    "ReceivedMessage",
    "create_fake_wecom_app",
    "run_fake_wecom",
]

Clock = Callable[[], datetime]
Route = Literal["gettoken", "send"]
Json = dict[str, Any]

TOKEN_TTL = timedelta(seconds=7200)  # gettoken's documented expires_in
ISSUED_TOKENS: list[str] = []
"""Every access token any fake issued in this process: the tests scan logs for them."""
DUPLICATE_WINDOW_DEFAULT_S = 1800  # enable_duplicate_check's documented default...
DUPLICATE_WINDOW_MAX_S = 4 * 3600  # ...and maximum
CONTENT_MAX_BYTES = 2048  # text/markdown content limit; WeCom cuts longer text
INTERACTIVE_CARDS = frozenset({"button_interaction", "vote_interaction", "multiple_interaction"})

ERRMSGS = {
    -1: "system busy",
    40001: "invalid credential",
    40008: "invalid message type",
    40013: "invalid corpid",
    40014: "invalid access_token",
    40056: "invalid agentid",
    41001: "access_token missing",
    42001: "access_token expired",
    44004: "empty content",
    45009: "api freq out of limit",
    47001: "data format error",
    48002: "api forbidden",
    60020: "not allow to access from your ip",
    81013: "user & party & tag all invalid",
    301002: "not allow operate another agent with this accesstoken",
}


def _utc_now() -> datetime:
    return datetime.now(UTC)


def error_body(errcode: int) -> Json:
    """WeCom's error shape: errcode plus an errmsg with a hint and a query link."""
    text = ERRMSGS.get(errcode, "fake error")
    errmsg = (
        f"{text}, hint: [{secrets.token_hex(8)}], from ip: 127.0.0.1, "
        f"more info at https://open.work.weixin.qq.com/devtool/query?e={errcode}"
    )
    return {"errcode": errcode, "errmsg": errmsg}


@dataclass(frozen=True, kw_only=True, slots=True)
class ReceivedMessage:
    """One message the fake accepted for one recipient (as a phone would show it)."""

    recipient: str
    msgtype: str
    content: str  # text/markdown content (cut to 2048 bytes); template_card as JSON
    msgid: str
    received_at: datetime
    payload: Json  # the request body as sent


@dataclass(frozen=True, kw_only=True, slots=True)
class _Fault:
    kind: Literal["errcode", "hang", "reset", "status"]
    code: int = 0  # errcode or HTTP status
    delivered: bool = False  # hang/reset: record the message before misbehaving


class FakeWeCom:
    """State and protocol logic of the fake; the aiohttp app is a thin shell.

    Args:
        corp_id, secret, agent_id: the one app the fake knows.
        users: known UserIDs (case-insensitive); None accepts everyone.
        unlicensed_users: known users without an API licence (`unlicenseduser`).
        clock: returns an aware "now"; token expiry and receipts use it.

    `latency` (seconds, default 0) delays every message/send answer, as a distant
    API would: a benchmark's senders then wait on the network, not on the fake.
    """

    def __init__(
        self,
        *,
        corp_id: str = "wwsandboxcorp0001",
        secret: str = "sandbox-secret",
        agent_id: int = 1000002,
        users: Iterable[str] | None = None,
        unlicensed_users: Iterable[str] = (),
        clock: Clock = _utc_now,
    ) -> None:
        self.corp_id, self.secret, self.agent_id = corp_id, secret, agent_id
        self.users = None if users is None else {u.lower() for u in users}
        self.unlicensed_users = {u.lower() for u in unlicensed_users}
        self.clock = clock
        self.messages: list[ReceivedMessage] = []
        self.gettoken_calls = 0
        self.send_calls = 0
        self.duplicates_dropped = 0
        self.hanging = 0  # requests currently held by hang_next
        self.latency = 0.0  # seconds before each message/send answer
        self._tokens: dict[str, datetime] = {}
        self._faults: dict[Route, deque[_Fault]] = {"gettoken": deque(), "send": deque()}
        self._release = asyncio.Event()
        self._recent: dict[str, tuple[datetime, str]] = {}
        self._seq = 0

    # -- switches -----------------------------------------------------------------

    def fail_next(self, errcode: int, times: int = 1, *, on: Route = "send") -> None:
        """Answer the next `times` calls with HTTP 200 and this errcode."""
        self._queue(on, times, _Fault(kind="errcode", code=errcode))

    def hang_next(self, times: int = 1, *, on: Route = "send", delivered: bool = False) -> None:
        """Never answer the next calls (until `release_hung` or shutdown).

        With `delivered=True` the message is recorded first: the sender cannot
        know, which is exactly the "unknown" outcome.
        """
        self._queue(on, times, _Fault(kind="hang", delivered=delivered))

    def reset_next(self, times: int = 1, *, on: Route = "send", delivered: bool = False) -> None:
        """Read the next requests, then close the connection without answering."""
        self._queue(on, times, _Fault(kind="reset", delivered=delivered))

    def status_next(self, http_status: int, times: int = 1, *, on: Route = "send") -> None:
        """Answer the next calls with this HTTP status and an HTML page (a proxy's 502)."""
        self._queue(on, times, _Fault(kind="status", code=http_status))

    def expire_tokens(self) -> None:
        """Expire every issued token: they now get 42001 and gettoken issues a new one."""
        now = self.clock()
        self._tokens = {token: min(exp, now) for token, exp in self._tokens.items()}

    def release_hung(self) -> None:
        """Let every hung request finish (by closing its connection)."""
        self._release.set()
        self._release = asyncio.Event()

    def messages_to(self, user: str) -> list[ReceivedMessage]:
        """Messages accepted for one recipient, oldest first."""
        return [m for m in self.messages if m.recipient.lower() == user.lower()]

    def _queue(self, route: Route, times: int, fault: _Fault) -> None:
        self._faults[route].extend([fault] * times)

    def take_fault(self, route: Route) -> _Fault | None:
        """Pop the next queued fault for a route, if any."""
        queue = self._faults[route]
        return queue.popleft() if queue else None

    async def wait_released(self) -> None:
        """Block until `release_hung` (called on shutdown at the latest)."""
        self.hanging += 1
        try:
            await self._release.wait()
        finally:
            self.hanging -= 1

    # -- gettoken -----------------------------------------------------------------

    def gettoken(self, corpid: str, corpsecret: str) -> Json:
        """Documented gettoken: 40013 for a wrong corpid, 40001 for a wrong secret.

        Within its validity the same token is returned again ("有效期内重复获取
        返回相同结果"), with the seconds it has left.
        """
        if corpid != self.corp_id:
            return error_body(40013)
        if corpsecret != self.secret:
            return error_body(40001)
        now = self.clock()
        token = next((t for t, exp in self._tokens.items() if exp > now), None)
        if token is None:
            token = secrets.token_urlsafe(48)
            ISSUED_TOKENS.append(token)
            self._tokens[token] = now + TOKEN_TTL
        expires_in = int((self._tokens[token] - now).total_seconds())
        return {"errcode": 0, "errmsg": "ok", "access_token": token, "expires_in": expires_in}

    def token_error(self, token: str) -> int:
        """0 for a valid token; 41001 missing, 40014 unknown, 42001 expired."""
        if not token:
            return 41001
        expires_at = self._tokens.get(token)
        if expires_at is None:
            return 40014
        return 42001 if self.clock() >= expires_at else 0

    # -- message/send -------------------------------------------------------------

    def send(self, token: str, raw_body: bytes) -> Json:
        """Documented message/send: validate, deliver to the valid recipients.

        Invalid recipients are listed (lower-cased) in `invaliduser` with
        errcode 0; when no recipient is deliverable the answer is 81013.
        """
        payload = _json_object(raw_body)
        code = self.token_error(token) or _payload_error(payload, self.agent_id)
        if code or payload is None:
            return error_body(code)
        return self._deliver(payload, _content_of(payload) or "")  # validated: not None

    def _deliver(self, payload: Json, content: str) -> Json:
        valid, invalid, unlicensed = self._split_recipients(str(payload.get("touser", "")))
        lists = {"invaliduser": "|".join(invalid), "invalidparty": "", "invalidtag": ""}
        lists["unlicenseduser"] = "|".join(unlicensed)
        if not valid:
            return {**error_body(81013), **lists}
        msgid = self._duplicate_of(payload, valid)
        if msgid is None:
            msgid = self._record(payload, content, valid)
            self._remember(payload, valid, msgid)
        body: Json = {"errcode": 0, "errmsg": "ok", **lists, "msgid": msgid}
        card = payload.get("template_card")
        if isinstance(card, dict) and card.get("card_type") in INTERACTIVE_CARDS:
            body["response_code"] = f"fake-response-code-{self._seq}"  # documented: these only
        return body

    def _split_recipients(self, touser: str) -> tuple[list[str], list[str], list[str]]:
        valid, invalid, unlicensed = [], [], []
        for user in filter(None, touser.split("|")):
            if self.users is not None and user.lower() not in self.users:
                invalid.append(user.lower())  # documented: "统一转为小写"
            elif user.lower() in self.unlicensed_users:
                unlicensed.append(user.lower())
            else:
                valid.append(user)
        return valid, invalid, unlicensed

    def _duplicate_of(self, payload: Json, recipients: list[str]) -> str | None:
        """enable_duplicate_check: an identical message inside the window is dropped.

        The documentation does not say what the API answers then; we assume
        errcode 0 with the first message's msgid, and nothing is delivered.
        """
        seen = self._recent.get(_duplicate_key(payload, recipients))
        if payload.get("enable_duplicate_check") != 1 or seen is None:
            return None
        window = payload.get("duplicate_check_interval", DUPLICATE_WINDOW_DEFAULT_S)
        window_s = min(window, DUPLICATE_WINDOW_MAX_S) if isinstance(window, int) else 0
        if self.clock() - seen[0] >= timedelta(seconds=window_s):
            return None
        self.duplicates_dropped += 1
        return seen[1]

    def _remember(self, payload: Json, recipients: list[str], msgid: str) -> None:
        if payload.get("enable_duplicate_check") == 1:
            self._recent[_duplicate_key(payload, recipients)] = (self.clock(), msgid)

    def _record(self, payload: Json, content: str, recipients: list[str]) -> str:
        self._seq += 1
        msgid = f"fakemsgid{self._seq:06d}"
        msgtype, now = str(payload["msgtype"]), self.clock()
        for user in recipients:
            self.messages.append(
                ReceivedMessage(
                    recipient=user,
                    msgtype=msgtype,
                    content=content,
                    msgid=msgid,
                    received_at=now,
                    payload=payload,
                )
            )
        return msgid


def _json_object(raw_body: bytes) -> Json | None:
    try:
        value = json.loads(raw_body)
    except ValueError:  # also covers UnicodeDecodeError
        return None
    return value if isinstance(value, dict) else None


def _agent_error(payload: Json, agent_id: int) -> int:
    """40056 for a missing or non-integer agentid; 301002 for another app's."""
    agentid = payload.get("agentid")
    if isinstance(agentid, str) and agentid.isdigit():
        agentid = int(agentid)
    if not isinstance(agentid, int) or isinstance(agentid, bool):
        return 40056
    return 301002 if agentid != agent_id else 0


def _payload_error(payload: Json | None, agent_id: int) -> int:
    """0, or the errcode for a body that is not JSON, for another app, or empty."""
    if payload is None:
        return 47001
    if code := _agent_error(payload, agent_id):
        return code
    if payload.get("msgtype") not in ("text", "markdown", "template_card"):
        return 40008
    return 44004 if _content_of(payload) is None else 0


def _content_of(payload: Json) -> str | None:
    """The content as a phone shows it (cut to 2048 bytes), or None when empty."""
    msgtype = payload.get("msgtype")
    section = payload.get(str(msgtype))
    if not isinstance(section, dict) or not section:
        return None
    if msgtype == "template_card":
        return json.dumps(section, ensure_ascii=False, sort_keys=True)
    text = section.get("content")
    if not isinstance(text, str) or not text:
        return None
    return text.encode("utf-8")[:CONTENT_MAX_BYTES].decode("utf-8", "ignore")


def _duplicate_key(payload: Json, recipients: list[str]) -> str:
    msgtype = payload.get("msgtype")
    parts = {"to": sorted(u.lower() for u in recipients), "type": msgtype}
    parts["body"] = payload.get(str(msgtype))
    return json.dumps(parts, ensure_ascii=False, sort_keys=True)


# -- the aiohttp shell ----------------------------------------------------------------

FAKE_WECOM_KEY = web.AppKey("fake_wecom", FakeWeCom)

ERROR_PAGE = "<html><head><title>{0}</title></head><body><h1>{0}</h1></body></html>"


async def _gettoken(request: web.Request) -> web.StreamResponse:
    fake = request.app[FAKE_WECOM_KEY]
    fake.gettoken_calls += 1
    fault = fake.take_fault("gettoken")
    if fault is not None:
        return await _misbehave(request, fault)
    query = request.query
    return web.json_response(fake.gettoken(query.get("corpid", ""), query.get("corpsecret", "")))


async def _send(request: web.Request) -> web.StreamResponse:
    fake = request.app[FAKE_WECOM_KEY]
    fake.send_calls += 1
    raw_body = await request.read()
    if fake.latency > 0:
        await asyncio.sleep(fake.latency)
    token = request.query.get("access_token", "")
    fault = fake.take_fault("send")
    if fault is None:
        return web.json_response(fake.send(token, raw_body))
    if fault.delivered:
        fake.send(token, raw_body)
    return await _misbehave(request, fault)


async def _misbehave(request: web.Request, fault: _Fault) -> web.StreamResponse:
    if fault.kind == "errcode":
        return web.json_response(error_body(fault.code))
    if fault.kind == "status":
        page = ERROR_PAGE.format(f"{fault.code} {_reason(fault.code)}")
        return web.Response(status=fault.code, text=page, content_type="text/html")
    if fault.kind == "hang":
        await request.app[FAKE_WECOM_KEY].wait_released()
    # reset (and a released hang): drop the connection without a response.
    if request.transport is not None:
        request.transport.close()
    return web.Response()


def _reason(http_status: int) -> str:
    try:
        return HTTPStatus(http_status).phrase
    except ValueError:
        return "Error"


async def _release_on_shutdown(app: web.Application) -> None:
    app[FAKE_WECOM_KEY].release_hung()


def create_fake_wecom_app(fake: FakeWeCom) -> web.Application:
    """The fake as an aiohttp app; hung requests are released on shutdown."""
    app = web.Application()
    app[FAKE_WECOM_KEY] = fake
    app.router.add_get("/cgi-bin/gettoken", _gettoken)
    app.router.add_post("/cgi-bin/message/send", _send)
    app.on_shutdown.append(_release_on_shutdown)
    return app


@asynccontextmanager
async def run_fake_wecom(fake: FakeWeCom) -> AsyncIterator[str]:
    """Serve the fake on 127.0.0.1, a free port; yield its base URL.

    On exit hung requests are released and the server is closed, so tests
    leak neither tasks nor sockets.
    """
    # No access log: its request lines would carry corpsecret and access_token.
    runner = web.AppRunner(create_fake_wecom_app(fake), access_log=None, shutdown_timeout=5.0)
    await runner.setup()
    try:
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        host, port = runner.addresses[0][:2]
        yield f"http://{host}:{port}"
    finally:
        fake.release_hung()
        await runner.cleanup()
