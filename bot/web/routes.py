"""The pages' routes: one-time links, the personal page, the admin page.

Every route reads the signed-in user from the session cookie (`bot.web.auth`), never
from the URL: no route takes a user id, so no URL can show another user's data.
Bad input (an unknown, used, expired or altered link; a malformed query) gets a
plain page saying what happened and changes nothing.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import aiohttp_jinja2
from aiohttp import web

from bot import keys
from bot.web import admin_view, auth, evidence_view, personal
from handlers import texts
from scheduler.core.redact import mask_user
from storage.export import export_user
from storage.repos import links
from storage.vocabulary import LinkPurpose, LinkRefusal

log = logging.getLogger(__name__)
audit = logging.getLogger("keeper.audit")
TOKEN = re.compile(r"[A-Za-z0-9_-]{20,100}")
DAY = re.compile(r"\d{4}-\d{2}-\d{2}")

LINK_WORDS = {
    LinkRefusal.UNKNOWN: (404, *texts.WEB_LINK_UNKNOWN),
    LinkRefusal.USED: (410, *texts.WEB_LINK_USED),
    LinkRefusal.EXPIRED: (410, *texts.WEB_LINK_EXPIRED),
}
NO_SESSION = (401, *texts.WEB_NO_SESSION)
NOT_ADMIN = (403, *texts.WEB_NOT_ADMIN)


def page(request: web.Request, status: int, title: str, text: str) -> web.Response:
    """A plain page: a title and one sentence."""
    response = aiohttp_jinja2.render_template(
        "message.html", request, {"title": title, "text": text}, status=status
    )
    response.headers["Cache-Control"] = "no-store"
    return response


def _now(request: web.Request) -> dt.datetime:
    return request.app[keys.CLOCK].now()


async def open_link(request: web.Request) -> web.StreamResponse:
    """GET /web/link/{token}: use a one-time link once."""
    token = request.match_info["token"]
    if not TOKEN.fullmatch(token):
        return page(request, *LINK_WORDS[LinkRefusal.UNKNOWN])
    now, body = _now(request), b""
    async with request.app[keys.DATABASE].transaction() as session:
        used = await links.consume(session, links.hash_token(token), now)
        who = (
            await links.member(session, used.user_id) if isinstance(used, links.Consumed) else None
        )
        if (
            isinstance(used, links.Consumed)
            and used.purpose == LinkPurpose.EXPORT
            and who is not None
        ):
            body = await export_user(session, used.user_id, who[0], now)
    if not isinstance(used, links.Consumed):
        log.info("web link refused", extra={"reason": used})
        return page(request, *LINK_WORDS[used])
    if who is None:
        return page(request, *LINK_WORDS[LinkRefusal.UNKNOWN])
    if used.purpose == LinkPurpose.EXPORT:
        audit.info("export downloaded", extra={"user": mask_user(who[0])})
        return web.Response(
            body=body,
            content_type="application/zip",
            headers={
                "Content-Disposition": f'attachment; filename="keeper-{now:%Y%m%d}.zip"',
                "Cache-Control": "no-store",
            },
        )
    role: auth.Role = "admin" if used.purpose == LinkPurpose.ADMIN else "user"
    if role == "admin" and who[0] not in request.app[keys.SETTINGS].operations.admins:
        return page(request, *NOT_ADMIN)
    root = web_root(request.app[keys.SETTINGS].web.public_url)
    where = f"{root}/web/admin" if role == "admin" else f"{root}/web/me"
    response = web.Response(status=303, headers={"Location": where, "Cache-Control": "no-store"})
    _set_cookie(request, response, auth.issue(_key(request), used.user_id, role, now))
    return response


def web_root(public_url: str) -> str:
    """The path KEEPER_PUBLIC_URL puts before /web ("" at a host's root, "/keeper" for
    https://h/keeper/): the prefix of every link, redirect and cookie path the browser
    gets."""
    return urlsplit(public_url).path.rstrip("/")


def _key(request: web.Request) -> bytes:
    return request.app[keys.SETTINGS].web_key()


def _set_cookie(request: web.Request, response: web.StreamResponse, value: str) -> None:
    secure = request.app[keys.SETTINGS].web.public_url.startswith("https://") or request.secure
    response.set_cookie(
        auth.COOKIE_NAME,
        value,
        max_age=int(auth.SESSION_TTL.total_seconds()),
        path=f"{web_root(request.app[keys.SETTINGS].web.public_url)}/web",
        httponly=True,
        samesite="Strict",
        secure=secure,
    )


async def _session(request: web.Request) -> tuple[auth.WebSession, str, ZoneInfo] | None:
    """The signed-in session with the member's UserID and zone; None when there is none."""
    previous = request.app[keys.SETTINGS].previous_web_keys()
    cookie = request.cookies.get(auth.COOKIE_NAME)
    session = auth.verify(_key(request), cookie, _now(request), previous=previous)
    if session is None:
        return None
    async with request.app[keys.DATABASE].transaction() as db:
        who = await links.member(db, session.user_id)
    if who is None:
        return None
    try:
        tz = ZoneInfo(who[1])
    except (ValueError, KeyError):
        tz = request.app[keys.SETTINGS].operations.timezone
    return session, who[0], tz


async def me(request: web.Request) -> web.StreamResponse:
    """GET /web/me[?day=YYYY-MM-DD][&span=30|90|365]: the signed-in user's own page."""
    signed = await _session(request)
    if signed is None:
        return page(request, *NO_SESSION)
    session, _, tz = signed
    now = _now(request)
    query = _query(request, now.astimezone(tz).year)
    if isinstance(query, str):
        return page(request, 400, texts.WEB_BAD_QUERY, query)
    day, span = query
    async with request.app[keys.DATABASE].transaction() as db:
        context = await personal.gather(db, session.user_id, tz, now, selected=day, span=span)
    context["admin"] = session.role == "admin"
    return _render(request, "me.html", context)


def _query(request: web.Request, the_year: int) -> tuple[dt.date | None, int] | str:
    """The page's two optional parameters, or what is wrong with them."""
    raw_day, raw_span = request.query.get("day"), request.query.get("span", "90")
    day = None
    if raw_day is not None:
        try:
            day = dt.date.fromisoformat(raw_day) if DAY.fullmatch(raw_day) else None
        except ValueError:
            day = None
        if day is None or day.year != the_year:
            return texts.web_bad_day(the_year)
    if raw_span not in {str(s) for s in personal.SPANS}:
        return texts.WEB_BAD_SPAN
    return day, int(raw_span)


async def admin_page(request: web.Request) -> web.StreamResponse:
    """GET /web/admin: delivery health, for a signed-in admin. Read-only."""
    signed = await _session(request)
    if signed is None:
        return page(request, *NO_SESSION)
    session, wecom_user_id, _ = signed
    settings = request.app[keys.SETTINGS]
    if session.role != "admin" or wecom_user_id not in settings.operations.admins:
        audit.warning("admin page refused", extra={"user": mask_user(wecom_user_id)})
        return page(request, *NOT_ADMIN)
    async with request.app[keys.DATABASE].transaction() as db:
        context = await admin_view.gather(
            db,
            _now(request),
            settings.secrets(),
            settings.operations.timezone,
            backups_on=settings.backup.on,
        )
        context |= await evidence_view.gather(
            db, _now(request), settings.channels.user_channels, settings.operations.timezone
        )
    return _render(request, "admin.html", context)


def _render(request: web.Request, name: str, context: dict[str, Any]) -> web.Response:
    response = aiohttp_jinja2.render_template(name, request, context)
    response.headers["Cache-Control"] = "no-store"
    return response
