"""A fake of Server酱 Turbo's push API, for tests and the sandbox.

`POST /<SendKey>.send` as the sct.ftqq.com Key&API page describes it (PROVIDERS.md
section 2): a form (or JSON) body with `title` (required, at most 32 characters,
no newline) and `desp` (markdown, at most 32 KB); success answers
`{"code": 0, "message": "", "data": {"pushid", "readkey", "error": "SUCCESS", "errno": 0}}`
(the push is only queued). Failures as reported:

- the day's quota used up: `{"code": 40001, "message": "[AUTH]超过当天的发送次数限制[N]，请稍后再试"}`,
  with HTTP 200 (as seen over GET) or, with `quota_status=500`, HTTP 500 (as one
  2021 report saw over POST). The quota (`daily_quota`, default 5: the free tier as
  community reports give it, UNCONFIRMED) counts pushes per key per Beijing day;
- a wrong SendKey: `{"message": "Custom authentication failed"}` with no `code`.
  The HTTP status was not reported; the fake says 401 (`bad_key_status`);
- HTTP 429 (an IP over its 24-hour call limit): `status_next(429)`.

A missing title, a newline in it, a title over 32 characters or a desp over 32 KB
are refused with `code` 1 and a reason: Server酱 documents the refusal (faq Q8),
not its code. The fault switches are `WebhookFaults'` (route "send").
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Iterable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from aiohttp import web

from bot.sandbox.fake_protocol import Clock, Json, json_object
from bot.sandbox.fake_webhook import WebhookFaults, act_out, serve

__all__ = ["FAKE_SERVERCHAN_KEY", "FakeServerChan", "Push", "run_fake_serverchan", "sct_error"]

QUOTA_CODE = 40001
TITLE_MAX_CHARS = 32
DESP_MAX_BYTES = 32 * 1024
BEIJING = timedelta(hours=8)


def sct_error(code: int, message: str = "") -> Json:
    """Server酱's failed answer."""
    return {"code": code, "message": message or f"fake error {code}", "data": None}


@dataclass(frozen=True, kw_only=True, slots=True)
class Push:
    """One push Server酱 queued."""

    sendkey: str
    title: str
    desp: str
    pushid: str
    received_at: datetime


def _utc_now() -> datetime:
    return datetime.now(UTC)


class FakeServerChan(WebhookFaults):
    """SendKeys, their daily quota, and the pushes queued."""

    def __init__(
        self,
        *,
        sendkeys: Iterable[str] = ("SCTsandboxSendKey0001",),
        daily_quota: int = 5,
        clock: Clock = _utc_now,
    ) -> None:
        super().__init__()
        self.sendkeys, self.daily_quota, self.clock = set(sendkeys), daily_quota, clock
        self.quota_status = 200
        self.bad_key_status = 401
        self.pushes: list[Push] = []
        self.send_calls = 0
        self._ids = itertools.count(11471138)

    def send(self, sendkey: str, fields: Mapping[str, str]) -> tuple[int, Json]:
        """Documented `<SendKey>.send`: (HTTP status, answer)."""
        if sendkey not in self.sendkeys:
            return self.bad_key_status, {"message": "Custom authentication failed"}
        if self._used_today(sendkey) >= self.daily_quota:
            text = f"[AUTH]超过当天的发送次数限制[{self.daily_quota}]，请稍后再试"
            return self.quota_status, sct_error(QUOTA_CODE, text)
        title, desp = fields.get("title", ""), fields.get("desp", "")
        if reason := _refusal(title, desp):
            return 200, sct_error(1, reason)
        pushid = str(next(self._ids))
        self.pushes.append(
            Push(sendkey=sendkey, title=title, desp=desp, pushid=pushid, received_at=self.clock())
        )
        data = {"pushid": pushid, "readkey": f"SCT{secrets.token_hex(6)}", "error": "SUCCESS"}
        return 200, {"code": 0, "message": "", "data": data | {"errno": 0}}

    def _used_today(self, sendkey: str) -> int:
        today = _beijing_day(self.clock())
        return sum(
            1 for p in self.pushes if p.sendkey == sendkey and _beijing_day(p.received_at) == today
        )


def _beijing_day(when: datetime) -> date:
    return (when.astimezone(UTC) + BEIJING).date()


def _refusal(title: str, desp: str) -> str:
    if not title:
        return "title不能为空"
    if "\n" in title or "\r" in title:
        return "title不能包含换行"
    if len(title) > TITLE_MAX_CHARS:
        return "title最长32个字"
    return "desp最长32KB" if len(desp.encode()) > DESP_MAX_BYTES else ""


FAKE_SERVERCHAN_KEY = web.AppKey("fake_serverchan", FakeServerChan)


async def _fields(request: web.Request) -> dict[str, str]:
    """The form or JSON body's string fields (Server酱 takes both)."""
    if request.content_type == "application/json":
        body = json_object(await request.read()) or {}
        return {k: v for k, v in body.items() if isinstance(v, str)}
    form = await request.post()
    return {k: v for k, v in form.items() if isinstance(v, str)}


async def _send(request: web.Request) -> web.StreamResponse:
    fake = request.app[FAKE_SERVERCHAN_KEY]
    fake.send_calls += 1
    key, fields = request.match_info["key"], await _fields(request)
    fault = fake.take_fault("send")
    if fault is None:
        status, answer = fake.send(key, fields)
        return web.json_response(answer, status=status)
    if fault.delivered:
        fake.send(key, fields)
    return await act_out(request, fake, fault, lambda code: web.json_response(sct_error(code)))


async def _release_on_shutdown(app: web.Application) -> None:
    app[FAKE_SERVERCHAN_KEY].release_hung()


def create_fake_serverchan_app(fake: FakeServerChan) -> web.Application:
    app = web.Application()
    app[FAKE_SERVERCHAN_KEY] = fake
    app.router.add_post("/{key}.send", _send)
    app.on_shutdown.append(_release_on_shutdown)
    return app


def run_fake_serverchan(fake: FakeServerChan) -> AbstractAsyncContextManager[str]:
    """Serve the fake on 127.0.0.1, a free port; `async with` it for its base URL."""
    return serve(create_fake_serverchan_app(fake), fake)
