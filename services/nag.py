"""The writer of nags (直到完成): made by the conversation, ended by the user's answer.

A nag is a rule of kind `nag` whose spec is a `scheduler.nag.NagSpec`; the tick plans
its repeats (`scheduler.nag_kind`). The user's answer (`收到`, a bare `完成`, the
card's 知道了) is the receipt: it withdraws the repeats not yet sent and retires the
rule in one transaction, so the tick plans no more and a repeat claimed meanwhile is
dropped at send time (`nag.verdict`, answered).

Which nag an answer means: the card names its rule; a typed answer means the nag that
fired most recently (its first slot is the latest of those already due). A nag whose
first slot is still ahead has asked nothing yet, so it is not answered by `收到`.
"""

from __future__ import annotations

import datetime as dt

import services.rules
from scheduler import nag
from storage.database import Session
from storage.records import RuleKind, RuleRecord
from storage.repos import rules


async def add(
    session: Session,
    user_id: int,
    *,
    title: str,
    spec: nag.NagSpec,
    important: bool,
    now: dt.datetime,
) -> RuleRecord:
    """A nag whose first message goes out at `spec.start` (the caller checked it is
    ahead of `now`)."""
    rule_id = await services.rules.create(
        session,
        user_id=user_id,
        kind=RuleKind.NAG,
        now=now,
        important=important,
        next_fire_at=spec.start,
        spec=spec.to_json(),
        label=title,
    )
    found = await rules.get(session, rule_id)
    assert found is not None
    return found


async def latest_fired(session: Session, user_id: int, now: dt.datetime) -> RuleRecord | None:
    """The user's active nag that fired most recently, or None when none is nagging."""
    fired = [
        (start, rule)
        for rule in await rules.of_user(session, user_id, RuleKind.NAG)
        if rule.status == "active" and (start := _start(rule)) is not None and start <= now
    ]
    return max(fired, key=lambda pair: (pair[0], pair[1].id))[1] if fired else None


async def of_card(session: Session, user_id: int, rule_id: int) -> RuleRecord | None:
    """The user's still active nag a card button names, or None (answered, capped,
    deleted, or not theirs)."""
    rule = await rules.get(session, rule_id)
    mine = rule is not None and rule.user_id == user_id and rule.kind == RuleKind.NAG
    return rule if mine and rule is not None and rule.status == "active" else None


async def answer(session: Session, rule: RuleRecord, now: dt.datetime) -> bool:
    """The user answered: repeats not yet sent are cancelled and the rule is done.
    False when it had ended meanwhile (capped, deleted)."""
    return await services.rules.finish(session, rule, now, note="nag answered")


def _start(rule: RuleRecord) -> dt.datetime | None:
    try:
        return nag.NagSpec.from_json(rule.spec).start
    except (ValueError, KeyError, TypeError):
        return None  # a malformed spec: the tick sets that rule aside
