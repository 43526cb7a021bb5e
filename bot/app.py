"""The composition root: `create_app(settings)` wires everything, once.

The engine and session factory live in a cleanup context, so they open when the
server starts and close when it stops. `ROUTERS` is the whole command set.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections.abc import AsyncIterator, Awaitable, Callable

from aiohttp import web
from sqlalchemy.ext.asyncio import AsyncEngine

from bot import callback, keys, metrics
from bot import mp as mp_api
from bot import web as web_pages
from bot.conversation import Conversation
from bot.crypto import WeComCrypto
from bot.mp.auth import link_code_key
from bot.settings import Settings
from handlers import (
    admin,
    calendar,
    channel_tests,
    channels,
    confirm,
    events,
    miniprogram,
    nag,
    pages,
    records,
    reminders,
    review,
    tasks,
    undo,
    views,
    water,
    welcome,
)
from handlers.deployment import Deployment
from handlers.router import Dispatcher, Router
from scheduler.clock import Clock, SystemClock
from scheduler.core.liveness import SCHEDULER_STALE, scheduler_health, tick_age
from storage.database import Database
from storage.engine import create_engine
from storage.repos import job_claims, rules, ticks

log = logging.getLogger(__name__)

ROUTERS: list[Router] = [
    records.router,
    events.router,
    tasks.router,
    reminders.router,
    views.router,
    water.router,
    admin.router,
    pages.router,
    calendar.router,
    review.router,
    confirm.router,
    undo.router,
    welcome.router,
    channels.router,
    channel_tests.router,
    nag.router,
    miniprogram.router,
]


def deployment_of(settings: Settings) -> Deployment:
    """What the conversation knows of this deployment (`handlers.deployment`): the
    settings groups it reads, as they are, and the keys derived from the secrets."""
    return Deployment(
        operations=settings.operations,
        web=settings.web,
        channels=settings.channels,
        mp=settings.mp,
        backup=settings.backup,
        data_keys=settings.key_ring(),
        mp_link_key=link_code_key(settings.web_key()),
    )


MAX_BODY_BYTES = 64 * 1024  # a WeCom callback is a few KiB
HEALTH_TIMEOUT_SECONDS = 2.0
REPLY_DEADLINE_SECONDS = 3.0
"""WeCom gives up after 5 s and retries; we answer well inside that, whatever the
database does (decrypting and encrypting around the handling take milliseconds)."""
BACKGROUND_GRACE_SECONDS = 5.0

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def create_app(
    settings: Settings,
    *,
    clock: Clock | None = None,
    engine: AsyncEngine | None = None,
    watchdog: bool = False,
    ticks_itself: bool = False,
) -> web.Application:
    """Build the web application. With `engine`, use it (and leave it open) instead.

    `watchdog` (what `keeper serve` sets): with the scheduler off here, watch the
    workers' heartbeats once a minute and alert the admins when none ticks
    (`scheduler.watchdog`); off in tests and the demo, which drive ticks themselves.
    `ticks_itself` (the demo, which moves its own clock and ticks in-process): say
    nothing at start about a missing scheduler, since there the warning is not true.
    """
    app = web.Application(
        client_max_size=MAX_BODY_BYTES, middlewares=[_last_resort, callback.log_rejections]
    )
    app[keys.SETTINGS] = settings
    app[keys.CLOCK] = clock or SystemClock()
    wecom = settings.wecom
    app[keys.CRYPTO] = WeComCrypto(wecom.token, wecom.aes_key, wecom.corp_id)
    app[keys.STARTED_AT] = app[keys.CLOCK].now()
    app[keys.REPLY_DEADLINE_S] = REPLY_DEADLINE_SECONDS
    app[keys.BACKGROUND] = set()
    app.cleanup_ctx.append(_database(engine))
    app.on_shutdown.append(_finish_background)
    app.cleanup_ctx.append(_metrics)
    if settings.operations.scheduler_on:
        app.cleanup_ctx.append(_scheduler_loop)
    elif not ticks_itself:
        app.on_startup.append(_warn_without_scheduler)
        if watchdog:
            app.cleanup_ctx.append(_watchdog)
    app.router.add_get(callback.CALLBACK_PATH, callback.verify_url)
    app.router.add_post(callback.CALLBACK_PATH, callback.receive)
    app.router.add_get("/healthz", healthz)
    web_pages.setup(app)
    mp_api.setup(app)
    return app


def _database(
    given: AsyncEngine | None,
) -> Callable[[web.Application], AsyncIterator[None]]:
    async def ctx(app: web.Application) -> AsyncIterator[None]:
        settings = app[keys.SETTINGS]
        engine = given or create_engine(settings.database.url)
        database = Database(engine)
        app[keys.ENGINE] = engine
        app[keys.DATABASE] = database
        app[keys.CONVERSATION] = Conversation(
            database=database,
            dispatcher=Dispatcher(ROUTERS),
            deployment=deployment_of(settings),
            max_age=dt.timedelta(seconds=settings.wecom.callback_window_seconds),
        )
        yield
        if database.group is not None:
            await database.group.drain()  # the commits replies already wait for
        if given is None:
            await engine.dispose()

    return ctx


async def _metrics(app: web.Application) -> AsyncIterator[None]:
    """`/metrics` on its own local port (KEEPER_METRICS_PORT), never on the public one."""
    ops = app[keys.SETTINGS].operations
    async with metrics.serving(
        app[keys.DATABASE], app[keys.CLOCK], ops.metrics_host, ops.metrics_port
    ) as port:
        app[keys.METRICS_PORT] = port or 0
        yield


async def _finish_background(app: web.Application) -> None:
    """Give handling tasks cancelled at their deadline a moment to close their
    connections before the engine is disposed."""
    if pending := app[keys.BACKGROUND]:
        await asyncio.wait(pending, timeout=BACKGROUND_GRACE_SECONDS)


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


async def _watchdog(app: web.Application) -> AsyncIterator[None]:
    """`keeper serve` with KEEPER_SCHEDULER=off: look at the heartbeats once a minute."""
    from bot.scheduling import scheduler_for
    from scheduler.watchdog import WATCH_INTERVAL, watch_once

    stop = asyncio.Event()

    async def run() -> None:
        async with scheduler_for(
            app[keys.SETTINGS], app[keys.DATABASE], app[keys.CLOCK], owner=_watch_owner()
        ) as scheduler:
            started = scheduler.clock.now()
            while not stop.is_set():
                try:
                    await watch_once(scheduler, watching_since=started)
                except Exception:
                    log.exception("scheduler watchdog failed; it looks again in a minute")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), WATCH_INTERVAL.total_seconds())

    task = asyncio.create_task(run())
    yield
    stop.set()
    await task


def _watch_owner() -> str:
    from bot.scheduling import worker_name

    return f"watchdog:{worker_name()}"


async def healthz(request: web.Request) -> web.Response:
    """Database reachability, the scheduler's liveness and the last tick's age, as JSON.

    503 when the database is unreachable, or when reminders are waiting to be sent
    (an active rule exists) and no scheduler process has ticked for
    `SCHEDULER_STALE` (`scheduler: stopped`): a deployment whose worker never started
    must not look healthy while users are promised reminders.
    """
    body: dict[str, object] = {
        "database": "unreachable",
        "scheduler": "unknown",
        "last_tick_age_seconds": None,
    }
    try:
        async with asyncio.timeout(HEALTH_TIMEOUT_SECONDS):
            async with request.app[keys.DATABASE].transaction() as session:
                last = await ticks.last_tick(session)  # also proves the database answers
                age = tick_age(last, request.app[keys.CLOCK].now())
                # Only a stale scheduler needs to know whether anything waits for it.
                waiting = (age is None or age > SCHEDULER_STALE) and (
                    await rules.next_fire_min(session) is not None
                    or await job_claims.next_waiting_at(session) is not None
                )
    except Exception:
        log.warning("health check: database unreachable")
        return web.json_response(body, status=503)
    body["database"] = "ok"
    body["scheduler"] = scheduler_health(age, waiting=waiting)
    if age is not None:
        body["last_tick_age_seconds"] = round(age.total_seconds(), 1)
    return web.json_response(body, status=503 if body["scheduler"] == "stopped" else 200)


async def _warn_without_scheduler(app: web.Application) -> None:
    """`keeper serve` with the scheduler off: say so at start when no worker ticks,
    since then no reminder will ever be sent."""
    try:
        async with asyncio.timeout(HEALTH_TIMEOUT_SECONDS):
            async with app[keys.DATABASE].transaction() as session:
                last = await ticks.last_tick(session)
    except Exception:
        return  # the health check and the first message will tell
    if scheduler_health(tick_age(last, app[keys.CLOCK].now()), waiting=True) != "ok":
        log.warning(
            "no scheduler is running: KEEPER_SCHEDULER is off here and no worker has "
            "ticked in the last 10 minutes; reminders will not be sent until one does "
            "(start keeper worker, or set KEEPER_SCHEDULER=on)"
        )


@web.middleware
async def _last_resort(request: web.Request, handler: Handler) -> web.StreamResponse:
    """No request ever gets a 500 or a stack trace: log it, answer 503 plainly."""
    try:
        return await handler(request)
    except web.HTTPException:
        raise
    except Exception:
        # The route's pattern, never the path: a one-time link's path is its token.
        route = request.match_info.route.resource
        where = route.canonical if route is not None else "unmatched"
        log.exception("unhandled error", extra={"path": where})
        return web.Response(status=503, text="temporarily unavailable")
