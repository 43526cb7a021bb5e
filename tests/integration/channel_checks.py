"""What the extra channels' tests share: how to read a result and the logs, the
two ways a request never gets written (a refused port, a name that never resolves),
and opening channels that are closed when the test ends."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import aiohttp
import pytest
from aiohttp import web
from aiohttp.abc import AbstractResolver, ResolveResult

from scheduler.channels import SendResult
from scheduler.channels.http_client import SessionHolder
from scheduler.channels.webhook import Timeouts

SHORT = Timeouts(connect=0.3, total=0.3)
"""The client timeouts of the hang tests: the 0.3 s wait is the behaviour under test."""
CONNECT_SHORT = Timeouts(connect=0.2, total=10.0)
"""A connect timeout well under the total one, so that it is the one that fires."""


C = TypeVar("C", bound=SessionHolder)


@asynccontextmanager
async def opened_channels(build: Callable[..., C]) -> AsyncIterator[Callable[..., Awaitable[C]]]:
    """Yield a `make(**kw)` that opens `build(**kw)`; every channel made is closed on
    exit. A `make_channel` fixture uses it so its channels close before the fake stops."""
    opened: list[C] = []

    async def make(*args: Any, **kw: Any) -> C:
        channel = await build(*args, **kw).__aenter__()
        opened.append(channel)
        return channel

    try:
        yield make
    finally:
        for channel in opened:
            await channel.close()


def expect(result: SendResult, outcome: str, error_class: str, code: int | None) -> None:
    assert (result.outcome, result.error_class, result.provider_code) == (
        outcome,
        error_class,
        code,
    )
    assert result.duration_ms >= 0
    assert (result.error == "") == (outcome == "accepted")
    if outcome != "accepted":
        assert result.provider_message_id is None


def logged(caplog: pytest.LogCaptureFixture) -> str:
    """Every record's message and extra fields, as a handler could print them."""
    return "\n".join(f"{r.getMessage()} {vars(r)}" for r in caplog.records)


class NeverResolves(AbstractResolver):
    """A resolver whose answer never comes: the connect timeout fires before a
    single byte of the request exists."""

    async def resolve(
        self, host: str, port: int = 0, family: Any = socket.AF_INET
    ) -> list[ResolveResult]:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    async def close(self) -> None:
        return None


@asynccontextmanager
async def unresolvable_session() -> AsyncIterator[aiohttp.ClientSession]:
    """A session whose every connection times out while connecting."""
    connector = aiohttp.TCPConnector(resolver=NeverResolves())
    async with aiohttp.ClientSession(connector=connector) as session:
        yield session


@asynccontextmanager
async def echoing_proxy(path: str) -> AsyncIterator[str]:
    """A broken proxy answering 502 with the request's URL and body in its page (so a
    credential in either would reach the error text, unless the channel redacts it)."""

    async def echo(request: web.Request) -> web.Response:
        body = await request.text()
        return web.Response(status=502, text=f"bad gateway for {request.url} body={body}")

    app = web.Application()
    app.router.add_route("*", path, echo)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        host, port = runner.addresses[0][:2]
        yield f"http://{host}:{port}"
    finally:
        await runner.cleanup()
