"""Admin commands (KEEPER_ADMINS only): delivery status, settling unknown sends, and
holding every send (管理 暂停 全部).

The router's guard (`admins_only`) refuses everyone else before any handler runs.
Every admin command, allowed or refused, leaves an audit line in the log.
"""

from __future__ import annotations

import datetime as dt
import logging

from handlers import evidence_status, texts
from handlers.backup_status import backup_lines
from handlers.commands import AdminHoldAll, AdminSettle, AdminStatus, Command
from handlers.context import Context, Outcome
from handlers.retention_status import retention_lines
from handlers.router import Router
from scheduler.core.redact import mask_user
from scheduler.core.texts import times
from scheduler.core.texts.failure_words import failure_words
from storage.database import Session
from storage.records import ChannelStats, FailureCause
from storage.repos import admin, flags, incidents, rules, users
from storage.vocabulary import Evidence, RuleStatus

audit = logging.getLogger("keeper.audit")


def admins_only(ctx: Context, cmd: Command) -> Outcome | None:
    """Let KEEPER_ADMINS through; refuse anyone else, with an audit line."""
    if ctx.is_admin:
        return None
    audit.warning(
        "admin command refused",
        extra={"user": mask_user(ctx.user.wecom_user_id), "command": _audit_name(cmd)},
    )
    return Outcome(reply=texts.ADMIN_ONLY)


def _audit_name(cmd: Command) -> str:
    if isinstance(cmd, AdminHoldAll):
        return "hold all" if cmd.hold else "release all"
    if isinstance(cmd, AdminSettle):
        return f"settle {cmd.job_id}"
    return "status"


router = Router("admin", guard=admins_only)


@router.handles(AdminStatus)
async def status(session: Session, ctx: Context, cmd: AdminStatus) -> Outcome:
    audit.info("admin status", extra={"user": mask_user(ctx.user.wecom_user_id)})
    stats = await admin.channel_stats(session)
    causes = await admin.failure_causes(session)
    lines = [await _overview(session, ctx), *await _incident_lines(session, ctx)]
    lines += _channel_lines(stats, causes, ctx)
    if not stats:
        lines.append(texts.ADMIN_NO_JOBS)
    by_kind = await admin.count_by_kind(session)
    lines.append(texts.admin_jobs(_counts(by_kind)))
    broken, latest = await rules.set_aside_rules(session)
    if broken:
        named = [(b.rule_id, texts.RULE_KIND_NAMES.get(b.kind, b.kind), b.reason) for b in latest]
        lines.append(texts.admin_broken_rules(broken, named))
    lines += await backup_lines(session, enabled=ctx.deployment.backup.on, tz=ctx.tz, now=ctx.now)
    lines += await retention_lines(session, tz=ctx.tz, now=ctx.now, asked_by_message=True)
    channels = ctx.deployment.channels.user_channels
    lines += await evidence_status.admin_lines(session, ctx.now, channels, ctx.tz)
    return Outcome(reply="\n".join(line for line in lines if line))


async def _overview(session: Session, ctx: Context) -> str:
    """Users, rules by kind (active of all), the next due job, whether sends are held."""
    rule_counts = await rules.count_by_kind(session)
    kinds = sorted({kind for kind, _ in rule_counts})
    summary = texts.admin_rule_counts(
        (
            texts.RULE_KIND_NAMES.get(k, k),
            rule_counts.get((k, RuleStatus.ACTIVE), 0),
            sum(n for (kk, _), n in rule_counts.items() if kk == k),
        )
        for k in kinds
    )
    upcoming = await admin.next_pending(session)
    next_job = None
    if upcoming is not None:
        kind = texts.RULE_KIND_NAMES.get(upcoming.payload_kind, upcoming.payload_kind)
        next_job = f"#{upcoming.id} {kind} {_when(upcoming.slot, ctx)}"
    held = await flags.get(session, flags.SENDS_PAUSED) == "on"
    return texts.admin_overview(await users.count(session), summary, next_job, held)


async def _incident_lines(session: Session, ctx: Context) -> list[str]:
    """Where alerts go, and every open incident (`scheduler.core.incidents`)."""
    found = await incidents.open_all(session)
    return [texts.admin_alert_road(ctx.deployment.channels.alert_channel)] + [
        texts.admin_incident(i.kind, i.subject, _when(i.opened_at, ctx), i.alerted_at is not None)
        for i in found
    ]


def _counts(by_kind: dict[tuple[str, str], int]) -> str:
    return texts.admin_job_counts(
        (texts.RULE_KIND_NAMES.get(kind, kind), texts.JOB_STATUS_NAMES.get(status, status), n)
        for (kind, status), n in sorted(by_kind.items())
    )


def _channel_lines(
    stats: list[ChannelStats], causes: list[FailureCause], ctx: Context
) -> list[str]:
    return [
        texts.admin_channel(
            texts.CHANNEL_NAMES.get(s.channel, s.channel),
            s.accepted,
            s.failed,
            s.unknown,
            s.retries,
            s.not_sent,
            _when(s.last_success, ctx),
            s.consecutive_failures,
            s.waiting,
            _age(s.oldest_waiting, ctx.now),
            [(_cause_words(c), c.count) for c in causes if c.channel == s.channel],
        )
        for s in stats
    ]


def _cause_words(cause: FailureCause) -> str:
    """The cause in words an admin acts on; the code stays visible for searching."""
    words = failure_words(f"{cause.error_class}: {cause.provider_code}")
    return texts.admin_cause(words, cause.provider_code)


@router.handles(AdminHoldAll)
async def hold_all(session: Session, ctx: Context, cmd: AdminHoldAll) -> Outcome:
    """Hold or release every send; waiting jobs expire by the catch-up rules meanwhile."""
    word = _audit_name(cmd)
    await flags.put(session, flags.SENDS_PAUSED, "on" if cmd.hold else "off", now=ctx.now)
    audit.warning(f"admin {word}", extra={"user": mask_user(ctx.user.wecom_user_id)})
    return Outcome(reply=texts.admin_hold(cmd.hold))


@router.handles(AdminSettle)
async def settle(session: Session, ctx: Context, cmd: AdminSettle) -> Outcome:
    word = Evidence.RECEIVED if cmd.received else Evidence.MISSING
    note = f"settled by {ctx.user.wecom_user_id}: {word}"
    if not await admin.settle_unknown(session, cmd.job_id, received=cmd.received, note=note):
        return Outcome(reply=texts.admin_not_unknown(cmd.job_id))
    audit.info(
        "admin settled unknown send",
        extra={
            "user": mask_user(ctx.user.wecom_user_id),
            "job": cmd.job_id,
            "received": cmd.received,
        },
    )
    return Outcome(reply=texts.admin_settled(cmd.job_id, cmd.received))


def _when(at: dt.datetime | None, ctx: Context) -> str:
    return texts.ADMIN_NEVER if at is None else times.stamp(at, ctx.tz)


def _age(since: dt.datetime | None, now: dt.datetime) -> str:
    if since is None:
        return texts.admin_age(0)
    return texts.admin_age(max(0, int((now - since).total_seconds() // 60)))
