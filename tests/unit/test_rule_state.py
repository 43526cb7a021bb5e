"""The reminder rule's statuses: every transition as a table, and its invariants."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scheduler.core.rule_state import FIRES, LISTED, TRANSITIONS, can_transition
from storage.repos import rules
from storage.vocabulary import RuleStatus

S = RuleStatus
ALLOWED = {
    (S.ACTIVE, S.PAUSED),
    (S.ACTIVE, S.OFF),
    (S.ACTIVE, S.DONE),
    (S.ACTIVE, S.DELETED),
    (S.ACTIVE, S.ERROR),  # its occurrences cannot be computed: set aside by the tick
    (S.ERROR, S.DELETED),
    (S.PAUSED, S.ACTIVE),
    (S.PAUSED, S.DONE),
    (S.PAUSED, S.DELETED),
    (S.OFF, S.ACTIVE),
    (S.OFF, S.PAUSED),
    (S.OFF, S.DONE),
    (S.OFF, S.DELETED),
}
PAIRS = [(a, b) for a in S for b in S]


@pytest.mark.parametrize(("current", "new"), PAIRS, ids=[f"{a}->{b}" for a, b in PAIRS])
def test_every_status_change_is_allowed_exactly_when_the_table_says(
    current: RuleStatus, new: RuleStatus
) -> None:
    assert can_transition(current, new) == ((current, new) in ALLOWED)


def test_done_deleted_and_internal_are_final() -> None:
    assert {s for s, nexts in TRANSITIONS.items() if not nexts} == {S.DONE, S.DELETED, S.INTERNAL}


def test_only_active_rules_fire_and_only_live_ones_are_listed() -> None:
    assert {S.ACTIVE} == FIRES
    assert {S.ACTIVE, S.PAUSED, S.OFF} == LISTED
    assert set(rules.LISTED) == {s.value for s in LISTED}  # storage keeps the same list


def test_an_unknown_status_is_refused() -> None:
    with pytest.raises(ValueError, match="nope"):
        can_transition("nope", "active")


@given(st.sampled_from(list(S)), st.lists(st.sampled_from(list(S)), max_size=30))
def test_a_walk_of_allowed_changes_never_leaves_a_final_status_or_relists_a_gone_rule(
    start: RuleStatus, wanted: list[RuleStatus]
) -> None:
    status, gone = start, start not in LISTED
    for new in wanted:
        if not can_transition(status, new):
            continue
        status = new
        gone = gone or status not in LISTED
        assert not (gone and status in LISTED)  # a released number is never taken back
    assert status in TRANSITIONS
