"""The water mini-program's JSON API (issue 12 item 5): `/api/mp/v1/...`.

`setup(app)` adds the routes (contract: `bot.mp.routes`) and the client session that
calls WeChat to the one application `bot.app.create_app` builds. The routes answer
503 `not_configured` while KEEPER_MP_APPID / KEEPER_MP_SECRET are unset.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
from aiohttp import web

from bot.mp import routes
from bot.mp.limits import MpLimits


def setup(app: web.Application) -> None:
    routes.add_routes(app)
    app[routes.LIMITS] = MpLimits()
    app.cleanup_ctx.append(_http)


async def _http(app: web.Application) -> AsyncIterator[None]:
    async with aiohttp.ClientSession() as session:
        app[routes.HTTP] = session
        yield
