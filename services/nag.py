"""The writer of nags (直到完成): made by the conversation, ended by the user's answer.

A nag is a rule of kind `nag` whose spec is a `scheduler.core.nag.NagSpec`; the tick plans
its repeats (`scheduler.nag_kind`). The user's answer (`收到`, a bare `完成`, the
card's 知道了) is the receipt: it withdraws the repeats not yet sent and retires the
rule in one transaction, so the tick plans no more and a repeat claimed meanwhile is
dropped at send time (`nag.verdict`, answered).

Which nag an answer means: the card names its rule; a typed answer means the nag
whose message the user saw last (its latest accepted or unknown job), even if that
nag has ended meanwhile (then the answer says so, rather than stopping another nag
the user was not looking at). When two nags' messages left together as one, the
answer stops both: the user answered the one message they saw. A nag that has sent
nothing yet has asked nothing, so it is not answered by `收到`.

A task's nag (`任务 明天 9:00 交材料 直到完成`, the rule's `ref_id` is the task) ends
when the task is completed or cancelled, and starts over when the task moves or is
reopened (`reschedule_task`, the one path for postpone, the review's move and 撤销).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from zoneinfo import ZoneInfo

import services.rules
from scheduler.core import nag
from scheduler.core.reminder_rules import task_due_at
from storage.database import Session
from storage.records import RuleRecord, TaskRecord
from storage.repos import rules, sent_or_missed
from storage.vocabulary import RuleKind, RuleStatus, TaskStatus


async def add(
    session: Session,
    user_id: int,
    *,
    title: str,
    spec: nag.NagSpec,
    important: bool,
    now: dt.datetime,
    task_id: int | None = None,
) -> RuleRecord:
    """A nag whose first message goes out at `spec.start` (the caller checked it is
    ahead of `now`); `task_id`: the task it nags about (then done means the task)."""
    rule_id = await services.rules.create(
        session,
        user_id=user_id,
        kind=RuleKind.NAG,
        now=now,
        important=important,
        next_fire_at=spec.start,
        spec=spec.to_json(),
        ref_id=task_id,
        label=title,
    )
    found = await rules.get(session, rule_id)
    assert found is not None
    return found


ANSWER_WINDOW = dt.timedelta(hours=12)
"""How long after its last message a typed answer still means a nag: a `收到` said
the next day is about something else, and gets its old meaning."""


async def last_sent(session: Session, user_id: int, now: dt.datetime) -> list[RuleRecord]:
    """The nag(s) whose message the user saw last (whatever their state now: the
    caller tells an ended one from an active one). Several when their messages left
    together as one; empty when no nag has sent within `ANSWER_WINDOW`."""
    found = [
        await rules.get(session, rule_id)
        for rule_id in await sent_or_missed.last_sent_nags(session, user_id, now - ANSWER_WINDOW)
    ]
    return [rule for rule in found if rule is not None]


async def of_card(session: Session, user_id: int, rule_id: int) -> RuleRecord | None:
    """The user's still active nag a card button names, or None (answered, capped,
    deleted, or not theirs)."""
    rule = await rules.get(session, rule_id)
    mine = rule is not None and rule.user_id == user_id and rule.kind == RuleKind.NAG
    return rule if mine and rule is not None and rule.status == RuleStatus.ACTIVE else None


async def answer(session: Session, rule: RuleRecord, now: dt.datetime) -> bool:
    """The user answered: repeats not yet sent are cancelled and the rule is done.
    False when it had ended meanwhile (capped, deleted)."""
    return await services.rules.finish(session, rule, now, note="nag answered")


async def stop_for_task(session: Session, task_id: int, now: dt.datetime) -> bool:
    """The task was completed or cancelled: its nag stops (True when one was nagging
    or waiting to)."""
    rule = await rules.of_ref(session, RuleKind.NAG, task_id)
    return rule is not None and await services.rules.finish(session, rule, now, note="task closed")


async def reschedule_task(
    session: Session, user_id: int, task: TaskRecord, tz: ZoneInfo, now: dt.datetime
) -> None:
    """The task's due time changed or it was reopened (明天再说, the review's move,
    撤销 of 完成): the one place that decides how it is reminded again.

    A task made with 直到完成 is nagged from its new due time, with the same interval
    and cap: a listed nag starts over there (a paused one stays paused, with the new
    time), one that had ended (answered, ran out, the task completed) is made again,
    and the repeats of the old time are withdrawn. With that time already past, a
    nagged task gets nothing new (no 待办 reminder that would fire at once). Any other
    task gets its one reminder (`services.rules.schedule_task`).
    """
    found = await rules.last_of_ref(session, RuleKind.NAG, task.id)
    if found is None:
        await services.rules.schedule_task(session, user_id, task, tz, now)
        return
    await services.rules.cancel_for(session, RuleKind.TASK_DUE, task.id, now)
    start = task_due_at(task.due_date, task.due_time, tz)
    if task.status != TaskStatus.OPEN or start is None or start <= now:
        return
    old = spec_of(found)
    spec = nag.NagSpec(start=start) if old is None else dataclasses.replace(old, start=start)
    listed = found.status in rules.LISTED  # a paused nag stays paused (`replan`)
    if listed and await services.rules.replan(
        session, found, now, note="task moved", spec=spec.to_json(), next_fire_at=start
    ):
        return
    await add(
        session, user_id, title=task.title, spec=spec, important=False, now=now, task_id=task.id
    )


def spec_of(rule: RuleRecord) -> nag.NagSpec | None:
    """The nag's spec, or None when it is malformed (the tick sets that rule aside;
    a list or an answer must not crash on it)."""
    try:
        return nag.NagSpec.from_json(rule.spec)
    except (ValueError, KeyError, TypeError):
        return None
