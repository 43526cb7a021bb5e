"""GET (and HEAD) /web/calendar/{token}.ics: a member's calendar feed (`日历订阅`).

Not behind the pages' cookie: a calendar app has none, so the token in the path is
the credential. It is looked up only by its hash (`storage.repos.calendar_feeds`),
and never logged: aiohttp's access log is off in `keeper serve` and `keeper chat`,
the last-resort handler logs the route's pattern, not the path, and nginx writes no
access log under /web/. An unknown or revoked token is a bare 404, the same for
both, so the answer says nothing about which addresses ever existed.

The feed itself is composed by `handlers.calendar_feed` (pure) from the member's
events, timed tasks and one-off reminders of the next 90 days.
"""

from __future__ import annotations

import re
from zoneinfo import ZoneInfo

from aiohttp import web

from bot import keys
from handlers import calendar_feed
from storage.repos import calendar_feeds, links

TOKEN = re.compile(r"[A-Za-z0-9_-]{40,100}")
CONTENT_TYPE = "text/calendar"
CACHE = "private, max-age=900"
"""A phone may keep a copy for 15 minutes; no shared cache may keep it at all."""
ROUTE = "/web/calendar/{token}.ics"


async def feed(request: web.Request) -> web.Response:
    token = request.match_info["token"]
    if not TOKEN.fullmatch(token):
        return _not_found()
    now = request.app[keys.CLOCK].now()
    async with request.app[keys.DATABASE].transaction() as session:
        found = await calendar_feeds.owner(session, links.hash_token(token))
        if found is None:
            return _not_found()
        user_id, zone = found
        tz = _zone(zone, request.app[keys.SETTINGS].operations.timezone)
        first, last = calendar_feed.window(now, tz)
        events = await calendar_feeds.events_between(session, user_id, first, last)
        tasks = await calendar_feeds.timed_tasks_between(session, user_id, first, last)
        start, end = calendar_feed.instants(first, last, tz)
        reminders = await calendar_feeds.custom_reminders_between(session, user_id, start, end)
    items = calendar_feed.entries(events=events, tasks=tasks, reminders=reminders, tz=tz, now=now)
    return web.Response(
        body=calendar_feed.calendar(items, now),
        content_type=CONTENT_TYPE,
        charset="utf-8",
        headers={
            "Cache-Control": CACHE,
            "Content-Disposition": 'inline; filename="keeper.ics"',
        },
    )


def _not_found() -> web.Response:
    return web.Response(status=404, text="not found", headers={"Cache-Control": "no-store"})


def _zone(name: str, fallback: ZoneInfo) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ValueError, KeyError):
        return fallback
