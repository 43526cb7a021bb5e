"""What became of the user's reminders: which went out, and which were missed or
failed, so keeper can tell the user (`bot.conversation` adds the missed ones to the
next reply, 提醒 lists unresolved failures) and a nag can tell whether it was seen.

Reads only; the jobs themselves are made, claimed and settled in
`storage.repos.job_claims`.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, func, or_, select, true

from storage.database import Session
from storage.delivery_models import JOBS, RULES
from storage.records import Missed
from storage.vocabulary import UNTOLD_EXPIRED, UNTOLD_FAILED, JobStatus, RuleKind, RuleStatus

WENT_OUT = (JobStatus.ACCEPTED, JobStatus.UNKNOWN)
"""The job statuses that mean the message went out, or may have (unknown): the user
may have seen it."""
LOST = (JobStatus.FAILED, JobStatus.UNKNOWN)
"""The job statuses of a send that failed or may not have arrived."""


async def sent_for_ref(session: Session, kind: str, ref_id: int) -> bool:
    """Whether a reminder of this kind for this task or event was ever tried (any rule:
    an edit may have replaced the rule)."""
    stmt = (
        select(JOBS.c.id)
        .join(RULES, RULES.c.id == JOBS.c.rule_id)
        .where(
            RULES.c.kind == kind,
            RULES.c.ref_id == ref_id,
            JOBS.c.status.in_(
                (JobStatus.PROCESSING, JobStatus.ACCEPTED, JobStatus.UNKNOWN, JobStatus.FAILED)
            ),
        )
        .limit(1)
    )
    return (await session.execute(stmt)).first() is not None


def _lost_jobs(user_id: int, *conditions: Any) -> Select[Any]:
    """The user's jobs matching `conditions`, with what telling them needs, oldest first."""
    return (
        select(
            JOBS.c.payload_kind,
            JOBS.c.scheduled_slot_utc,
            RULES.c.label,
            JOBS.c.status,
            JOBS.c.outcome_note,
        )
        .join(RULES, RULES.c.id == JOBS.c.rule_id)
        .where(JOBS.c.user_id == user_id, *conditions)
        .order_by(JOBS.c.scheduled_slot_utc, JOBS.c.id)
    )


async def _missed(session: Session, stmt: Select[Any]) -> list[Missed]:
    return [
        Missed(
            kind=kind,
            slot=slot,
            label=label,
            status=status,
            note="" if status == JobStatus.EXPIRED else note,
        )
        for kind, slot, label, status, note in await session.execute(stmt)
    ]


async def missed_since(session: Session, user_id: int, since: dt.datetime) -> list[Missed]:
    """The user's reminders that ended unsent at or after `since`, oldest first:
    expired (not `UNTOLD_EXPIRED` kinds, and a nag only when `_nags_never_seen`),
    failed or unknown (not `UNTOLD_FAILED` kinds)."""
    expired = and_(JOBS.c.status == JobStatus.EXPIRED, JOBS.c.payload_kind.not_in(UNTOLD_EXPIRED))
    lost = and_(JOBS.c.status.in_(LOST), JOBS.c.payload_kind.not_in(UNTOLD_FAILED))
    found = await _missed(
        session, _lost_jobs(user_id, JOBS.c.finished_at >= since, or_(expired, lost))
    )
    nags = await _nags_never_seen(session, user_id, since)
    return sorted(found + nags, key=lambda missed: missed.slot)  # stable: ties keep order


def _run_start(spec: str) -> dt.datetime | None:
    """The start of a nag's current run, read from its spec (`scheduler.core.nag.NagSpec`'s
    JSON: storage cannot import the scheduler); None when malformed."""
    try:
        start = dt.datetime.fromisoformat(json.loads(spec)["start"])
    except (ValueError, KeyError, TypeError):
        return None
    return start.astimezone(dt.UTC)


async def _nags_never_seen(session: Session, user_id: int, since: dt.datetime) -> list[Missed]:
    """Expired nag jobs to tell: those whose run sent nothing (an outage swallowed it
    whole: no repeat covers it), once per run (its first expired job). A task's nag put
    off (明天再说) keeps its rule and starts a new run at its spec's start, so a job
    counts with the jobs on its side of that start only: the message seen yesterday
    does not cover today's lost run."""
    stmt = _lost_jobs(
        user_id,
        JOBS.c.finished_at >= since,
        JOBS.c.status == JobStatus.EXPIRED,
        JOBS.c.payload_kind == RuleKind.NAG,
    ).add_columns(JOBS.c.id, JOBS.c.rule_id, RULES.c.spec)
    told: list[Missed] = []
    for kind, slot, label, status, _, job_id, rule_id, spec in await session.execute(stmt):
        start = _run_start(spec)
        ours: ColumnElement[bool] = true()  # a malformed spec: the rule is one run
        if start is not None:
            ours = JOBS.c.scheduled_slot_utc >= start
            if slot < start:  # a run before the current one
                ours = JOBS.c.scheduled_slot_utc < start
        went_out = JOBS.c.status.in_(WENT_OUT)
        told_before = and_(JOBS.c.status == JobStatus.EXPIRED, JOBS.c.id < job_id)
        covered = select(JOBS.c.id).where(
            JOBS.c.rule_id == rule_id, ours, or_(went_out, told_before)
        )
        if (await session.execute(covered.limit(1))).first() is not None:
            continue
        told.append(Missed(kind=kind, slot=slot, label=label, status=status))
    return told


async def unresolved_failures(session: Session, user_id: int, since: dt.datetime) -> list[Missed]:
    """The user's reminders that failed or may not have arrived since `since` and are
    still unresolved: no later send of the same rule was accepted, and the user has not
    paused, switched off or deleted the rule. Oldest first (for 提醒)."""
    later = JOBS.alias("later")
    accepted_since = (
        select(later.c.id)
        .where(
            later.c.rule_id == JOBS.c.rule_id,
            later.c.status == JobStatus.ACCEPTED,
            later.c.finished_at > JOBS.c.finished_at,
        )
        .exists()
    )
    return await _missed(
        session,
        _lost_jobs(
            user_id,
            JOBS.c.status.in_(LOST),
            JOBS.c.payload_kind.not_in(UNTOLD_FAILED),
            JOBS.c.finished_at >= since,
            RULES.c.status.in_((RuleStatus.ACTIVE, RuleStatus.DONE)),
            ~accepted_since,
        ),
    )


async def last_sent_nags(session: Session, user_id: int, since: dt.datetime) -> list[int]:
    """The rule ids of the user's nag that sent most recently (its latest accepted or
    unknown job's slot is the latest since `since`); several when their messages left
    together as one. Empty when no nag has sent since `since`."""
    sent = (
        JOBS.c.user_id == user_id,
        JOBS.c.payload_kind == RuleKind.NAG,
        JOBS.c.status.in_(WENT_OUT),
        JOBS.c.scheduled_slot_utc >= since,
    )
    latest = select(func.max(JOBS.c.scheduled_slot_utc)).where(*sent).scalar_subquery()
    stmt = (
        select(JOBS.c.rule_id)
        .where(*sent, JOBS.c.scheduled_slot_utc == latest)
        .distinct()
        .order_by(JOBS.c.rule_id)
    )
    return [int(rule_id) for rule_id in (await session.execute(stmt)).scalars()]


async def any_sent(session: Session, rule_id: int, since: dt.datetime) -> bool:
    """Whether a job of the rule with its slot at or after `since` (a nag's current
    run) was accepted or may have arrived (unknown)."""
    stmt = select(JOBS.c.id).where(
        JOBS.c.rule_id == rule_id,
        JOBS.c.status.in_(WENT_OUT),
        JOBS.c.scheduled_slot_utc >= since,
    )
    return (await session.execute(stmt.limit(1))).first() is not None
