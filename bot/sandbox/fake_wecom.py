"""A fake of WeCom's server-side message API, for tests and `keeper chat`.

It serves the endpoints keeper calls, on loopback, the way the WeCom
documentation describes them:

- `GET /cgi-bin/gettoken?corpid=&corpsecret=` ("获取access_token"),
- `POST /cgi-bin/message/send?access_token=` ("发送应用消息"),
- `POST /cgi-bin/message/update_template_card?access_token=` ("更新模版卡片消息",
  https://developer.work.weixin.qq.com/document/path/94888),

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
from typing import Any, Literal, get_args

from aiohttp import web

__all__ = [
    "FAKE_WECOM_KEY",
    "RESPONSE_CODE_TTL",
    "CardUpdate",
    "FakeWeCom",
    "ReceivedMessage",
    "create_fake_wecom_app",
    "run_fake_wecom",
]

Clock = Callable[[], datetime]
Route = Literal["gettoken", "send", "update_card"]
Json = dict[str, Any]

TOKEN_TTL = timedelta(seconds=7200)  # gettoken's documented expires_in
ISSUED_TOKENS: list[str] = []
"""Every access token any fake issued in this process: the tests scan logs for them."""
DUPLICATE_WINDOW_DEFAULT_S = 1800  # enable_duplicate_check's documented default...
DUPLICATE_WINDOW_MAX_S = 4 * 3600  # ...and maximum
CONTENT_MAX_BYTES = 2048  # text/markdown content limit; WeCom cuts longer text
INTERACTIVE_CARDS = frozenset({"button_interaction", "vote_interaction", "multiple_interaction"})
RESPONSE_CODE_TTL = timedelta(hours=72)  # documented: a response_code lives 72 hours

ERRMSGS = {
    -1: "system busy",
    40001: "invalid credential",
    40008: "invalid message type",
    40013: "invalid corpid",
    40014: "invalid access_token",
    40056: "invalid agentid",
    40058: "invalid parameter",
    41001: "access_token missing",
    42001: "access_token expired",
    44004: "empty content",
    45009: "api freq out of limit",
    42022: "code has been used, it can only be used once",
    47001: "data format error",
    48002: "api forbidden",
    60020: "not allow to access from your ip",
    81013: "user & party & tag all invalid",
    82001: "user & party & tag all empty",
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
    response_code: str | None = None  # interactive cards only: good for one update


@dataclass(frozen=True, kw_only=True, slots=True)
class CardUpdate:
    """One accepted update_template_card, for one recipient's copy of the card."""

    recipient: str
    response_code: str
    replace_name: str  # button.replace_name; "" when a whole new card was sent
    card: Json | None  # the replacement template_card, if one was sent
    task_id: str  # the updated card's task_id
    msgid: str  # the updated card's message
    received_at: datetime


@dataclass(kw_only=True, slots=True)
class _IssuedCode:
    """A response_code the fake handed out: whose card it updates, until when."""

    recipients: frozenset[str]  # lower-cased
    task_id: str
    msgid: str
    expires_at: datetime
    used: bool = False


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
        self.card_updates: list[CardUpdate] = []
        self.gettoken_calls = 0
        self.send_calls = 0
        self.update_calls = 0
        self.duplicates_dropped = 0
        self.hanging = 0  # requests currently held by hang_next
        self.latency = 0.0  # seconds before each message/send answer
        self._tokens: dict[str, datetime] = {}
        self._faults: dict[Route, deque[_Fault]] = {r: deque() for r in get_args(Route)}
        self._release = asyncio.Event()
        self._recent: dict[str, tuple[datetime, str]] = {}
        self._seq = 0
        self._codes: dict[str, _IssuedCode] = {}
        self._send_codes: dict[str, str] = {}  # msgid -> the code message/send answered

    # -- switches -----------------------------------------------------------------

    def fail_next(self, errcode: int, times: int = 1, *, on: Route = "send") -> None:
        """Answer the next `times` calls with HTTP 200 and this errcode."""
        self._queue(on, times, _Fault(kind="errcode", code=errcode))

    def hang_next(self, times: int = 1, *, on: Route = "send", delivered: bool = False) -> None:
        """Never answer the next calls (until `release_hung` or shutdown).

        With `delivered=True` the message (or card update) is recorded first: the
        sender cannot know, which is exactly the "unknown" outcome.
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

    def card_updates_to(self, user: str) -> list[CardUpdate]:
        """Card updates accepted for one recipient's cards, oldest first."""
        return [u for u in self.card_updates if u.recipient.lower() == user.lower()]

    def issue_click_code(self, message: ReceivedMessage) -> str:
        """The ResponseCode WeCom puts in the callback when `message`'s recipient
        clicks a button: a fresh code, good for one update of that card, 72 hours.

        Raises:
            ValueError: `message` is not an interactive card.
        """
        if message.response_code is None:
            raise ValueError("only interactive template cards can be clicked")
        issued = self._codes[message.response_code]
        return self._issue_code(
            frozenset({message.recipient.lower()}), issued.task_id, issued.msgid
        )

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
        if msgid in self._send_codes:  # documented: interactive cards only
            body["response_code"] = self._send_codes[msgid]
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
        code = self._card_code(payload, recipients, msgid)
        for user in recipients:
            self.messages.append(
                ReceivedMessage(
                    recipient=user,
                    msgtype=msgtype,
                    content=content,
                    msgid=msgid,
                    received_at=now,
                    payload=payload,
                    response_code=code,
                )
            )
        return msgid

    def _card_code(self, payload: Json, recipients: list[str], msgid: str) -> str | None:
        """message/send's response_code: for an interactive card only, one per message."""
        card = payload.get("template_card")
        if not isinstance(card, dict) or card.get("card_type") not in INTERACTIVE_CARDS:
            return None
        users = frozenset(u.lower() for u in recipients)
        code = self._issue_code(users, str(card.get("task_id", "")), msgid)
        self._send_codes[msgid] = code
        return code

    def _issue_code(self, recipients: frozenset[str], task_id: str, msgid: str) -> str:
        code = f"fake-response-code-{len(self._codes) + 1:06d}"
        expires_at = self.clock() + RESPONSE_CODE_TTL
        self._codes[code] = _IssuedCode(
            recipients=recipients, task_id=task_id, msgid=msgid, expires_at=expires_at
        )
        return code

    # -- message/update_template_card ---------------------------------------------

    def update_card(self, token: str, raw_body: bytes) -> Json:
        """Documented update_template_card: spend a response_code on its card.

        Accepted: a code this fake issued (message/send's answer or a click, see
        `issue_click_code`), unused, under 72 hours old, for `userids` that received
        that card; the others are listed lower-cased in `invaliduser`, a JSON array
        here (message/send has a `|` string). Where the docs are silent we assume:
        a reused code -> 42022 (global table: "code已经被使用过。只能使用一次"); an
        unknown or expired code, or no response_code/button -> 40058 ("不合法的参数");
        no userids -> 82001; no listed user received the card -> errcode 0 with all
        of them in `invaliduser`, and the code is not spent.
        """
        payload = _json_object(raw_body)
        code = self.token_error(token) or _update_error(payload, self.agent_id)
        if code or payload is None:
            return error_body(code)
        response_code = str(payload["response_code"])
        issued = self._codes.get(response_code)
        if issued is None:
            return error_body(40058)
        if issued.used:
            return error_body(42022)
        if self.clock() >= issued.expires_at:
            return error_body(40058)
        return self._apply_update(payload, response_code, issued)

    def _apply_update(self, payload: Json, response_code: str, issued: _IssuedCode) -> Json:
        users = [str(u) for u in payload["userids"]]
        valid = [u for u in users if u.lower() in issued.recipients]
        invalid = [u.lower() for u in users if u.lower() not in issued.recipients]
        if valid:
            issued.used = True
            replace_name, card = _replacement(payload) or ("", None)
            now = self.clock()
            self.card_updates.extend(
                CardUpdate(
                    recipient=user,
                    response_code=response_code,
                    replace_name=replace_name,
                    card=card,
                    task_id=issued.task_id,
                    msgid=issued.msgid,
                    received_at=now,
                )
                for user in valid
            )
        return {"errcode": 0, "errmsg": "ok", "invaliduser": invalid}


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


def _update_error(payload: Json | None, agent_id: int) -> int:
    """0, or the errcode for an update_template_card body we cannot act on."""
    if payload is None:
        return 47001
    if code := _agent_error(payload, agent_id):
        return code
    userids = payload.get("userids", [])
    if not isinstance(userids, list) or not all(isinstance(u, str) for u in userids):
        return 40058
    if not userids:
        return 82001
    response_code = payload.get("response_code")
    if not isinstance(response_code, str) or not response_code:
        return 40058
    return 40058 if _replacement(payload) is None else 0


def _replacement(payload: Json) -> tuple[str, Json | None] | None:
    """(button.replace_name, None) or ("", template_card); None when neither is usable."""
    button, card = payload.get("button"), payload.get("template_card")
    name = button.get("replace_name") if isinstance(button, dict) else None
    if isinstance(name, str) and name:
        return name, None
    if isinstance(card, dict) and card:
        return "", card
    return None


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
    return await _api_call(request, "send", fake.send, latency=fake.latency)


async def _update_card(request: web.Request) -> web.StreamResponse:
    fake = request.app[FAKE_WECOM_KEY]
    fake.update_calls += 1
    return await _api_call(request, "update_card", fake.update_card)


async def _api_call(
    request: web.Request,
    route: Route,
    handle: Callable[[str, bytes], Json],
    *,
    latency: float = 0.0,
) -> web.StreamResponse:
    """Answer a POST API call, or misbehave as the next queued fault for `route` says."""
    raw_body = await request.read()
    if latency > 0:
        await asyncio.sleep(latency)
    token = request.query.get("access_token", "")
    fault = request.app[FAKE_WECOM_KEY].take_fault(route)
    if fault is None:
        return web.json_response(handle(token, raw_body))
    if fault.delivered:
        handle(token, raw_body)
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
    app.router.add_post("/cgi-bin/message/update_template_card", _update_card)
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
