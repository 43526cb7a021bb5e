"""keeper's pages (issue 13): sign-in by one-time link, the personal page, the admin
page, the export download; and the calendar feed (issue 22, `bot.web.calendar`).

`setup(app)` adds the routes, the templates and the static files to the one
application `bot.app.create_app` builds. Everything the pages use ships in this
package: no script at all, no third-party font, stylesheet or CDN (WeCom's in-app
browser may have no internet), and the Content-Security-Policy says so.
"""

from __future__ import annotations

from pathlib import Path

import aiohttp_jinja2
import jinja2
from aiohttp import web

from bot import keys
from bot.web import calendar, routes
from handlers import texts

HERE = Path(__file__).parent
CSP = (
    "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)


def setup(app: web.Application) -> None:
    env = aiohttp_jinja2.setup(
        app,
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=jinja2.select_autoescape(default=True),
        undefined=jinja2.StrictUndefined,
    )
    env.filters["kg"] = texts.kg  # 72.40 -> 72.4, as the chat writes weights
    # Behind a proxy that serves keeper under a path (KEEPER_PUBLIC_URL=https://h/keeper),
    # the routes stay /web/...; only what the browser sees (links, redirects, the
    # cookie's path) carries the prefix.
    env.globals["root"] = routes.web_root(app[keys.SETTINGS].web.public_url)
    # No HEAD: a link checker's or preview's HEAD would otherwise use the link up (and
    # take the session cookie), leaving the member a "链接已用过" page.
    app.router.add_get("/web/link/{token}", routes.open_link, allow_head=False)
    app.router.add_get("/web/me", routes.me)
    # HEAD too: a calendar app may check the address first; it changes nothing.
    app.router.add_get(calendar.ROUTE, calendar.feed)
    app.router.add_get("/web/admin", routes.admin_page)
    app.router.add_static("/web/static", HERE / "static", append_version=True)
    app.on_response_prepare.append(_headers)


async def _headers(request: web.Request, response: web.StreamResponse) -> None:
    if request.path.startswith("/web/"):
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
