"""Admin commands (KEEPER_ADMINS only): delivery status and settling unknown sends.

Every admin command, allowed or refused, leaves an audit line in the log.
"""

from __future__ import annotations

import datetime as dt
import logging

from handlers import texts
from handlers.commands import AdminSettle, AdminStatus
from handlers.context import Context, Outcome
from handlers.router import Router
from storage.database import Session
from storage.repos import admin

router = Router("admin")
audit = logging.getLogger("keeper.audit")


def _refused(ctx: Context, command: str) -> Outcome:
    audit.warning(
        "admin command refused", extra={"user": ctx.user.wecom_user_id, "command": command}
    )
    return Outcome(reply=texts.ADMIN_ONLY)


@router.handles(AdminStatus)
async def status(session: Session, ctx: Context, cmd: AdminStatus) -> Outcome:
    if not ctx.is_admin:
        return _refused(ctx, "status")
    audit.info("admin status", extra={"user": ctx.user.wecom_user_id})
    stats = await admin.channel_stats(session)
    if not stats:
        return Outcome(reply=texts.ADMIN_NO_JOBS)
    lines = [
        texts.admin_channel(
            s.channel,
            s.accepted,
            s.failed,
            s.unknown,
            s.retries,
            _when(s.last_success, ctx),
            s.consecutive_failures,
            s.waiting,
            _age(s.oldest_waiting, ctx.now),
        )
        for s in stats
    ]
    return Outcome(reply="\n".join(lines))


@router.handles(AdminSettle)
async def settle(session: Session, ctx: Context, cmd: AdminSettle) -> Outcome:
    if not ctx.is_admin:
        return _refused(ctx, f"settle {cmd.job_id}")
    note = f"settled by {ctx.user.wecom_user_id}: {'received' if cmd.received else 'missing'}"
    if not await admin.settle_unknown(session, cmd.job_id, received=cmd.received, note=note):
        return Outcome(reply=texts.admin_not_unknown(cmd.job_id))
    audit.info(
        "admin settled unknown send",
        extra={"user": ctx.user.wecom_user_id, "job": cmd.job_id, "received": cmd.received},
    )
    return Outcome(reply=texts.admin_settled(cmd.job_id, cmd.received))


def _when(at: dt.datetime | None, ctx: Context) -> str:
    return "无" if at is None else at.astimezone(ctx.tz).strftime("%m-%d %H:%M")


def _age(since: dt.datetime | None, now: dt.datetime) -> str:
    if since is None:
        return "0 分钟"
    minutes = max(0, int((now - since).total_seconds() // 60))
    return f"{minutes} 分钟"
