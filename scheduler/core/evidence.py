"""What keeper knows of a sent message reaching the person, and of a channel's test.

A provider's "accepted" proves only that its API took the message. Whether it reached
the phone, and whether the person read it, are separate facts, so each delivery keeps
the strongest evidence keeper has (`storage.vocabulary.DeliveryEvidence`):

| evidence | when | who says so |
|---|---|---|
| accepted | the provider took the message | the channel's answer (`scheduler.delivery`) |
| received | the person answered or clicked something about that message | the conversation (`services.evidence`) |
| read | the provider reports the message read | no channel keeper has reports that today |

Evidence is only ever raised (`raise_to`): a late `accepted` never takes back a
`received`, and a reply never lowers a `read`. Nothing here calls `accepted`
"delivered": the texts say 已发出 (sent), never 送达.

A channel's **device check** is the end-to-end test the design asks for before going
live: `测试 渠道` sends a short text through the channel, and `收到` within
`CHECK_WINDOW` records that the person saw it on the phone (`check_state`).

Pure: plain values in, plain values out; `now` is always given.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from storage.vocabulary import DeliveryEvidence, RuleKind

RANK: dict[DeliveryEvidence, int] = {
    DeliveryEvidence.ACCEPTED: 1,
    DeliveryEvidence.RECEIVED: 2,
    DeliveryEvidence.READ: 3,
}
"""Strength of each kind of evidence; nothing known (None) is 0."""

CHECK_WINDOW = dt.timedelta(minutes=30)
"""How long a channel test waits for its `收到`: later, the test has expired."""

ANSWER_WINDOW = dt.timedelta(hours=12)
"""How far back an answer looks for the reminder it answers (the same reach as a
nag's answer, `services.nag.ANSWER_WINDOW`): a check-in the next day answers
nothing sent yesterday."""

SHARE_WINDOW = dt.timedelta(days=30)
"""The span of the answered share shown per channel."""

ANSWERABLE = frozenset(
    {
        RuleKind.WATER,
        RuleKind.TASK_DUE,
        RuleKind.EVENT_REMINDER,
        RuleKind.CUSTOM,
        RuleKind.NAG,
    }
)
"""The kinds whose messages count in a channel's answered share: reminders a person
can answer. A digest, the weekly review, a card update, an admin alert or a channel
test asks for nothing (a test has its own record, the device check)."""


def rank(evidence: str | None) -> int:
    """The strength of `evidence` (None or an unknown word: 0)."""
    if evidence is None:
        return 0
    try:
        return RANK[DeliveryEvidence(evidence)]
    except ValueError:
        return 0


def raise_to(current: str | None, seen: DeliveryEvidence) -> DeliveryEvidence | None:
    """The evidence after `seen` is learned of a delivery that had `current`: the
    stronger of the two. None when `current` already is at least as strong (nothing
    to write)."""
    return seen if rank(seen) > rank(current) else None


def strongest(found: Iterable[str | None]) -> str | None:
    """The strongest of several pieces of evidence (None when there is none)."""
    best: str | None = None
    for evidence in found:
        if rank(evidence) > rank(best):
            best = evidence
    return best


class CheckState(StrEnum):
    """A device check as the person and the admin see it (derived, never stored)."""

    CONFIRMED = "confirmed"
    WAITING = "waiting"
    EXPIRED = "expired"


def check_state(
    sent_at: dt.datetime, confirmed_at: dt.datetime | None, now: dt.datetime
) -> CheckState:
    """A test confirmed is confirmed for good; unconfirmed, it waits `CHECK_WINDOW`
    after it was asked for, then it has expired."""
    if confirmed_at is not None:
        return CheckState.CONFIRMED
    return CheckState.WAITING if now - sent_at <= CHECK_WINDOW else CheckState.EXPIRED


@dataclass(frozen=True, kw_only=True, slots=True)
class Share:
    """How many of a channel's answerable reminders went out in the window, and how
    many of those the person answered."""

    sent: int
    answered: int

    @property
    def percent(self) -> int | None:
        """The answered share in whole percent, rounded down; None when nothing went
        out (no share, rather than a made-up 0%)."""
        if self.sent <= 0:
            return None
        return min(100, self.answered * 100 // self.sent)


def share(counts: Iterable[tuple[str | None, int]]) -> Share:
    """The answered share of deliveries that went out, given as (evidence, how many)
    pairs (a pair may repeat): answered means `received` or stronger."""
    sent = answered = 0
    for found, n in counts:
        sent += n
        if rank(found) >= RANK[DeliveryEvidence.RECEIVED]:
            answered += n
    return Share(sent=sent, answered=answered)


def weaker_than(evidence: DeliveryEvidence) -> tuple[DeliveryEvidence, ...]:
    """The evidence a delivery may hold for `evidence` to raise it (NULL as well: the
    caller's UPDATE adds it): what storage's conditional write names."""
    return tuple(e for e in DeliveryEvidence if rank(e) < rank(evidence))
