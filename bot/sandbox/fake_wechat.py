"""A fake of the WeChat server side a mini-program backend talks to, for tests and the
sandbox: code2Session, the stable access token, and subscribe messages (PROVIDERS §5).

- `GET /sns/jscode2session?appid&secret&js_code&grant_type`: a code from `new_code`
  answers its openid once; a used or unknown code is 40029. Login faults queue on
  their own (`fail_login_next(40029 | 45011 | 40226 | -1)`, `status_login_next(502)`,
  `hang_login_next()`, `reset_login_next()`, `garble_login_next()`).
- `POST /cgi-bin/stable_token {grant_type, appid, secret, force_refresh}`: a token
  good for 7200 s (issued tokens are listed in `ISSUED_TOKENS` for the leak test);
  a wrong appid is 40013, a wrong secret 40001. `expire_tokens()` makes every
  issued token answer 42001. Faults: route `"gettoken"`.
- `POST /cgi-bin/message/subscribe/send?access_token=`: checks the token (40001 /
  42001), the template (40037), the page (41030), every `data` value against its
  key type (47003: thing <= 20 characters, no newline; time as `YYYY-MM-DD HH:MM`
  or `HH:MM`; number digits only), then the openid's one-time quota: each
  `subscribe(openid)` is one accept the fake was told about, each accepted send
  uses one, none left is 43101. Accepted sends are recorded in `sent` with their
  msgid. Faults: route `"send"`, the other fakes' switches (`fail_next(47003)`,
  `status_next(502)`, `hang_next()`, `reset_next()`, `garble_next()`, each with
  `delivered=` where it applies).

Where the docs are silent we assumed: the quota check comes last (a malformed message
spends nothing), and `force_refresh` returns a new token at once (the real limit of
20 a day is not enforced).
"""

from __future__ import annotations

import itertools
import re
import secrets
from collections import Counter, deque
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from aiohttp import web

from bot.sandbox.fake_faults import Fault
from bot.sandbox.fake_protocol import Clock, Json, json_object
from bot.sandbox.fake_webhook import GARBLED, WebhookFaults, act_out, serve

__all__ = ["ISSUED_TOKENS", "FakeWeChat", "SubscribeMessage", "run_fake_wechat"]

ISSUED_TOKENS: list[str] = []
"""Every access token any fake issued in this process (the log-leak test checks them)."""
TOKEN_SECONDS = 7200
_TIME = re.compile(r"(\d{4}-\d{2}-\d{2} )?\d{2}:\d{2}")


def wx_error(code: int, msg: str = "") -> Json:
    return {"errcode": code, "errmsg": msg or f"fake error {code}"}


@dataclass(frozen=True, kw_only=True, slots=True)
class SubscribeMessage:
    """One subscribe message the fake accepted."""

    touser: str
    template_id: str
    page: str | None
    data: dict[str, str]
    msgid: int
    received_at: datetime


def _utc_now() -> datetime:
    return datetime.now(UTC)


class FakeWeChat(WebhookFaults):
    """One mini-program (AppID, secret, template), its users' codes and quotas."""

    def __init__(
        self,
        *,
        appid: str = "wx0123456789abcdef",
        secret: str = "5ec7e7000000000000000000000000a1",
        template_id: str = "tmpl-water-0001",
        pages: tuple[str, ...] = ("pages/water/water",),
        clock: Clock = _utc_now,
    ) -> None:
        super().__init__()
        self.appid, self.secret, self.template_id = appid, secret, template_id
        self.pages, self.clock = pages, clock
        self.sent: list[SubscribeMessage] = []
        self.quota: Counter[str] = Counter()
        self.send_calls = self.token_calls = self.login_calls = 0
        self._codes: dict[str, str] = {}
        self._tokens: dict[str, datetime] = {}
        self._login_faults: deque[Fault] = deque()
        self._ids = itertools.count(1988810812324364291)

    # -- the switches a test flips -----------------------------------------------------

    def new_code(self, openid: str) -> str:
        """A js_code `wx.login` would give this user: good for one code2Session."""
        code = secrets.token_hex(16)
        self._codes[code] = openid
        return code

    def subscribe(self, openid: str, times: int = 1) -> None:
        """The user accepted the template `times` times: that many sends are allowed."""
        self.quota[openid] += times

    def expire_tokens(self) -> None:
        """Every issued token is now expired (42001), as after WeChat's own rotation."""
        self._tokens = dict.fromkeys(self._tokens, self.clock() - timedelta(seconds=1))

    def fail_login_next(self, errcode: int) -> None:
        self._login_faults.append(Fault(kind="errcode", code=errcode))

    def status_login_next(self, http_status: int) -> None:
        self._login_faults.append(Fault(kind="status", code=http_status))

    def garble_login_next(self) -> None:
        self._login_faults.append(Fault(kind="status", code=200))

    def hang_login_next(self) -> None:
        self._login_faults.append(Fault(kind="hang"))

    def reset_login_next(self) -> None:
        self._login_faults.append(Fault(kind="reset"))

    def take_login_fault(self) -> Fault | None:
        return self._login_faults.popleft() if self._login_faults else None

    # -- the documented behaviour --------------------------------------------------------

    def code2session(self, query: dict[str, str]) -> Json:
        if query.get("appid") != self.appid or query.get("secret") != self.secret:
            return wx_error(40125 if query.get("appid") == self.appid else 40013)
        openid = self._codes.pop(query.get("js_code", ""), None)
        if openid is None:
            return wx_error(40029, "invalid code")
        return {"openid": openid, "session_key": secrets.token_hex(12)}

    def stable_token(self, raw_body: bytes) -> Json:
        body = json_object(raw_body) or {}
        if body.get("appid") != self.appid:
            return wx_error(40013, "invalid appid")
        if body.get("secret") != self.secret:
            return wx_error(40001, "invalid credential")
        token = f"mpfake-{len(ISSUED_TOKENS)}-{secrets.token_hex(20)}"
        ISSUED_TOKENS.append(token)
        self._tokens[token] = self.clock() + timedelta(seconds=TOKEN_SECONDS)
        return {"access_token": token, "expires_in": TOKEN_SECONDS}

    def send(self, token: str, raw_body: bytes) -> Json:
        expires = self._tokens.get(token)
        if expires is None:
            return wx_error(40001, "invalid credential, access_token is invalid")
        if expires <= self.clock():
            return wx_error(42001, "access_token expired")
        body = json_object(raw_body)
        if body is None or not body.get("touser"):
            return wx_error(40003, "invalid openid")
        if body.get("template_id") != self.template_id:
            return wx_error(40037, "invalid template_id")
        if body.get("page") is not None and str(body["page"]).split("?")[0] not in self.pages:
            return wx_error(41030, "invalid page")
        data = _values(body.get("data"))
        if data is None or (bad := _bad_field(data)):
            return wx_error(47003, f"argument invalid! data.{bad or 'data'}.value invalid")
        return self._spend(body, data)

    def _spend(self, body: Json, data: dict[str, str]) -> Json:
        touser = str(body["touser"])
        if self.quota[touser] <= 0:
            return wx_error(43101, "user refuse to accept the msg")
        self.quota[touser] -= 1
        msgid = next(self._ids)
        page = body.get("page")
        self.sent.append(
            SubscribeMessage(
                touser=touser,
                template_id=str(body["template_id"]),
                page=str(page) if page is not None else None,
                data=data,
                msgid=msgid,
                received_at=self.clock(),
            )
        )
        return {"errcode": 0, "errmsg": "ok", "msgid": msgid}


def _values(data: object) -> dict[str, str] | None:
    if not isinstance(data, dict):
        return None
    out: dict[str, str] = {}
    for key, item in data.items():
        if not isinstance(item, dict) or not isinstance(item.get("value"), str):
            return None
        out[str(key)] = item["value"]
    return out


def _bad_field(data: dict[str, str]) -> str:
    """The first value its key type refuses ("" if all pass)."""
    for key, value in data.items():
        kind = key.rstrip("0123456789")
        if "\n" in value or "\r" in value:
            return key
        if kind == "thing" and not 0 < len(value) <= 20:
            return key
        if kind == "time" and not _TIME.fullmatch(value):
            return key
        if kind == "number" and not (value.isdigit() and len(value) <= 32):
            return key
    return ""


FAKE_WECHAT_KEY = web.AppKey("fake_wechat", FakeWeChat)


def _json(value: Json) -> web.Response:
    return web.json_response(value)


async def _login(request: web.Request) -> web.StreamResponse:
    fake = request.app[FAKE_WECHAT_KEY]
    fake.login_calls += 1
    fault = fake.take_login_fault()
    if fault is None:
        return _json(fake.code2session(dict(request.query)))
    if fault.kind == "status" and fault.code == 200:
        return web.Response(body=GARBLED, content_type="application/json")
    return await act_out(request, fake, fault, lambda code: _json(wx_error(code)))


async def _token(request: web.Request) -> web.StreamResponse:
    fake = request.app[FAKE_WECHAT_KEY]
    fake.token_calls += 1
    raw_body = await request.read()
    fault = fake.take_fault("gettoken")
    if fault is None:
        return _json(fake.stable_token(raw_body))
    return await act_out(request, fake, fault, lambda code: _json(wx_error(code)))


async def _send(request: web.Request) -> web.StreamResponse:
    fake = request.app[FAKE_WECHAT_KEY]
    fake.send_calls += 1
    raw_body = await request.read()
    token = request.query.get("access_token", "")
    fault = fake.take_fault("send")
    if fault is None:
        return _json(fake.send(token, raw_body))
    if fault.delivered:
        fake.send(token, raw_body)
    return await act_out(request, fake, fault, lambda code: _json(wx_error(code)))


async def _release_on_shutdown(app: web.Application) -> None:
    app[FAKE_WECHAT_KEY].release_hung()


def create_fake_wechat_app(fake: FakeWeChat) -> web.Application:
    app = web.Application()
    app[FAKE_WECHAT_KEY] = fake
    app.router.add_get("/sns/jscode2session", _login)
    app.router.add_post("/cgi-bin/stable_token", _token)
    app.router.add_post("/cgi-bin/message/subscribe/send", _send)
    app.on_shutdown.append(_release_on_shutdown)
    return app


def run_fake_wechat(fake: FakeWeChat) -> AbstractAsyncContextManager[str]:
    """Serve the fake on 127.0.0.1, a free port; `async with` it for its base URL."""
    return serve(create_fake_wechat_app(fake), fake)
