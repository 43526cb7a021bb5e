"""Card updates: after a click, the clicked card's buttons are greyed out by the tick.

The conversation queues the update here, inside the message's transaction; the tick
sends it (`scheduler.reminder_kinds.CardUpdateKind`), never the callback itself.
"""

from __future__ import annotations

import datetime as dt

import services.rules
from scheduler.core import rule_kinds
from scheduler.core.reminder_rules import CHANNEL
from storage.database import Session
from storage.records import NewJob
from storage.repos import job_claims
from storage.vocabulary import RuleKind


async def queue_card_update(
    session: Session,
    user_id: int,
    *,
    recipient: str,
    response_code: str,
    button_text: str,
    now: dt.datetime,
) -> None:
    """After a card click, grey out its buttons: a tracked job of the user's (unlisted)
    card_update rule, sent by the next tick, never from inside the callback."""
    rule_id = await services.rules.internal_rule_id(session, user_id, RuleKind.CARD_UPDATE, now)
    terms = rule_kinds.TERMS[RuleKind.CARD_UPDATE]
    job = NewJob(
        user_id=user_id,
        rule_id=rule_id,
        slot=now,
        policy=terms.policy,
        priority=terms.priority,
        channel=CHANNEL,
        recipient=recipient,
        payload_kind=RuleKind.CARD_UPDATE,
        payload=f"{response_code}\n{button_text}",
    )
    await job_claims.materialise(session, job, now=now)
