"""The per-recipient budget: 25 a minute and 900 an hour by default, sliding windows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from scheduler.channels.budget import Allowed, Defer, budget_decision

NOW = datetime(2026, 11, 25, 2, 0, tzinfo=UTC)


def ago(seconds: float) -> datetime:
    return NOW - timedelta(seconds=seconds)


def at(seconds: float) -> datetime:
    return NOW + timedelta(seconds=seconds)


def burst(count: int, *, start: float, step: float = 0.0) -> list[datetime]:
    """`count` sends, the newest `start` seconds ago, each `step` seconds before the next."""
    return [ago(start + i * step) for i in range(count)]


CASES = [
    # (sent_at, per_minute, per_hour, expected)
    ([], 25, 900, Allowed()),
    (burst(24, start=1), 25, 900, Allowed()),
    (burst(25, start=1), 25, 900, Defer(at(59))),
    (burst(25, start=59.999), 25, 900, Defer(at(0.001))),
    (burst(25, start=60), 25, 900, Allowed()),  # exactly a minute old: out of the window
    (burst(30, start=10, step=1), 25, 900, Defer(at(60 - 34))),  # the 25th newest frees
    (burst(29, start=1), 30, 1000, Allowed()),  # a caller may go up to WeCom's limit
    (burst(30, start=1), 30, 1000, Defer(at(59))),
    (burst(899, start=120, step=3), 25, 900, Allowed()),
    (burst(900, start=60, step=3), 25, 900, Defer(at(3600 - 60 - 899 * 3))),
    (burst(900, start=60, step=3) + burst(25, start=0), 25, 900, Defer(at(3600 - 60 - 874 * 3))),
    (burst(900, start=3600, step=1), 25, 900, Allowed()),  # all older than an hour
    ([at(5)] * 25, 25, 900, Defer(at(65))),  # another host's clock ahead: still counted
]


@pytest.mark.parametrize(("sent_at", "per_minute", "per_hour", "expected"), CASES)
def test_budget_decisions_at_the_boundaries(
    sent_at: list[datetime], per_minute: int, per_hour: int, expected: Allowed | Defer
) -> None:
    assert budget_decision(sent_at, NOW, per_minute=per_minute, per_hour=per_hour) == expected


def test_the_default_budget_keeps_a_margin_under_wecoms_limits() -> None:
    assert budget_decision(burst(24, start=1), NOW) == Allowed()
    assert isinstance(budget_decision(burst(25, start=1), NOW), Defer)


def test_the_order_of_the_history_does_not_matter() -> None:
    sends = burst(25, start=1, step=1)
    assert budget_decision(sends, NOW) == budget_decision(list(reversed(sends)), NOW)


@pytest.mark.parametrize(("per_minute", "per_hour"), [(31, 900), (25, 1001), (0, 900), (25, 0)])
def test_a_budget_beyond_wecoms_limits_is_refused(per_minute: int, per_hour: int) -> None:
    with pytest.raises(ValueError, match="WeCom"):
        budget_decision([], NOW, per_minute=per_minute, per_hour=per_hour)


def test_naive_datetimes_are_refused() -> None:
    with pytest.raises(ValueError, match="naive"):
        budget_decision([datetime(2026, 11, 25, 1, 59)], NOW)  # noqa: DTZ001 - the point
    with pytest.raises(ValueError, match="naive"):
        budget_decision([], datetime(2026, 11, 25, 2, 0))  # noqa: DTZ001 - the point
