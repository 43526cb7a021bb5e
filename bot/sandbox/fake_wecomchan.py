"""A fake of an easychen/wecomchan relay (PHP `index.php` or `go-wecomchan`).

Both take `sendkey`, `msg` and `msg_type` from the query string or a form body, send
the text through a WeCom app, and answer with WeCom's `message/send` JSON as it
came (PROVIDERS.md section 4). What each does on its own:

- PHP (`flavour="php"`): a wrong or missing sendkey, or an empty msg, answers the
  plain text `bad params` (HTTP 200); when it cannot get a WeCom token
  (`token_broken = True`) it prints `false`, which is an empty body;
- Go (`flavour="go"`, path `/wecomchan`): a wrong sendkey (or a failed token
  fetch) panics the handler and net/http drops the connection without an answer.

The WeCom side is modelled only as far as the relay shows it: errcode 0 with a
msgid, or the errcode `fail_next(errcode)` queues (passed through as WeCom's error
body). The fault switches are `WebhookFaults'` (route "send").
"""

from __future__ import annotations

import itertools
import json
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from aiohttp import web

from bot.sandbox.fake_protocol import Clock, error_body
from bot.sandbox.fake_webhook import WebhookFaults, act_out, serve

__all__ = ["FAKE_WECOMCHAN_KEY", "FakeWecomchan", "RelayedMessage", "run_fake_wecomchan"]

PATH = "/wecomchan"


@dataclass(frozen=True, kw_only=True, slots=True)
class RelayedMessage:
    """One text the relay passed to WeCom (for its own `touser`)."""

    msg: str
    msg_type: str
    msgid: str
    received_at: datetime


def _utc_now() -> datetime:
    return datetime.now(UTC)


class FakeWecomchan(WebhookFaults):
    """One relay: its sendkey, its flavour, what it relayed."""

    def __init__(
        self,
        *,
        sendkey: str = "sandbox-wecomchan-key",
        flavour: Literal["php", "go"] = "php",
        clock: Clock = _utc_now,
    ) -> None:
        super().__init__()
        self.sendkey, self.flavour, self.clock = sendkey, flavour, clock
        self.token_broken = False
        self.messages: list[RelayedMessage] = []
        self.send_calls = 0
        self._ids = itertools.count(1)

    def relay(self, msg: str, msg_type: str) -> bytes:
        """What the relay prints after checking the sendkey: WeCom's answer, or PHP's
        `false` (an empty body) without a token."""
        if self.token_broken:
            return b""
        msgid = f"relaymsgid{next(self._ids):06d}"
        self.messages.append(
            RelayedMessage(
                msg=msg, msg_type=msg_type or "text", msgid=msgid, received_at=self.clock()
            )
        )
        answer = {"errcode": 0, "errmsg": "ok", "invaliduser": "", "msgid": msgid}
        return json.dumps(answer).encode()


FAKE_WECOMCHAN_KEY = web.AppKey("fake_wecomchan", FakeWecomchan)


async def _send(request: web.Request) -> web.StreamResponse:
    fake = request.app[FAKE_WECOMCHAN_KEY]
    fake.send_calls += 1
    params = dict(request.query) | {
        k: v for k, v in (await request.post()).items() if isinstance(v, str)
    }
    msg, msg_type = params.get("msg", ""), params.get("msg_type", "text")
    if params.get("sendkey") != fake.sendkey or not msg:
        return await _refuse(request, fake)
    fault = fake.take_fault("send")
    if fault is None:
        return await _answer(request, fake, fake.relay(msg, msg_type))
    if fault.delivered:
        fake.relay(msg, msg_type)
    return await act_out(request, fake, fault, lambda code: web.json_response(error_body(code)))


async def _answer(request: web.Request, fake: FakeWecomchan, body: bytes) -> web.StreamResponse:
    """PHP prints `false` (nothing) without a token; Go panics on the missing token."""
    if body or fake.flavour == "php":
        return web.Response(body=body, content_type="application/json")
    return _drop(request)


async def _refuse(request: web.Request, fake: FakeWecomchan) -> web.StreamResponse:
    """PHP: `bad params`; Go: `log.Panicln`, and net/http drops the connection."""
    return web.Response(text="bad params") if fake.flavour == "php" else _drop(request)


def _drop(request: web.Request) -> web.StreamResponse:
    if request.transport is not None:
        request.transport.close()
    return web.Response()


async def _release_on_shutdown(app: web.Application) -> None:
    app[FAKE_WECOMCHAN_KEY].release_hung()


def create_fake_wecomchan_app(fake: FakeWecomchan) -> web.Application:
    app = web.Application()
    app[FAKE_WECOMCHAN_KEY] = fake
    for path in (PATH, "/index.php"):
        app.router.add_route("*", path, _send)
    app.on_shutdown.append(_release_on_shutdown)
    return app


def run_fake_wecomchan(fake: FakeWecomchan) -> AbstractAsyncContextManager[str]:
    """Serve the fake on 127.0.0.1, a free port; `async with` it for its base URL
    (the relay lives at `/wecomchan`, Go's path, and `/index.php`, PHP's)."""
    return serve(create_fake_wecomchan_app(fake), fake)
