"""The aiohttp shell around `FakeWeCom`: routes, fault acting, serving on loopback.

One role: turn HTTP requests into calls on the fake and its answers (or its
queued faults) into HTTP responses. No protocol logic lives here; that is in
`fake_api` and `fake_cards`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from http import HTTPStatus

from aiohttp import web

from bot.sandbox.fake_api import FakeWeCom
from bot.sandbox.fake_faults import Fault, Route
from bot.sandbox.fake_protocol import Json, error_body

__all__ = ["ERROR_PAGE", "FAKE_WECOM_KEY", "create_fake_wecom_app", "run_fake_wecom"]

FAKE_WECOM_KEY = web.AppKey("fake_wecom", FakeWeCom)

ERROR_PAGE = "<html><head><title>{0}</title></head><body><h1>{0}</h1></body></html>"


async def _gettoken(request: web.Request) -> web.StreamResponse:
    fake = request.app[FAKE_WECOM_KEY]
    fake.gettoken_calls += 1
    fault = fake.take_fault("gettoken")
    if fault is not None:
        return await _misbehave(request, fault)
    if (denied := fake.ip_denial()) is not None:
        return web.json_response(denied)
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
    if (denied := request.app[FAKE_WECOM_KEY].ip_denial()) is not None:
        return web.json_response(denied)
    if fault is None:
        return web.json_response(handle(token, raw_body))
    if fault.delivered:
        handle(token, raw_body)
    return await _misbehave(request, fault)


async def _misbehave(request: web.Request, fault: Fault) -> web.StreamResponse:
    if fault.kind == "errcode":
        return web.json_response(error_body(fault.code, text=fault.text or None))
    if fault.kind == "status":
        page = fault.text or ERROR_PAGE.format(f"{fault.code} {http_reason(fault.code)}")
        return web.Response(status=fault.code, text=page, content_type="text/html")
    if fault.kind == "hang":
        await request.app[FAKE_WECOM_KEY].wait_released()
    # reset (and a released hang): drop the connection without a response.
    if request.transport is not None:
        request.transport.close()
    return web.Response()


async def _agent_get(request: web.Request) -> web.StreamResponse:
    fake, query = request.app[FAKE_WECOM_KEY], request.query
    if (denied := fake.ip_denial()) is not None:
        return web.json_response(denied)
    return web.json_response(
        fake.agent_get(query.get("access_token", ""), query.get("agentid", ""))
    )


async def _menu_create(request: web.Request) -> web.StreamResponse:
    fake, query = request.app[FAKE_WECOM_KEY], request.query
    fake.console.menu_calls += 1
    raw_body = await request.read()
    if (denied := fake.ip_denial()) is not None:
        return web.json_response(denied)
    token, agentid = query.get("access_token", ""), query.get("agentid", "")
    return web.json_response(fake.menu_create(token, agentid, raw_body))


def http_reason(http_status: int) -> str:
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
    app.router.add_get("/cgi-bin/agent/get", _agent_get)
    app.router.add_post("/cgi-bin/menu/create", _menu_create)
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
