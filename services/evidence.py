"""The writer of delivery evidence and device checks (`scheduler.core.evidence`).

**Which delivery an answer means** (the rule, in order):
1. an answer that names its message names its delivery: a nag's `收到` or its card's
   知道了 means the latest message of that nag (`rule_ids`);
2. otherwise an answer means the latest reminder of the kind it answers that went
   out to that user within `evidence.ANSWER_WINDOW` (12 h): a water check-in means
   the latest water reminder, a task's `完成` or its card button the latest task
   reminder, a water card button the latest water reminder;
3. nothing found: the answer proves nothing about any delivery, and nothing is raised.
A message that went out `unknown` and is answered is raised too: it arrived.

**Device checks.** `测试 渠道` queues one `channel_test` job per channel of the user
(the WeCom app, and every bound receiver keeper can use), each with a row in
`device_checks`; each test says what to answer. How `收到` is read while tests wait
(`confirm`):
- `收到 <渠道>` confirms that channel's waiting test, whatever else waits;
- a bare `收到` answers a nag when one is nagging (as before the tests existed: the
  nag is what keeps repeating); the tests keep waiting, and the answer says how to
  confirm them;
- a bare `收到` with no nag nagging confirms the one waiting test, or, when several
  wait, asks which (each test's text names its own answer word).
A test waits `evidence.CHECK_WINDOW` (30 min); a `收到` after that confirms nothing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection
from dataclasses import dataclass

import services.rules
from scheduler.core import evidence, rule_kinds
from scheduler.core.fallback import WECOM_APP, route_of
from storage.database import Session
from storage.records import DeviceCheckRecord, NewJob, Receiver
from storage.repos import evidence as repo
from storage.repos import job_claims
from storage.vocabulary import DeliveryEvidence, RuleKind


async def note_answer(
    session: Session,
    user_id: int,
    *,
    now: dt.datetime,
    kinds: Collection[str] = (),
    rule_ids: Collection[int] = (),
) -> int | None:
    """Raise to `received` the delivery this answer means (module rule); the job's id,
    or None when it means none or the job already had `received` or stronger."""
    job_id = await repo.latest_sent(
        session, user_id, since=now - evidence.ANSWER_WINDOW, kinds=kinds, rule_ids=rule_ids
    )
    if job_id is None:
        return None
    seen = DeliveryEvidence.RECEIVED
    raised = await repo.raise_evidence(
        session, job_id, to=seen, weaker=evidence.weaker_than(seen), now=now
    )
    return job_id if raised else None


@dataclass(frozen=True, kw_only=True, slots=True)
class TestedChannel:
    """One channel to test: its name and the recipient its job carries."""

    channel: str
    recipient: str


def targets(
    user_id: int, wecom_user_id: str, found: list[Receiver], configured: Collection[str]
) -> list[TestedChannel]:
    """The user's channels keeper can send a test through: the WeCom app (where the
    conversation is), then every bound receiver of a configured channel."""
    chosen = [TestedChannel(channel=WECOM_APP, recipient=wecom_user_id)]
    for receiver in found:
        if receiver.channel == WECOM_APP or receiver.channel not in configured:
            continue
        route = route_of(user_id, receiver.channel, receiver.receiver)
        chosen.append(TestedChannel(channel=route.channel, recipient=route.recipient))
    return chosen


async def queue_tests(
    session: Session, user_id: int, chosen: list[TestedChannel], *, now: dt.datetime
) -> None:
    """One test job per target, due now, of the user's internal `channel_test` rule,
    and its waiting device check. A test that asks nothing else waits for a bare
    `收到`; with several, each test's payload names its channel (the answer word)."""
    rule_id = await services.rules.internal_rule_id(session, user_id, RuleKind.CHANNEL_TEST, now)
    terms = rule_kinds.TERMS[RuleKind.CHANNEL_TEST]
    named = len(chosen) > 1
    for index, target in enumerate(chosen):
        # (user, rule, slot) is unique: tests asked at one instant take distinct slots,
        # each already due
        slot = now - dt.timedelta(microseconds=index)
        job = NewJob(
            user_id=user_id,
            rule_id=rule_id,
            slot=slot,
            policy=terms.policy,
            priority=terms.priority,
            channel=target.channel,
            recipient=target.recipient,
            payload_kind=RuleKind.CHANNEL_TEST,
            payload=target.channel if named else "",
        )
        job_id = await job_claims.materialise(session, job, now=now)
        await repo.add_check(session, user_id, target.channel, job_id=job_id, now=now)


@dataclass(frozen=True, kw_only=True, slots=True)
class Confirmed:
    """What a `收到` did to the waiting tests: the channels it confirmed, or the
    channels still waiting when it could not tell which (`ask`)."""

    confirmed: tuple[str, ...] = ()
    ask: tuple[str, ...] = ()


async def waiting(session: Session, user_id: int, now: dt.datetime) -> list[DeviceCheckRecord]:
    """The user's tests still waiting for their `收到`, newest first."""
    return await repo.waiting_checks(session, user_id, since=now - evidence.CHECK_WINDOW)


async def confirm(
    session: Session, user_id: int, channel: str | None, now: dt.datetime
) -> Confirmed:
    """`收到 <channel>` (or a bare `收到`, `channel` None) to the waiting tests (module
    rule). Nothing waiting: nothing confirmed, nothing asked."""
    found = await waiting(session, user_id, now)
    if channel is not None:
        found = [check for check in found if check.channel == channel]
    channels = tuple(sorted({check.channel for check in found}))
    if len(channels) > 1:
        return Confirmed(ask=channels)
    if not channels:
        return Confirmed()
    await repo.confirm(session, [check.id for check in found], now=now)
    return Confirmed(confirmed=channels)


async def per_channel(
    session: Session, now: dt.datetime, *, user_id: int | None = None
) -> dict[str, tuple[dict[int, DeviceCheckRecord], evidence.Share]]:
    """Per channel: the last device check of each user (of one user, or of all) and
    the answered share of the last `evidence.SHARE_WINDOW` (theirs, or everyone's)."""
    counts = await repo.evidence_by_channel(
        session, since=now - evidence.SHARE_WINDOW, kinds=evidence.ANSWERABLE, user_id=user_id
    )
    checks = await repo.last_checks(session, None if user_id is None else [user_id])
    result: dict[str, tuple[dict[int, DeviceCheckRecord], evidence.Share]] = {}
    for channel in {*counts, *(c for _, c in checks)}:
        by_user = {uid: check for (uid, c), check in checks.items() if c == channel}
        result[channel] = (by_user, evidence.share(counts.get(channel, [])))
    return result
