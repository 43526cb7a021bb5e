"""The nag rule kind (直到完成) for the tick: a shell around the pure `scheduler.core.nag`.

`materialise` makes the job of the rule's current slot and moves the rule to the next
slot (None past the cap, after which `rules.retire_spent` retires it once its last
job has finished). `prepare` re-reads the rule at send time: an answered nag (the
rule is `done`) or one switched off sends nothing, and `nag.verdict` drops a repeat
that is superseded or off the grid; a task's nag sends nothing once the task is
closed, and goes out as the task's card (完成 / 明天再说). Nothing is settled after a send: the repeats run
on the rule's own schedule and only the user's answer ends them
(`services.nag.answer`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from scheduler.core import cards, nag
from scheduler.core.channel import SendResult
from scheduler.core.texts import nag as nag_words
from scheduler.kinds import Occurrence, Send, Skip, job_for
from storage.database import Session
from storage.records import Addressee, JobRecord, RuleRecord
from storage.repos import job_claims, rules, sent_or_missed, tasks, users
from storage.vocabulary import CardKind, JobStatus, RuleKind, RuleStatus, TaskStatus


async def _task_open(session: Session, task_id: int) -> bool:
    task = await tasks.get(session, task_id)
    return task is not None and task.status == TaskStatus.OPEN


class NagKind:
    """Repeats every N minutes until the user's answer or the cap."""

    name: str = RuleKind.NAG

    async def materialise(
        self, session: Session, rule: RuleRecord, to: Addressee, now: dt.datetime
    ) -> Occurrence:
        assert rule.next_fire_at is not None
        slot = rule.next_fire_at
        following = nag.following(nag.NagSpec.from_json(rule.spec), slot)
        return Occurrence(job=job_for(rule, to, slot), next_fire_at=following)

    async def prepare(
        self, session: Session, job: JobRecord, to: Addressee, now: dt.datetime
    ) -> Send | Skip:
        rule = await rules.get(session, job.rule_id)
        if rule is None or rule.status in (RuleStatus.PAUSED, RuleStatus.OFF, RuleStatus.DELETED):
            return Skip(status=JobStatus.CANCELLED, reason="rule switched off")
        if rule.ref_id is not None and not await _task_open(session, rule.ref_id):
            return Skip(status=JobStatus.SUPPRESSED, reason="task no longer open")
        spec = nag.NagSpec.from_json(rule.spec)
        decision = nag.verdict(spec, job.slot, now, answered=rule.status == RuleStatus.DONE)
        if isinstance(decision, nag.Drop):
            return Skip(status=JobStatus.SUPPRESSED, reason=decision.reason)
        words = nag_words.text(rule.label, decision, task=rule.ref_id is not None)
        card_id = cards.card_task_id(CardKind.NAG, job.id, job.attempts)
        if rule.ref_id is not None:  # a task's nag: its card completes or moves the task
            return Send(text=words, card=cards.task_card(words, card_id, rule.ref_id))
        return Send(text=words, card=cards.nag_card(nag_words.CARD_TITLE, words, card_id, rule.id))

    async def settle(
        self, session: Session, job: JobRecord, result: SendResult, status: str, now: dt.datetime
    ) -> None:
        """Nothing to update: the next repeat is already planned on the rule."""

    async def unsent(self, session: Session, job: JobRecord, status: str, now: dt.datetime) -> None:
        """A repeat not sent is covered by the next one; but an expired one may be the
        whole nag lost to an outage, so the user's next message looks
        (`sent_or_missed.missed_since` tells it only when none of the nag's messages went out),
        and one quiet time dropped may be the whole nag unseen (`_quiet_time`)."""
        if status == JobStatus.EXPIRED:
            await users.mark_missed(session, {job.user_id}, since=now)
        elif status == JobStatus.SUPPRESSED:
            await _quiet_time(session, job, now)


async def _quiet_time(session: Session, job: JobRecord, now: dt.datetime) -> None:
    """A job suppressed while the user's quiet time covers it (`scheduler.core.quiet`; the
    job has ended, so a lost claim changes nothing). For a nag none of whose messages
    has gone out yet in this run, that would drop the whole nag unseen (a one-hour nag
    inside two hours of quiet): it starts over when quiet time ends, with its full cap,
    as a plain reminder would be moved there. A nag already seen carries on with its
    next repeat after quiet time. A malformed spec is left alone (the tick sets that
    rule aside): it must not fail the batch the job was prepared in."""
    quiet_until = (await users.prefs(session, job.user_id)).quiet_until
    if quiet_until is None or max(now, job.slot) >= quiet_until:
        return  # suppressed for another reason (superseded, the task closed)
    rule = await rules.get(session, job.rule_id, lock=True)
    if rule is None or rule.status != RuleStatus.ACTIVE:
        return
    try:
        spec = nag.NagSpec.from_json(rule.spec)
    except (ValueError, KeyError, TypeError):
        return
    if await sent_or_missed.any_sent(session, rule.id, since=spec.start):
        return
    spec = dataclasses.replace(spec, start=quiet_until)
    await job_claims.cancel_pending_for_rule(
        session, rule.id, now=now, note="quiet time: starts over"
    )
    await rules.change(session, rule.id, now=now, spec=spec.to_json(), next_fire_at=quiet_until)
