"""Handlers for the pages and export: `网页`, `管理 网页`, `导出`, and the view `今年`.

A link command makes a one-time link (`storage.repos.links`): 256 random bits, sent
once in the reply and stored only as a hash. The reply is not kept for a retried
callback (a retry gets `texts.LINK_SENT_BEFORE`), so no usable token rests in
`inbound_messages` either.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets

from handlers import texts, year
from handlers.commands import ExportData, OpenPages, ShowYear
from handlers.context import Context, Outcome
from handlers.router import Router
from scheduler.core.redact import mask_user
from storage.database import Session
from storage.repos import links, water
from storage.repos.year import facts_between
from storage.vocabulary import LinkPurpose

router = Router("pages")
audit = logging.getLogger("keeper.audit")
LINK_TTL = dt.timedelta(minutes=10)
LINK_PATH = "/web/link/"


async def new_link(
    session: Session, user_id: int, purpose: LinkPurpose, base: str, now: dt.datetime
) -> str:
    """Store a fresh one-time link for `user_id` and return its URL under `base`."""
    token = secrets.token_urlsafe(32)
    await links.create(
        session,
        token_hash=links.hash_token(token),
        user_id=user_id,
        purpose=purpose,
        now=now,
        expires_at=now + LINK_TTL,
    )
    return f"{base}{LINK_PATH}{token}"


@router.handles(OpenPages)
async def open_pages(session: Session, ctx: Context, cmd: OpenPages) -> Outcome:
    if cmd.admin and not ctx.is_admin:
        audit.warning("admin page refused", extra={"user": mask_user(ctx.user.wecom_user_id)})
        return Outcome(reply=texts.ADMIN_ONLY)
    if not ctx.deployment.web.public_url:
        return Outcome(reply=texts.PAGES_OFF)
    purpose = LinkPurpose.ADMIN if cmd.admin else LinkPurpose.PAGE
    url = await new_link(session, ctx.user.id, purpose, ctx.deployment.web.public_url, ctx.now)
    if cmd.admin:
        audit.info("admin page link", extra={"user": mask_user(ctx.user.wecom_user_id)})
    return Outcome(reply=texts.page_link(url, admin=cmd.admin), retry_reply=texts.LINK_SENT_BEFORE)


@router.handles(ExportData)
async def export_data(session: Session, ctx: Context, cmd: ExportData) -> Outcome:
    if not ctx.deployment.web.public_url:
        return Outcome(reply=texts.PAGES_OFF)
    url = await new_link(
        session, ctx.user.id, LinkPurpose.EXPORT, ctx.deployment.web.public_url, ctx.now
    )
    return Outcome(reply=texts.export_link(url), retry_reply=texts.LINK_SENT_BEFORE)


@router.handles(ShowYear)
async def show_year(session: Session, ctx: Context, cmd: ShowYear) -> Outcome:
    today = ctx.today
    facts = await facts_between(session, ctx.user.id, ctx.tz, today.replace(month=1, day=1), today)
    days = year.by_day(facts, ctx.tz)
    goal = (await water.habit(session, ctx.user.id)).goal
    s = year.summarise(
        days, year.by_month(facts.by_month), year=today.year, through=today, goal=goal
    )
    weight = None
    if s.first_weight is not None and s.last_weight is not None and s.low_weight is not None:
        weight = (s.first_weight, s.last_weight, s.low_weight, s.weights)
    reply = texts.year_view(
        year=s.year,
        through=today,
        days=s.days_recorded,
        weight=weight,
        water_days=s.water_days,
        goal_days=s.water_goal_days,
        spent=s.spent,
        income=s.income,
        top=s.top_category,
        done=s.tasks_done,
        events=s.events,
        journal_days=s.journal_days,
    )
    return Outcome(reply=reply)
