"""The evidence rules (`scheduler.core.evidence`): only ever raised, the device
check's window, the answered share."""

from __future__ import annotations

import datetime as dt
from functools import reduce

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scheduler.core.evidence import (
    CHECK_WINDOW,
    CheckState,
    Share,
    check_state,
    raise_to,
    rank,
    share,
    strongest,
    weaker_than,
)
from storage.vocabulary import DeliveryEvidence

A, R, D = DeliveryEvidence.ACCEPTED, DeliveryEvidence.RECEIVED, DeliveryEvidence.READ
T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    ("current", "seen", "after"),
    [
        (None, A, A),
        (None, R, R),
        (None, D, D),
        (A, A, None),  # nothing to write
        (A, R, R),
        (A, D, D),
        (R, A, None),  # a late accepted never takes back an answer
        (R, R, None),
        (R, D, D),
        (D, A, None),
        (D, R, None),  # a reply never lowers a read
        (D, D, None),
        ("garbled", A, A),  # an unknown word counts as nothing known
    ],
)
def test_evidence_is_only_ever_raised(
    current: str | None, seen: DeliveryEvidence, after: DeliveryEvidence | None
) -> None:
    assert raise_to(current, seen) == after


def _apply(current: str | None, seen: DeliveryEvidence) -> str | None:
    raised = raise_to(current, seen)
    return current if raised is None else raised


@given(st.lists(st.sampled_from(list(DeliveryEvidence))))
def test_any_order_of_news_ends_at_the_strongest_and_never_goes_down(
    news: list[DeliveryEvidence],
) -> None:
    held: str | None = None
    for seen in news:
        before = held
        held = _apply(held, seen)
        assert rank(held) >= rank(before)
    assert held == strongest(news)
    assert reduce(_apply, reversed(news), None) == held  # the order does not matter


@given(st.sampled_from(list(DeliveryEvidence)), st.sampled_from(list(DeliveryEvidence)))
def test_the_conditional_write_names_exactly_what_may_be_raised(
    current: DeliveryEvidence, seen: DeliveryEvidence
) -> None:
    """Storage writes `seen` where the row holds NULL or one of `weaker_than(seen)`:
    the same answer as the pure rule."""
    assert (current in weaker_than(seen)) == (raise_to(current, seen) is not None)


def test_accepted_is_the_weakest_evidence_and_read_the_strongest() -> None:
    assert weaker_than(A) == ()
    assert weaker_than(R) == (A,)
    assert weaker_than(D) == (A, R)


@pytest.mark.parametrize(
    ("confirmed_after", "asked_ago", "state"),
    [
        (dt.timedelta(minutes=5), dt.timedelta(hours=3), CheckState.CONFIRMED),
        (None, dt.timedelta(0), CheckState.WAITING),
        (None, CHECK_WINDOW, CheckState.WAITING),
        (None, CHECK_WINDOW + dt.timedelta(seconds=1), CheckState.EXPIRED),
    ],
)
def test_a_device_check_waits_thirty_minutes_and_a_confirmed_one_stays(
    confirmed_after: dt.timedelta | None, asked_ago: dt.timedelta, state: CheckState
) -> None:
    sent = T0 - asked_ago
    confirmed = None if confirmed_after is None else sent + confirmed_after
    assert check_state(sent, confirmed, T0) == state


@pytest.mark.parametrize(
    ("counts", "sent", "answered", "percent"),
    [
        ([], 0, 0, None),  # nothing went out: no share, not 0%
        ([(A, 3)], 3, 0, 0),
        ([(A, 3), (R, 1)], 4, 1, 25),
        ([(A, 1), (R, 1), (D, 1)], 3, 2, 66),  # rounded down
        ([(R, 2), (R, 2)], 4, 4, 100),  # a pair may repeat
        ([(None, 1), (R, 1)], 2, 1, 50),  # an unknown send that was never answered
    ],
)
def test_the_answered_share_counts_received_or_stronger(
    counts: list[tuple[str | None, int]], sent: int, answered: int, percent: int | None
) -> None:
    found = share(counts)
    assert found == Share(sent=sent, answered=answered)
    assert found.percent == percent


@given(st.lists(st.tuples(st.sampled_from([None, A, R, D]), st.integers(0, 50))))
def test_the_share_is_a_fraction_of_what_went_out(counts: list[tuple[str | None, int]]) -> None:
    found = share(counts)
    assert 0 <= found.answered <= found.sent == sum(n for _, n in counts)
    assert found.percent is None if found.sent == 0 else 0 <= (found.percent or 0) <= 100
