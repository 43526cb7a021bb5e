"""Delivering claimed jobs: prepare (re-read the business state, quiet time, budget),
compose one message per user, send outside any transaction, finalise.

The whole batch is prepared in one transaction and finalised in another; the sends
happen in between, in waves of `concurrency`. Each wave's start is recorded before its
requests (`jobs.start_sending`, one short transaction a wave; the first wave's rides
on the prepare transaction), so a worker killed mid-batch leaves only its wave in
flight uncertain: the rest are released and sent by another worker. Every state
change is a conditional UPDATE on the claim (`storage.repos.jobs.finalise`), so a
late worker and the lease sweeper can never both win. Which state follows which
outcome is `scheduler.outcomes`.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from dataclasses import dataclass

from scheduler import messages, outcomes, quiet, stats
from scheduler.channels.base import OutboundMessage, SendResult
from scheduler.channels.budget import Defer, budget_decision
from scheduler.job_state import DeliveryPolicy
from scheduler.kinds import Send, Skip
from scheduler.runtime import CONFIG_HOLD, Scheduler
from storage.database import Session
from storage.records import Addressee, JobRecord, NewJob
from storage.repos import attempts, jobs, rules, users
from storage.retry import retrying

log = logging.getLogger(__name__)


@dataclass(frozen=True, kw_only=True, slots=True)
class _Ready:
    """One message to send: a recipient's jobs that are still worth it, merged.

    With `update` set it is not a message but a card update (response code, text).
    """

    recipient: str
    channel: str
    jobs: list[JobRecord]
    message: OutboundMessage
    update: tuple[str, str] | None = None


async def deliver(s: Scheduler, claimed: list[JobRecord]) -> dict[str, int]:
    """Send the claimed jobs, one message per (recipient, channel), and finalise them.

    The batch is prepared in one transaction; then the messages leave in waves of
    `s.concurrency`, outside any transaction. One short transaction between two waves
    finalises the wave that finished and records the start of the next, so a batch of
    100 costs about one commit per 16 messages, and a worker killed mid-batch leaves
    only the wave in flight uncertain (the rest is finalised or never started).
    """
    if not claimed:
        return {}  # an idle tick opens no write transaction (SQLite's one lock)
    groups: dict[tuple[str, str], list[JobRecord]] = {}
    for job in claimed:
        groups.setdefault((job.recipient, job.channel), []).append(job)
    counts: dict[str, int] = {}
    waves = await retrying(lambda: _prepare_batch(s, groups, counts))
    wave = waves[0] if waves else []  # its start recorded by the prepare transaction
    for following in [*waves[1:], []]:
        results = await asyncio.gather(*(_send(s, item) for item in wave))
        sent = list(zip(wave, results, strict=True))
        wave = await retrying(lambda: _settle_and_start(s, sent, following, counts))  # noqa: B023
        now = s.clock.now()
        for item, result in sent:
            for job in item.jobs:
                status = outcomes.job_status(job, result, now)
                counts[status] = counts.get(status, 0) + 1
    return counts


async def _settle_and_start(
    s: Scheduler,
    sent: list[tuple[_Ready, SendResult]],
    following: list[_Ready],
    counts: dict[str, int],
) -> list[_Ready]:
    """Finalise a wave that was sent and record the start of the next (one commit);
    the next wave's messages that are still wholly ours."""
    async with s.database.transaction() as session:
        await _settle(s, session, sent)
        return await _mark_started(s, session, following, counts)


async def _mark_started(
    s: Scheduler, session: Session, wave: list[_Ready], counts: dict[str, int]
) -> list[_Ready]:
    """Mark the wave's jobs as being sent. A message some of whose jobs another worker
    or the sweeper took meanwhile is not sent: its jobs still ours are given back."""
    now = s.clock.now()
    ids = [job.id for item in wave for job in item.jobs]
    mine = await jobs.start_sending(session, ids, owner=s.owner, now=now, lease=s.lease)
    whole: list[_Ready] = []
    for item in wave:
        if all(job.id in mine for job in item.jobs):
            whole.append(item)
            continue
        for job in item.jobs:
            if job.id in mine:
                await jobs.release(session, job, now=now, note="claim lost by a companion")
        counts["lost"] = counts.get("lost", 0) + len(item.jobs)
    return whole


async def _prepare_batch(
    s: Scheduler, groups: dict[tuple[str, str], list[JobRecord]], counts: dict[str, int]
) -> list[list[_Ready]]:
    """Hold, defer, skip or ready each group, re-reading the business state; the
    messages to send in waves of `s.concurrency`, the first already marked started."""
    counts.clear()
    now = s.clock.now()
    ready: list[_Ready] = []
    async with s.database.transaction() as session:
        addressees = await users.addressees(
            session, {job.user_id for group in groups.values() for job in group}
        )
        for (recipient, channel), group in groups.items():
            held = _held_until(s, channel, now)
            wait = held or await _over_budget(session, recipient, channel, now)
            if wait is not None:
                await _defer(session, group, wait, now)
                key = "held" if held else "deferred"
                counts[key] = counts.get(key, 0) + len(group)
                continue
            to = addressees[group[0].user_id]
            sends = await _prepare(s, session, group, to, now)
            if skipped := len(group) - len(sends):
                counts["skipped"] = counts.get("skipped", 0) + skipped
            ready += _compose(recipient, channel, sends, cards=to.prefs.cards, now=now)
        finished = {job.rule_id for group in groups.values() for job in group}
        await rules.retire_spent(session, finished, now=now)  # those that were skipped
        waves = [ready[i : i + s.concurrency] for i in range(0, len(ready), s.concurrency)]
        if waves:
            waves[0] = await _mark_started(s, session, waves[0], counts)
    return waves


def _compose(
    recipient: str,
    channel: str,
    sends: list[tuple[JobRecord, Send]],
    *,
    cards: bool,
    now: dt.datetime,
) -> list[_Ready]:
    """Card updates alone, at-least-once reminders alone; the rest as one message (a
    card when it is one job and the user chose cards)."""
    ready = [
        _Ready(
            recipient=recipient,
            channel=channel,
            jobs=[job],
            message=OutboundMessage(text=send.text),
            update=send.update,
        )
        for job, send in sends
        if send.update is not None
    ]
    # At-least-once jobs leave alone, so that their resend is an exact repeat.
    ready += [
        _Ready(
            recipient=recipient,
            channel=channel,
            jobs=[job],
            message=OutboundMessage(text=send.text, dedup=True),
        )
        for job, send in sends
        if send.update is None and job.policy == AT_LEAST_ONCE
    ]
    notes = [
        (job, send) for job, send in sends if send.update is None and job.policy != AT_LEAST_ONCE
    ]
    if not notes:
        return ready
    parts = [_with_late_note(job, send.text, now) for job, send in notes]
    card = notes[0][1].card if cards and len(notes) == 1 else None
    message = OutboundMessage(
        text=messages.merged(parts), dedup=any(send.dedup for _, send in notes), card=card
    )
    jobs_sent = [job for job, _ in notes]
    return [*ready, _Ready(recipient=recipient, channel=channel, jobs=jobs_sent, message=message)]


def _with_late_note(job: JobRecord, text: str, now: dt.datetime) -> str:
    """A reminder sent well after its time says how late it is (after an outage)."""
    note = messages.late_note(job.slot, now)
    return text if note is None else f"{text}{note}"


def _held_until(s: Scheduler, channel: str, now: dt.datetime) -> dt.datetime | None:
    held = s.holds.get(channel)
    return held if held is not None and held > now else None


async def _over_budget(
    session: Session, recipient: str, channel: str, now: dt.datetime
) -> dt.datetime | None:
    """WeCom silently drops sends past 30/min or 1000/h per member: check first.

    The count comes from the database, so it holds across processes.
    """
    sent = await attempts.accepted_sends_since(
        session, recipient, channel, now - dt.timedelta(hours=1)
    )
    decision = budget_decision(sent, now)
    return decision.until if isinstance(decision, Defer) else None


async def _defer(
    session: Session, group: list[JobRecord], until: dt.datetime, now: dt.datetime
) -> None:
    """Put claimed jobs back to wait until `until`; nothing was sent."""
    for job in group:
        await jobs.finalise(
            session,
            job,
            status="retry_wait",
            now=now,
            next_attempt_at=until,
            note="deferred: channel held or recipient budget",
            refund_attempt=True,  # nothing was tried: a long throttle must not fail it
        )


def _hold(s: Scheduler, channel: str) -> None:
    """A configuration error (untrusted IP, bad secret, no permission) will not heal by
    retrying: stop using the channel for a while and say so loudly; 管理 状态 shows
    the failures."""
    s.holds[channel] = s.clock.now() + CONFIG_HOLD
    stats.count("channel_holds")
    log.error("channel held after a configuration error", extra={"channel": channel})


async def _prepare(
    s: Scheduler,
    session: Session,
    group: list[JobRecord],
    to: Addressee,
    now: dt.datetime,
) -> list[tuple[JobRecord, Send]]:
    """Re-read the business state; finish what is no longer worth sending now."""
    sends: list[tuple[JobRecord, Send]] = []
    for job in group:
        decision = await _quiet_or_prepare(s, session, job, to, now)
        if isinstance(decision, Skip):
            if await jobs.finalise(
                session, job, status=decision.status, now=now, note=decision.reason
            ):
                await attempts.record_attempt(
                    session, outcomes.not_sent(job, decision.status, decision.reason, now)
                )
                await s.kinds[job.payload_kind].unsent(session, job, decision.status, now)
        elif job.policy == AT_LEAST_ONCE and decision.update is None:
            sends.append((job, await _exact_repeat(session, job, decision, now)))
        else:
            sends.append((job, decision))
    return sends


AT_LEAST_ONCE = DeliveryPolicy.AT_LEAST_ONCE


async def _exact_repeat(session: Session, job: JobRecord, send: Send, now: dt.datetime) -> Send:
    """An at-least-once job's text is fixed at its first try (late note included) and
    stored on the job, so a resend is byte for byte the same message and WeCom's
    duplicate check can drop it if the first one did arrive. Always plain text."""
    text = job.payload or _with_late_note(job, send.text, now)
    if not job.payload:
        await jobs.set_payload(session, job.id, text)
    return Send(text=text, dedup=True)


async def _quiet_or_prepare(
    s: Scheduler,
    session: Session,
    job: JobRecord,
    to: Addressee,
    now: dt.datetime,
) -> Send | Skip:
    """Quiet time first (`scheduler.quiet`): suppressed, or moved to its end as a new
    job of the same rule (this one ends `suppressed`, saying where it went). High
    priority jobs (events, tasks, 重要, card updates) always pass."""
    # Judged at the job's own time: a companion claimed early (the merge window) may
    # fall due after quiet time ends, or be the very job quiet time moved to its end.
    quiet_until = to.prefs.quiet_until
    decision = quiet.during_quiet(job.payload_kind, job.priority, quiet_until, max(now, job.slot))
    if decision == "suppress":
        return Skip(status="suppressed", reason="quiet time")
    if isinstance(decision, quiet.Move):
        await jobs.materialise(session, _moved(job, decision.until), now=now)
        return Skip(status="suppressed", reason=f"quiet time: moved to {decision.until:%H:%M}Z")
    return await s.kinds[job.payload_kind].prepare(session, job, to, now)


def _moved(job: JobRecord, until: dt.datetime) -> NewJob:
    return NewJob(
        user_id=job.user_id,
        rule_id=job.rule_id,
        slot=until,
        policy=job.policy,
        priority=job.priority,
        channel=job.channel,
        recipient=job.recipient,
        payload_kind=job.payload_kind,
        payload_ref=job.payload_ref,
        payload=job.payload,
    )


async def _settle(s: Scheduler, session: Session, sent: list[tuple[_Ready, SendResult]]) -> None:
    now = s.clock.now()
    ended: list[tuple[JobRecord, str | None]] = []
    for item, result in sent:
        if result.error_class == "config":
            _hold(s, item.channel)
        for job in item.jobs:
            await attempts.record_attempt(session, outcomes.attempt(job, result, now, s.secrets))
            ended.append((job, await finish(s, session, job, result, now)))
    await tell_later(session, ended, now)
    sent_rules = {job.rule_id for item, _ in sent for job in item.jobs}
    await rules.retire_spent(session, sent_rules, now=now)


async def _send(s: Scheduler, item: _Ready) -> SendResult:
    """The channel call, outside any transaction; never raises."""
    channel = s.channels[item.channel]
    try:
        if item.update is None:
            return await channel.send(item.recipient, item.message)
        update_card = getattr(channel, "update_card", None)  # a `CardUpdater`, if it is one
        if update_card is None:
            return outcomes.crashed("channel cannot update cards")
        result: SendResult = await update_card(item.recipient, *item.update)
        return result
    except Exception as exc:  # a bug or an unmapped error: we cannot know if it left
        log.exception("channel raised", extra={"channel": item.channel})
        return outcomes.crashed(type(exc).__name__)


async def finish(
    s: Scheduler, session: Session, job: JobRecord, result: SendResult, now: dt.datetime
) -> str | None:
    """Finalise the job by the result and its policy; if this claim won, tell its kind
    and return the status written (None: another worker or the sweeper got there)."""
    decision = outcomes.decide(job, result, now)
    won = await jobs.finalise(
        session,
        job,
        status=decision.status,
        now=now,
        next_attempt_at=decision.next_attempt_at,
        note=decision.note,
    )
    if not won:
        return None
    await s.kinds[job.payload_kind].settle(session, job, result, decision.status, now)
    return decision.status


async def tell_later(
    session: Session, ended: list[tuple[JobRecord, str | None]], now: dt.datetime
) -> None:
    """Users whose reminders just failed or may not have arrived are told once on their
    next message, with what expired (`jobs.missed_since`): one UPDATE for the batch."""
    told = {
        job.user_id
        for job, status in ended
        if status in ("failed", "unknown") and job.payload_kind not in jobs.UNTOLD_FAILURES
    }
    await users.mark_missed(session, told, since=now)
