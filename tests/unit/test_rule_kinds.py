"""The rule-kind table: every kind has terms, and the tick knows every kind."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.scheduling import all_kinds
from scheduler.core.job_state import CATCH_UP_WINDOWS
from scheduler.core.rule_kinds import IMPORTANT, TERMS, terms
from storage.vocabulary import DeliveryPolicy, Priority, RuleKind


def test_every_kind_has_terms_and_a_kind_the_tick_runs() -> None:
    assert set(TERMS) == set(RuleKind)
    assert set(all_kinds()) == set(RuleKind)


@pytest.mark.parametrize(
    ("kind", "important", "policy", "priority", "catch_up_minutes"),
    [
        (RuleKind.WATER, False, DeliveryPolicy.AT_MOST_ONCE, Priority.LOW, 10),
        (RuleKind.DIGEST_MORNING, False, DeliveryPolicy.AT_MOST_ONCE, Priority.NORMAL, 15),
        (RuleKind.DIGEST_EVENING, False, DeliveryPolicy.AT_MOST_ONCE, Priority.NORMAL, 15),
        (RuleKind.EVENT_REMINDER, False, DeliveryPolicy.AT_LEAST_ONCE, Priority.HIGH, 30),
        (RuleKind.TASK_DUE, False, DeliveryPolicy.AT_MOST_ONCE, Priority.HIGH, 30),
        (RuleKind.CUSTOM, False, DeliveryPolicy.AT_MOST_ONCE, Priority.NORMAL, 15),
        (RuleKind.CUSTOM, True, DeliveryPolicy.AT_LEAST_ONCE, Priority.HIGH, 30),
        (RuleKind.CARD_UPDATE, False, DeliveryPolicy.AT_MOST_ONCE, Priority.HIGH, 30),
        (RuleKind.ADMIN_ALERT, False, DeliveryPolicy.AT_LEAST_ONCE, Priority.HIGH, 30),
        (RuleKind.NAG, False, DeliveryPolicy.AT_MOST_ONCE, Priority.NORMAL, 15),
        (RuleKind.NAG, True, DeliveryPolicy.AT_MOST_ONCE, Priority.HIGH, 30),
        (RuleKind.CHANNEL_TEST, False, DeliveryPolicy.AT_MOST_ONCE, Priority.HIGH, 30),
    ],
)
def test_a_kind_promises_its_policy_priority_and_catch_up_window(
    kind: RuleKind,
    important: bool,
    policy: DeliveryPolicy,
    priority: Priority,
    catch_up_minutes: int,
) -> None:
    found = terms(kind, important=important)
    assert (found.policy, found.priority) == (policy, priority)
    assert CATCH_UP_WINDOWS[found.priority] == dt.timedelta(minutes=catch_up_minutes)


def test_only_a_custom_reminder_or_a_nag_can_be_marked_important() -> None:
    assert terms(RuleKind.CUSTOM, important=True) is IMPORTANT
    with pytest.raises(ValueError, match="only custom"):
        terms(RuleKind.WATER, important=True)


def test_a_kind_is_stored_as_its_plain_name() -> None:
    assert [str(k) for k in RuleKind] == [
        "water",
        "digest_morning",
        "digest_evening",
        "event_reminder",
        "task_due",
        "custom",
        "card_update",
        "weekly_review",
        "admin_alert",
        "nag",
        "channel_test",
    ]
