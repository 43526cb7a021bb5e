"""What the fakes of the one-call providers share: their fault switches, acting a
fault out, and serving an app on loopback.

The group robot, WxPusher, Server酱 and wecomchan fakes (`fake_robot`,
`fake_wxpusher`, `fake_serverchan`, `fake_wecomchan`) have the WeCom fake's fault
modes with the same switches (`fail_next`, `hang_next`, `reset_next`,
`status_next`, `heal`, `release_hung`, from `fake_faults.FaultSwitches`) on their one
route, `"send"`, plus `garble_next`: an HTTP 200 whose body is cut JSON. What an
"errcode" fault answers is each provider's own error shape.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from aiohttp import web

from bot.sandbox.fake_faults import Fault, FaultSwitches
from bot.sandbox.fake_wecom_app import ERROR_PAGE
from bot.sandbox.fake_wecom_app import http_reason as reason  # one page wording for all fakes

__all__ = ["GARBLED", "WebhookFaults", "act_out", "serve"]

GARBLED = b'{"code": 0, "errcode": 0, "msg": "ok", "da'
"""A 200 answer cut short: what `garble_next` sends (no provider's JSON parses it)."""


class WebhookFaults(FaultSwitches):
    """The WeCom fake's switches, plus `garble_next`."""

    def garble_next(self, times: int = 1, *, delivered: bool = False) -> None:
        """Answer the next calls with HTTP 200 and a body cut in the middle of its JSON.

        With `delivered=True` the message is recorded first, as when the provider
        acted on it and only its answer was lost.
        """
        self._queue("send", times, Fault(kind="status", code=200, delivered=delivered))


async def act_out(
    request: web.Request,
    switches: FaultSwitches,
    fault: Fault,
    error_answer: Callable[[int], web.StreamResponse],
) -> web.StreamResponse:
    """Misbehave as `fault` says: the provider's error for a code, an HTTP error
    page, a cut 200, a hang (until released), or a dropped connection."""
    if fault.kind == "errcode":
        return error_answer(fault.code)
    if fault.kind == "status" and fault.code == 200:
        return web.Response(body=GARBLED, content_type="application/json")
    if fault.kind == "status":
        page = ERROR_PAGE.format(f"{fault.code} {reason(fault.code)}")
        return web.Response(status=fault.code, text=page, content_type="text/html")
    if fault.kind == "hang":
        await switches.wait_released()
    # reset (and a released hang): drop the connection without a response.
    if request.transport is not None:
        request.transport.close()
    return web.Response()


@asynccontextmanager
async def serve(app: web.Application, switches: FaultSwitches) -> AsyncIterator[str]:
    """Serve `app` on 127.0.0.1, a free port; yield its base URL. On exit hung
    requests are released and the server closed, leaking neither tasks nor sockets."""
    # No access log: request lines carry the credentials (key=, the SendKey path).
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=5.0)
    await runner.setup()
    try:
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        host, port = runner.addresses[0][:2]
        yield f"http://{host}:{port}"
    finally:
        switches.release_hung()
        await runner.cleanup()
