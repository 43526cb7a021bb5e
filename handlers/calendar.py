"""`日历订阅`: a private calendar address (ICS) for a phone's calendar app.

The address is `KEEPER_PUBLIC_URL` + `CALENDAR_PATH` + a token of 256 random bits,
stored only as its SHA-256 (`storage.repos.calendar_feeds`); `bot.web.calendar`
serves it. Like a one-time link, the reply is not kept for a retried callback (a
retry gets `texts.LINK_SENT_BEFORE`), so no usable token rests in `inbound_messages`.
Without `KEEPER_PUBLIC_URL` it says how to set it and changes nothing.
"""

from __future__ import annotations

import logging
import secrets

from handlers import texts
from handlers.commands import SubscribeCalendar
from handlers.context import Context, Outcome
from handlers.router import Router
from scheduler.core.redact import mask_user
from storage.database import Session
from storage.repos import calendar_feeds, links

router = Router("calendar")
audit = logging.getLogger("keeper.audit")
CALENDAR_PATH = "/web/calendar/"
SUFFIX = ".ics"


def new_token() -> str:
    """256 random bits, URL-safe (43 characters)."""
    return secrets.token_urlsafe(32)


@router.handles(SubscribeCalendar)
async def subscribe(session: Session, ctx: Context, cmd: SubscribeCalendar) -> Outcome:
    base = ctx.deployment.web.public_url
    if not base:
        return Outcome(reply=texts.CALENDAR_OFF)
    if cmd.reset:
        await calendar_feeds.revoke_all(session, ctx.user.id, ctx.now)
    token = new_token()
    await calendar_feeds.create(
        session, user_id=ctx.user.id, token_hash=links.hash_token(token), now=ctx.now
    )
    audit.info(
        "calendar feed reset" if cmd.reset else "calendar feed made",
        extra={"user": mask_user(ctx.user.wecom_user_id)},
    )
    url = f"{base.rstrip('/')}{CALENDAR_PATH}{token}{SUFFIX}"
    return Outcome(
        reply=texts.calendar_link(url, reset=cmd.reset), retry_reply=texts.LINK_SENT_BEFORE
    )
