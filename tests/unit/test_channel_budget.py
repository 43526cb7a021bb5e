"""`window_decision`: any provider's sliding windows, as (previous calls, expected) tables."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from scheduler.channels.budget import Allowed, Defer, window_decision

NOW = datetime(2026, 11, 25, 2, 0, tzinfo=UTC)
S = timedelta(seconds=1)
ROBOT = [(timedelta(minutes=1), 20)]
WXPUSHER = [(timedelta(seconds=10), 20)]


@pytest.mark.parametrize(
    ("ago", "windows", "expected"),
    [
        ([], ROBOT, Allowed()),
        ([i * S for i in range(19)], ROBOT, Allowed()),
        ([i * S for i in range(20)], ROBOT, Defer(NOW + 41 * S)),  # oldest (19 s ago) + 60 s
        ([60 * S] * 20, ROBOT, Allowed()),  # left the window exactly now
        ([i * S / 2 for i in range(20)], WXPUSHER, Defer(NOW + 10 * S - 19 * S / 2)),
        ([11 * S] * 50, WXPUSHER, Allowed()),
        ([-5 * S] * 20, WXPUSHER, Defer(NOW + 15 * S)),  # stamped ahead by another clock
        ([i * S for i in range(20)], [], Allowed()),  # no windows: no budget
    ],
)
def test_one_more_call_fits_or_waits_for_the_earliest_free_moment(
    ago: list[timedelta], windows: list[tuple[timedelta, int]], expected: Allowed | Defer
) -> None:
    assert window_decision([NOW - a for a in ago], NOW, windows) == expected


def test_several_windows_wait_for_the_latest_of_them() -> None:
    sent = [NOW - i * S for i in range(5)]
    windows = [(timedelta(seconds=10), 5), (timedelta(minutes=1), 100)]
    assert window_decision(sent, NOW, windows) == Defer(NOW + 6 * S)


@pytest.mark.parametrize(
    ("sent", "now", "windows"),
    [
        ([], NOW.replace(tzinfo=None), ROBOT),
        ([NOW.replace(tzinfo=None)], NOW, ROBOT),
        ([], NOW, [(timedelta(minutes=1), 0)]),
        ([], NOW, [(timedelta(0), 5)]),
    ],
)
def test_naive_times_and_empty_windows_are_refused(
    sent: list[datetime], now: datetime, windows: list[tuple[timedelta, int]]
) -> None:
    with pytest.raises(ValueError, match=r"naive|window"):
        window_decision(sent, now, windows)
