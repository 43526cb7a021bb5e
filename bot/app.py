"""The composition root: `create_app(settings)` wires everything, once.

The engine and session factory live in a cleanup context, so they open when the
server starts and close when it stops. `ROUTERS` is the whole command set.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import AsyncIterator, Awaitable, Callable

from aiohttp import web
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot import callback, keys
from bot.conversation import Conversation
from bot.crypto import WeComCrypto
from bot.settings import Settings
from handlers import admin, confirm, events, general, records, reminders, tasks, views, water
from handlers.router import Dispatcher, Router
from scheduler.clock import Clock, SystemClock
from storage.database import Database
from storage.engine import create_engine
from storage.repos import ticks

log = logging.getLogger(__name__)

ROUTERS: list[Router] = [
    records.router,
    events.router,
    tasks.router,
    reminders.router,
    views.router,
    water.router,
    admin.router,
    confirm.router,
    general.router,
]
MAX_BODY_BYTES = 64 * 1024  # a WeCom callback is a few KiB
HEALTH_TIMEOUT_SECONDS = 2.0

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def create_app(
    settings: Settings, *, clock: Clock | None = None, engine: AsyncEngine | None = None
) -> web.Application:
    """Build the web application. With `engine`, use it (and leave it open) instead."""
    app = web.Application(
        client_max_size=MAX_BODY_BYTES, middlewares=[_last_resort, callback.log_rejections]
    )
    app[keys.SETTINGS] = settings
    app[keys.CLOCK] = clock or SystemClock()
    app[keys.CRYPTO] = WeComCrypto(settings.token, settings.aes_key, settings.corp_id)
    app[keys.STARTED_AT] = app[keys.CLOCK].now()
    app.cleanup_ctx.append(_database(engine))
    if settings.scheduler_on:
        app.cleanup_ctx.append(_scheduler_loop)
    app.router.add_get(callback.CALLBACK_PATH, callback.verify_url)
    app.router.add_post(callback.CALLBACK_PATH, callback.receive)
    app.router.add_get("/healthz", healthz)
    return app


def _database(
    given: AsyncEngine | None,
) -> Callable[[web.Application], AsyncIterator[None]]:
    async def ctx(app: web.Application) -> AsyncIterator[None]:
        settings = app[keys.SETTINGS]
        engine = given or create_engine(settings.database_url)
        database = Database(engine)
        app[keys.ENGINE] = engine
        app[keys.DATABASE] = database
        app[keys.CONVERSATION] = Conversation(
            database=database,
            dispatcher=Dispatcher(ROUTERS),
            default_tz=settings.timezone,
            max_age=dt.timedelta(seconds=settings.callback_window_seconds),
            admins=settings.admins,
        )
        yield
        if given is None:
            await engine.dispose()

    return ctx


async def _scheduler_loop(app: web.Application) -> AsyncIterator[None]:
    """KEEPER_SCHEDULER=on: the scheduler loop runs in this process, stopped gracefully."""
    from bot.scheduling import run_loop, scheduler_for

    stop = asyncio.Event()
    settings, clock = app[keys.SETTINGS], app[keys.CLOCK]

    async def run() -> None:
        async with scheduler_for(settings, app[keys.DATABASE], clock) as scheduler:
            await run_loop(scheduler, stop)

    task = asyncio.create_task(run())
    yield
    stop.set()
    await task


async def healthz(request: web.Request) -> web.Response:
    """Database reachability (200 or 503) and the last scheduler tick's age, as JSON."""
    body: dict[str, object] = {"database": "unreachable", "last_tick_age_seconds": None}
    try:
        async with asyncio.timeout(HEALTH_TIMEOUT_SECONDS):
            async with request.app[keys.DATABASE].transaction() as session:
                await session.execute(text("SELECT 1"))
                last = await ticks.last_tick(session)
        body["database"] = "ok"
        if last is not None:
            age = request.app[keys.CLOCK].now() - last
            body["last_tick_age_seconds"] = round(age.total_seconds(), 1)
    except Exception:
        log.warning("health check: database unreachable")
    return web.json_response(body, status=200 if body["database"] == "ok" else 503)


@web.middleware
async def _last_resort(request: web.Request, handler: Handler) -> web.StreamResponse:
    """No request ever gets a 500 or a stack trace: log it, answer 503 plainly."""
    try:
        return await handler(request)
    except web.HTTPException:
        raise
    except Exception:
        log.exception("unhandled error", extra={"path": request.path})
        return web.Response(status=503, text="temporarily unavailable")
