"""What each rule kind promises: one table of delivery policy, priority and catch-up.

| kind | policy | priority | catch-up | why |
|---|---|---|---|---|
| water | at_most_once | low | 10 min | a late glass reminder is stale; a repeat is noise |
| digest_morning, digest_evening | at_most_once | normal | 15 min | a snapshot; the next one is due anyway |
| event_reminder | at_least_once | high | 30 min | an appointment must not be missed (DESIGN §6) |
| weekly_review | at_most_once | normal | 15 min | a digest of the week; quiet time moves it (it is not stale an hour later) |
| task_due | at_most_once | high | 30 min | may go out as a card, and a card cannot be repeated exactly (WeCom wants a new card id per send), so a resend could not be deduplicated |
| custom | at_most_once | normal | 15 min | the user's own words, plain |
| custom, marked 重要 | at_least_once | high | 30 min | the user said it must arrive (quiet time lets it through too) |
| card_update | at_most_once | high | 30 min | greys out a clicked card: soon or never |
| admin_alert | at_least_once | high | 30 min | an admin must hear that a road broke (`scheduler.core.incidents`); resent with the duplicate check |
| nag (直到完成) | at_most_once | normal | 15 min | repetition is the point: a lost repeat is covered by the next (`scheduler.core.nag`) |
| nag, marked 重要 | at_most_once | high | 30 min | passes quiet time like every important reminder, yet each repeat still at most once |
| channel_test | at_most_once | high | 30 min | a test the person is waiting for (`测试 渠道`); a double would say nothing, and its check expires after 30 minutes anyway |

The catch-up window follows from the priority (`job_state.CATCH_UP_WINDOWS`): the
tick expires a waiting job by the priority copied onto it. `services.rules.create`
is the one way a rule is made, and it takes these from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from storage.vocabulary import DeliveryPolicy, Priority, RuleKind


@dataclass(frozen=True, kw_only=True, slots=True)
class Terms:
    """A kind's delivery policy and priority (the catch-up window follows from the
    priority: `job_state.CATCH_UP_WINDOWS`)."""

    policy: DeliveryPolicy
    priority: Priority


_ONCE, _SURE = DeliveryPolicy.AT_MOST_ONCE, DeliveryPolicy.AT_LEAST_ONCE

TERMS: Mapping[RuleKind, Terms] = MappingProxyType(
    {
        RuleKind.WATER: Terms(policy=_ONCE, priority=Priority.LOW),
        RuleKind.DIGEST_MORNING: Terms(policy=_ONCE, priority=Priority.NORMAL),
        RuleKind.DIGEST_EVENING: Terms(policy=_ONCE, priority=Priority.NORMAL),
        RuleKind.WEEKLY_REVIEW: Terms(policy=_ONCE, priority=Priority.NORMAL),
        RuleKind.EVENT_REMINDER: Terms(policy=_SURE, priority=Priority.HIGH),
        RuleKind.TASK_DUE: Terms(policy=_ONCE, priority=Priority.HIGH),
        RuleKind.CUSTOM: Terms(policy=_ONCE, priority=Priority.NORMAL),
        RuleKind.CARD_UPDATE: Terms(policy=_ONCE, priority=Priority.HIGH),
        RuleKind.ADMIN_ALERT: Terms(policy=_SURE, priority=Priority.HIGH),
        RuleKind.NAG: Terms(policy=_ONCE, priority=Priority.NORMAL),
        RuleKind.CHANNEL_TEST: Terms(policy=_ONCE, priority=Priority.HIGH),
    }
)
"""Every kind's terms (see the module table)."""

IMPORTANT = Terms(policy=_SURE, priority=Priority.HIGH)
"""A custom reminder marked 重要."""

IMPORTANT_NAG = Terms(policy=_ONCE, priority=Priority.HIGH)
"""A nag marked 重要: high priority, each repeat still at most once."""


def terms(kind: RuleKind, *, important: bool = False) -> Terms:
    """The terms of a rule of `kind`; `important` only for custom reminders and nags.

    Raises:
        ValueError: `important` for a kind other than custom or nag.
    """
    if important and kind is RuleKind.NAG:
        return IMPORTANT_NAG
    if important and kind is not RuleKind.CUSTOM:
        raise ValueError(f"only custom reminders can be marked important, not {kind}")
    return IMPORTANT if important else TERMS[kind]
