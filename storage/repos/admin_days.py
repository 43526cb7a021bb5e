"""Read models for the admin page's day charts (issue 22): each send with its outcome,
each reminder sent and whether it was answered, each callback and how long it took.
Read-only; rows come back as they are (UTC instants) and `bot.web.admin_series`
sorts them into the deployment's local days.

The charts span 14 days: live rows only. Jobs and their attempts are kept at least
14 days (`scheduler.core.retention_policy`), inbound messages at least 7 (30 by
default): a deployment keeping messages fewer than 14 days sees the older days' callbacks
and answers as none.
"""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select

from storage.database import Session
from storage.delivery_models import ATTEMPTS, JOBS
from storage.models import INBOUND, WATER_CHECKINS
from storage.vocabulary import AttemptOutcome, RuleKind

CHARTED = (AttemptOutcome.ACCEPTED, AttemptOutcome.FAILED, AttemptOutcome.UNKNOWN)
"""The outcomes a send ends in (a `retry` is a try on the way to one of them)."""
NOT_REMINDERS = (RuleKind.CARD_UPDATE, RuleKind.ADMIN_ALERT)
"""Jobs that ask the member nothing: a greyed-out card, an alert to the admins."""
ANSWER_WINDOW = dt.timedelta(hours=2)
"""How soon after a reminder the member's next act counts as its answer (a nag
repeats after 2 hours: an act after that answers the repeat, not the first)."""
ANSWER_KINDS = ("text", "event:template_card_event", "event:template_card_menu_event")
"""Inbound kinds that are the member acting (`bot.conversation` writes `event:<name>`):
a text (收到, 喝了, 完成 3 ...) or a card's button. Opening the app is not an answer."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Send:
    channel: str
    outcome: str
    at: dt.datetime


@dataclass(frozen=True, kw_only=True, slots=True)
class Reminder:
    """A reminder the channel accepted, and whether the member answered it."""

    channel: str
    at: dt.datetime
    answered: bool


async def sends_since(session: Session, since: dt.datetime) -> list[Send]:
    """Every attempt started at or after `since` that ended accepted, failed or unknown."""
    stmt = select(ATTEMPTS.c.channel, ATTEMPTS.c.outcome, ATTEMPTS.c.started_at).where(
        ATTEMPTS.c.started_at >= since, ATTEMPTS.c.outcome.in_(CHARTED)
    )
    return [
        Send(channel=r.channel, outcome=r.outcome, at=r.started_at)
        for r in await session.execute(stmt)
    ]


async def reminders_answered(
    session: Session, since: dt.datetime, until: dt.datetime
) -> list[Reminder]:
    """Each reminder accepted in [`since`, `until`), and whether it was answered.

    Answered, as far as the records tell today: the member acted within
    `ANSWER_WINDOW` after the channel accepted it: wrote a text (`收到` to a nag, a
    water check-in, `完成 3` ...) or clicked a card's button (`ANSWER_KINDS`), or a
    water check-in was recorded (the mini-program's too). No record ties an answer to
    the reminder it answers, so an act within the window answers every reminder
    before it in that window. A reminder is a job of any kind but `NOT_REMINDERS`,
    counted once per accepted attempt, on the attempt's channel.

    The one place this is decided: when deliveries carry their own evidence of
    receipt, only this function changes.
    """
    sent = (
        select(JOBS.c.user_id, ATTEMPTS.c.channel, ATTEMPTS.c.started_at)
        .join(JOBS, JOBS.c.id == ATTEMPTS.c.job_id)
        .where(
            ATTEMPTS.c.outcome == AttemptOutcome.ACCEPTED,
            ATTEMPTS.c.started_at >= since,
            ATTEMPTS.c.started_at < until,
            JOBS.c.payload_kind.not_in(NOT_REMINDERS),
        )
    )
    reminders = list(await session.execute(sent))
    acts: dict[int, list[dt.datetime]] = {}
    messages = select(INBOUND.c.user_id, INBOUND.c.received_at).where(
        INBOUND.c.received_at >= since,
        INBOUND.c.received_at < until + ANSWER_WINDOW,
        INBOUND.c.kind.in_(ANSWER_KINDS),
    )
    checkins = select(WATER_CHECKINS.c.user_id, WATER_CHECKINS.c.occurred_at).where(
        WATER_CHECKINS.c.occurred_at >= since,
        WATER_CHECKINS.c.occurred_at < until + ANSWER_WINDOW,
    )
    for stmt in (messages, checkins):
        for user_id, at in await session.execute(stmt):
            acts.setdefault(user_id, []).append(at)
    for times in acts.values():
        times.sort()
    return [
        Reminder(
            channel=r.channel,
            at=r.started_at,
            answered=answered(acts.get(r.user_id, []), r.started_at),
        )
        for r in reminders
    ]


def answered(acts: Sequence[dt.datetime], sent_at: dt.datetime) -> bool:
    """Whether one of the member's acts (sorted) falls in (`sent_at`, + `ANSWER_WINDOW`]."""
    i = bisect.bisect_right(acts, sent_at)
    return i < len(acts) and acts[i] <= sent_at + ANSWER_WINDOW


async def callbacks_since(
    session: Session, since: dt.datetime
) -> list[tuple[dt.datetime, int | None]]:
    """Every message received at or after `since`: (received_at, handled_ms), NULL on
    rows from before the time was kept (migration 0020)."""
    stmt = select(INBOUND.c.received_at, INBOUND.c.handled_ms).where(INBOUND.c.received_at >= since)
    return [(r.received_at, r.handled_ms) for r in await session.execute(stmt)]
