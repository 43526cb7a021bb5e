"""KEEPER_RETAIN_*_DAYS: how long the daily retention run keeps each kind of row."""

from __future__ import annotations

import pytest

from bot.settings import SettingsError, load_settings
from scheduler.core.retention_policy import Periods
from tests.settings_env import GOOD


def test_unset_periods_are_the_defaults() -> None:
    assert load_settings(GOOD).operations.retention == Periods(messages=30, jobs=180, links=7)


def test_each_period_is_read_from_its_own_variable() -> None:
    env = {
        **GOOD,
        "KEEPER_RETAIN_MESSAGES_DAYS": "90",
        "KEEPER_RETAIN_JOBS_DAYS": " 365 ",
        "KEEPER_RETAIN_LINKS_DAYS": "1",
    }
    assert load_settings(env).operations.retention == Periods(messages=90, jobs=365, links=1)


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        (
            "KEEPER_RETAIN_MESSAGES_DAYS",
            "0",
            "from 7 to 3650 (default 30; less than 7 is refused: 撤销",
        ),
        ("KEEPER_RETAIN_MESSAGES_DAYS", "6", "from 7 to 3650"),
        ("KEEPER_RETAIN_JOBS_DAYS", "0", "from 14 to 3650 (default 180; less than 14 is refused: "),
        ("KEEPER_RETAIN_JOBS_DAYS", "13", "from 14 to 3650"),
        ("KEEPER_RETAIN_LINKS_DAYS", "0", "from 1 to 3650 (default 7;"),
        ("KEEPER_RETAIN_LINKS_DAYS", "3651", "from 1 to 3650"),
        ("KEEPER_RETAIN_JOBS_DAYS", "-30", "whole number of days"),
        ("KEEPER_RETAIN_JOBS_DAYS", "30d", "whole number of days"),
        ("KEEPER_RETAIN_JOBS_DAYS", "1.5", "whole number of days"),
    ],
)
def test_zero_or_a_period_below_its_minimum_is_refused_by_name(
    name: str, value: str, message: str
) -> None:
    with pytest.raises(SettingsError, match=rf"^{name} must be a whole number of days") as refused:
        load_settings({**GOOD, name: value})
    assert message in str(refused.value)


def test_the_minimum_itself_is_accepted() -> None:
    env = {
        **GOOD,
        "KEEPER_RETAIN_MESSAGES_DAYS": "7",
        "KEEPER_RETAIN_JOBS_DAYS": "14",
        "KEEPER_RETAIN_LINKS_DAYS": "1",
    }
    assert load_settings(env).operations.retention == Periods(messages=7, jobs=14, links=1)
