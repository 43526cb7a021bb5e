"""Delivering claimed jobs: prepare (re-read the business state, quiet time, budgets),
compose one message per user, send outside any transaction, finalise.

The whole batch is prepared in one transaction; then its messages leave through a
sliding window of `concurrency` sends (`scheduler.send_window`): as one finishes,
another starts. Between sends, one short transaction at a time (a flush) finalises
every send that finished since the last one and records the start of the next ones
before their requests leave, so a worker killed mid-batch leaves only the sends in
flight uncertain (the rest is finalised or never started, and released by the lease
sweeper), and a hung send delays no one else's finalisation. A flush costs a handful
of statements whatever it carries: one lock of the claims, one multi-row INSERT of
attempts, one UPDATE per distinct outcome. Every state change is conditional on the
claim (locked by `job_claims.lock_claims`), so a late worker and the lease sweeper can never
both win. Which state follows which outcome is `scheduler.core.outcomes`; the enterprise
budget shared by all workers is `scheduler.enterprise`.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass, field

from scheduler import enterprise, incident_watch, routing, stats
from scheduler.channels.budget import HOUR, Defer, budget_decision
from scheduler.core import outcomes, quiet, rule_kinds
from scheduler.core.channel import OutboundMessage, SendResult
from scheduler.core.texts import messages
from scheduler.core.user_ids import KNOWN
from scheduler.kinds import Send, Skip
from scheduler.runtime import CONFIG_HOLD, Scheduler
from scheduler.send_window import SendWindow
from storage.database import Session
from storage.records import Addressee, AttemptRecord, JobEnd, JobRecord, NewJob
from storage.repos import attempts, job_claims, known_ids, rules, users
from storage.retry import retrying
from storage.vocabulary import AttemptOutcome, DeliveryPolicy, ErrorClass, JobStatus

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


@dataclass(kw_only=True, slots=True)
class _Batch:
    """What the flushes of one batch share: counts, the claims not finished yet (their
    leases renewed every `lease / 3`), and the time by which a send must have started
    (the enterprise budget's slack; None when no budget was reserved)."""

    counts: dict[str, int] = field(default_factory=dict)
    open_ids: set[int] = field(default_factory=set)
    renewed_at: dt.datetime | None = None
    start_by: dt.datetime | None = None


async def deliver(s: Scheduler, claimed: list[JobRecord]) -> dict[str, int]:
    """Send the claimed jobs, one message per (recipient, channel), and finalise them.

    The batch is prepared in one transaction (which also records the start of the
    first `s.concurrency` messages); the messages then leave through the sliding
    window, outside any transaction, finalised in flushes (see the module note).
    Returns how many jobs ended in each status (and `held`, `deferred`, `skipped`,
    `lost`).
    """
    if not claimed:
        return {}  # an idle tick opens no write transaction (SQLite's one lock)
    groups: dict[tuple[str, str], list[JobRecord]] = {}
    for job in claimed:
        groups.setdefault((job.recipient, job.channel), []).append(job)
    batch = _Batch(open_ids={job.id for job in claimed}, renewed_at=s.clock.now())
    started, queued = await retrying(lambda: _prepare_batch(s, groups, batch))
    window: SendWindow[_Ready, SendResult] = SendWindow(
        size=s.concurrency,
        send=lambda item: _send(s, item),
        flush=lambda finished, to_start: retrying(lambda: _flush(s, batch, finished, to_start)),
    )
    await window.run(started, queued)
    return batch.counts


def _count(counts: dict[str, int], key: str, n: int = 1) -> None:
    counts[key] = counts.get(key, 0) + n


async def _flush(
    s: Scheduler, batch: _Batch, finished: list[tuple[_Ready, SendResult]], to_start: list[_Ready]
) -> list[_Ready]:
    """One transaction: finalise the sends that finished, record the start of the next
    ones (those still wholly ours), renew the batch's leases when due."""
    now = s.clock.now()
    done = [job.id for item, _ in finished for job in item.jobs]
    ids = done + [job.id for item in to_start for job in item.jobs]
    async with s.database.transaction() as session:
        mine = await job_claims.lock_claims(session, ids, owner=s.owner)
        statuses = await _settle(s, session, finished, mine, now)
        if batch.start_by is not None and now > batch.start_by:
            started = await _give_back(session, to_start, mine, now, batch.counts, "budget slack")
        else:
            started = await _start(s, session, to_start, mine, now, batch.counts)
        await _renew(s, session, batch, now)
    for status in statuses:  # counted once the flush has committed
        _count(batch.counts, status)
    batch.open_ids.difference_update(done)  # given back: no longer ours, renewing skips it
    return started


async def _start(
    s: Scheduler,
    session: Session,
    items: list[_Ready],
    mine: dict[int, int],
    now: dt.datetime,
    counts: dict[str, int],
) -> list[_Ready]:
    """Record the start of the messages whose jobs are all still ours (same claim); a
    message some of whose jobs another worker or the sweeper took meanwhile is not
    sent: its jobs still ours are given back."""
    whole: list[_Ready] = []
    broken: list[_Ready] = []
    for item in items:
        ours = all(mine.get(job.id) == job.attempts for job in item.jobs)
        (whole if ours else broken).append(item)
    await job_claims.start_claimed(
        session, [job.id for item in whole for job in item.jobs], now=now, lease=s.lease
    )
    await _give_back(session, broken, mine, now, counts, "claim lost by a companion")
    return whole


async def _give_back(
    session: Session,
    items: list[_Ready],
    mine: dict[int, int],
    now: dt.datetime,
    counts: dict[str, int],
    why: str,
) -> list[_Ready]:
    """Release these messages' claims still ours (never started); none is sent."""
    ours = [job for item in items for job in item.jobs if mine.get(job.id) == job.attempts]
    await job_claims.release_unstarted(session, ours, now=now, note=why)
    if items:
        _count(counts, "lost", sum(len(item.jobs) for item in items))
    return []


async def _renew(s: Scheduler, session: Session, batch: _Batch, now: dt.datetime) -> None:
    """Push the leases of the batch's open claims once a third of the lease has passed:
    a long batch (slow provider, hung sends) is not swept while it works."""
    if batch.renewed_at is not None and now - batch.renewed_at < s.lease / 3:
        return
    await job_claims.renew_leases(
        session, sorted(batch.open_ids), owner=s.owner, now=now, lease=s.lease
    )
    batch.renewed_at = now


async def _prepare_batch(
    s: Scheduler, groups: dict[tuple[str, str], list[JobRecord]], batch: _Batch
) -> tuple[list[_Ready], list[_Ready]]:
    """Hold, defer, skip or ready each group, re-reading the business state; reserve the
    enterprise budget; the messages to send: the first window (already marked
    started) and the rest."""
    batch.counts.clear()
    now = s.clock.now()
    ready: list[_Ready] = []
    async with s.database.transaction() as session:
        await _know_user_ids(session, now)
        addressees = await users.addressees(
            session, {job.user_id for group in groups.values() for job in group}
        )
        waits = await _waits(s, session, groups, now)
        for (recipient, channel), group in groups.items():
            if channel not in s.channels:  # routed where this process cannot send
                await _recall(s, session, group, addressees, now, batch.counts)
                continue
            if (wait := waits.get((recipient, channel))) is not None:
                if wait[1] == "held":  # at-least-once jobs with a fallback go there now
                    diverted, group = await routing.divert_held(session, group, s.channels, now)
                    if diverted:
                        _count(batch.counts, "diverted", diverted)
                await _defer(session, group, wait[0], now)
                _count(batch.counts, wait[1], len(group))
                continue
            to = addressees[group[0].user_id]
            sends = await _prepare(s, session, group, to, now)
            if skipped := len(group) - len(sends):
                _count(batch.counts, "skipped", skipped)
            ready += _compose(recipient, channel, sends, cards=to.prefs.cards, now=now)
        finished = {job.rule_id for group in groups.values() for job in group}
        await rules.retire_spent(session, finished, now=now)  # those that were skipped
        ready, batch.start_by = await _within_enterprise_budget(s, session, ready, now, batch)
        first, rest = ready[: s.concurrency], ready[s.concurrency :]
        mine = await job_claims.lock_claims(
            session, [job.id for item in first for job in item.jobs], owner=s.owner
        )
        first = await _start(s, session, first, mine, now, batch.counts)
    return first, rest


async def _know_user_ids(session: Session, now: dt.datetime) -> None:
    """Read the UserIDs error texts are masked for (`scheduler.core.user_ids`) when this
    process's copy is older than `KNOWN_IDS_REREAD`: before the sends, so that each
    channel's error text and log line is masked at its source. One statement a
    minute, not one per send."""
    if KNOWN.due(now):
        KNOWN.replace(await known_ids.user_ids(session), now=now)


async def _recall(
    s: Scheduler,
    session: Session,
    group: list[JobRecord],
    addressees: dict[int, Addressee],
    now: dt.datetime,
    counts: dict[str, int],
) -> None:
    """Jobs on a channel this process lacks (`routing.recall`): back to the WeCom app,
    or failed as a configuration error (attempt recorded, kind told)."""
    moved, stuck = await routing.recall(session, group, addressees, s.channels, now)
    if moved:
        _count(counts, "recalled", moved)
    result = SendResult(
        outcome=AttemptOutcome.FAILED, error_class=ErrorClass.CONFIG, error="channel not configured"
    )
    for job in stuck:  # an admin alert's incident counts as told: this line is its trace
        log.error(
            "job failed: its channel is not configured here and it cannot move",
            extra={"job_id": job.id, "kind": job.payload_kind, "channel": job.channel},
        )
        if (status := await finish(s, session, job, result, now)) is not None:
            await attempts.record_attempt(session, outcomes.attempt(job, result, now, s.secrets))
            _count(counts, status)


async def _within_enterprise_budget(
    s: Scheduler, session: Session, ready: list[_Ready], now: dt.datetime, batch: _Batch
) -> tuple[list[_Ready], dt.datetime | None]:
    """The messages the enterprise budget lets go now, high priority first; the rest
    wait (`retry_wait`, attempt refunded) for the budget to free, inside their
    catch-up windows. Also the time by which the granted ones must have started."""
    if s.enterprise is None:
        return ready, None
    wanted = [
        enterprise.Wanted(
            channel=item.channel, update=item.update is not None, priority=_rank(item)
        )
        for item in ready
    ]
    plan = await enterprise.reserve(session, s.enterprise, wanted, now)
    granted = [ready[i] for i in plan.granted]
    for i, until in plan.waiting.items():
        await _defer(session, ready[i].jobs, until, now, note="deferred: enterprise budget")
        _count(batch.counts, "deferred", len(ready[i].jobs))
    return granted, plan.start_by


def _rank(item: _Ready) -> str:
    """A message's priority: the highest of its jobs' (in `enterprise.RANK`'s order)."""
    return min((job.priority for job in item.jobs), key=lambda p: enterprise.RANK.get(p, 2))


async def _waits(
    s: Scheduler, session: Session, groups: dict[tuple[str, str], list[JobRecord]], now: dt.datetime
) -> dict[tuple[str, str], tuple[dt.datetime, str]]:
    """The groups that must wait, until when and why (`held`: the channel is held after
    a configuration error; `deferred`: the recipient's budget). The budget is read for
    the whole batch at once, one statement per channel."""
    waits: dict[tuple[str, str], tuple[dt.datetime, str]] = {}
    by_channel: dict[str, set[str]] = {}
    for recipient, channel in groups:
        if (held := _held_until(s, channel, now)) is not None:
            waits[(recipient, channel)] = (held, "held")
        else:
            by_channel.setdefault(channel, set()).add(recipient)
    for channel, recipients in by_channel.items():
        sent = await attempts.accepted_sends_by_recipient(session, recipients, channel, now - HOUR)
        for recipient in recipients:
            decision = budget_decision(sent.get(recipient, []), now)
            if isinstance(decision, Defer):
                waits[(recipient, channel)] = (decision.until, "deferred")
    return waits


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


async def _defer(
    session: Session,
    group: list[JobRecord],
    until: dt.datetime,
    now: dt.datetime,
    *,
    note: str = "deferred: channel held or recipient budget",
) -> None:
    """Put claimed jobs back to wait until `until`; nothing was sent."""
    for job in group:
        await job_claims.finalise(
            session,
            job,
            status=JobStatus.RETRY_WAIT,
            now=now,
            next_attempt_at=until,
            note=note,
            refund_attempt=True,  # nothing was tried: a long throttle must not fail it
        )


def _hold(s: Scheduler, channel: str) -> None:
    """A configuration error (untrusted IP, bad secret, no permission) will not heal by
    retrying: stop using the channel for a while and say so loudly; 管理 状态 shows
    the failures, and the flush records the incident that tells the admins once
    (`scheduler.incident_watch`)."""
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
            if await job_claims.finalise(
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
        await job_claims.set_payload(session, job.id, text)
    return Send(text=text, dedup=True)


async def _quiet_or_prepare(
    s: Scheduler,
    session: Session,
    job: JobRecord,
    to: Addressee,
    now: dt.datetime,
) -> Send | Skip:
    """Quiet time first (`scheduler.core.quiet`): suppressed, or moved to its end as a new
    job of the same rule (this one ends `suppressed`, saying where it went). High
    priority jobs (events, tasks, 重要, card updates) always pass."""
    # Judged at the job's own time: a companion claimed early (the merge window) may
    # fall due after quiet time ends, or be the very job quiet time moved to its end.
    quiet_until = to.prefs.quiet_until
    decision = quiet.during_quiet(job.payload_kind, job.priority, quiet_until, max(now, job.slot))
    if decision == "suppress":
        return Skip(status=JobStatus.SUPPRESSED, reason="quiet time")
    if isinstance(decision, quiet.Move):
        await job_claims.materialise(session, _moved(job, decision.until), now=now)
        return Skip(
            status=JobStatus.SUPPRESSED, reason=f"quiet time: moved to {decision.until:%H:%M}Z"
        )
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


async def _settle(
    s: Scheduler,
    session: Session,
    sent: list[tuple[_Ready, SendResult]],
    mine: dict[int, int],
    now: dt.datetime,
) -> list[str]:
    """Record every send's attempt (one multi-row INSERT) and finalise the jobs whose
    claim is still ours (locked in `mine`: one UPDATE per distinct outcome); tell
    their kinds. Each send's status by its result, for the tick's counts (a claim
    lost to the sweeper meanwhile is counted but not written)."""
    records: list[AttemptRecord] = []
    finals: list[JobEnd] = []
    settled: list[JobRecord] = []
    statuses: list[str] = []
    for item, result in sent:
        if result.error_class == ErrorClass.CONFIG:
            _hold(s, item.channel)
        for job in item.jobs:
            records.append(outcomes.attempt(job, result, now, s.secrets))
            decision = outcomes.decide(job, result, now)
            statuses.append(decision.status)
            settled.append(job)
            if mine.get(job.id) != job.attempts:
                continue
            finals.append(
                JobEnd(
                    job=job,
                    status=decision.status,
                    next_attempt_at=decision.next_attempt_at,
                    note=decision.note,
                )
            )
    await attempts.record_attempts(session, records)
    results = {job.id: result for item, result in sent for job in item.jobs}
    # Failed for good and owed a fallback: back to wait, on the fallback's route.
    finals = await routing.divert_failed(session, finals, results, s.channels, now)
    final_status = {end.job.id: end.status for end in finals}
    # A lost claim ends unwritten (None); a diverted one with its new status.
    ended = [(job, final_status.get(job.id)) for job in settled]
    statuses = [final_status.get(job.id, st) for job, st in zip(settled, statuses, strict=True)]
    await job_claims.finalise_claimed(session, finals, now=now)
    await incident_watch.after_sends(s, session, ((i.channel, r) for i, r in sent), now)
    for final in finals:
        kind = s.kinds[final.job.payload_kind]
        await kind.settle(session, final.job, results[final.job.id], final.status, now)
    await tell_later(session, ended, now)
    await rules.retire_spent(session, {job.rule_id for job, _ in ended}, now=now)
    return statuses


async def _send(s: Scheduler, item: _Ready) -> SendResult:
    """The channel call, outside any transaction; never raises."""
    if (channel := s.channels.get(item.channel)) is None:  # nothing left: no `unknown`
        return SendResult(
            outcome=AttemptOutcome.FAILED,
            error_class=ErrorClass.CONFIG,
            error="channel not configured",
        )
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
    won = await job_claims.finalise(
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
    next message, with what expired (`sent_or_missed.missed_since`): one UPDATE for the batch."""
    told = {
        job.user_id
        for job, status in ended
        if status in (JobStatus.FAILED, JobStatus.UNKNOWN)
        and rule_kinds.row(job.payload_kind).told_failed
    }
    await users.mark_missed(session, told, since=now)
