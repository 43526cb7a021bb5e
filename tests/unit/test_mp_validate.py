"""The mini-program API's request checks (pure), as tables."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.mp import validate
from handlers import texts

NOW = dt.datetime(2026, 11, 25, 2, 0, tzinfo=dt.UTC)
ID = "0b9f3c1e-1111-4222-8333-444455556666"
ACTION: dict[str, Any] = {
    "action_id": ID,
    "grant_request_id": None,
    "subscription_status": "skipped",
    "occurred_at": "2026-11-25T10:00:00+08:00",
    "current_count": 3,
    "daily_goal": 8,
}


def code_of(call: Any) -> str:
    with pytest.raises(validate.Bad) as bad:
        call()
    return bad.value.code


def test_a_good_action_reads_into_an_aware_utc_instant() -> None:
    action = validate.action(ACTION)
    validate.occurred(action, NOW)
    assert action.occurred_at == NOW
    assert (action.grant_request_id, action.subscription_status) == (None, "skipped")


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"occurred_at": "2026-11-25T10:10:01+08:00"}, "occurred_at_out_of_range"),
        ({"occurred_at": "2026-11-23T09:59:59+08:00"}, "occurred_at_out_of_range"),
        ({"occurred_at": "2026-11-25T10:00:00"}, "bad_request"),
        ({"occurred_at": "yesterday"}, "bad_request"),
        ({"occurred_at": "0001-01-01T00:00:00+01:00"}, "bad_request"),  # before year 1 in UTC
        ({"occurred_at": "9999-12-31T23:59:59-01:00"}, "bad_request"),  # after year 9999
        ({"occurred_at": "0001-01-01T00:00:00+00:00"}, "occurred_at_out_of_range"),
        ({"action_id": 5}, "bad_request"),
        ({"subscription_status": "accept"}, "bad_request"),  # accept without a request id
        ({"grant_request_id": ID}, "bad_request"),  # a request id with "skipped"
        ({"current_count": -1}, "bad_request"),
        ({"daily_goal": True}, "bad_request"),
    ],
)
def test_a_bad_action_is_refused_with_its_code(change: dict[str, Any], code: str) -> None:
    assert code_of(lambda: validate.occurred(validate.action(ACTION | change), NOW)) == code


@pytest.mark.parametrize(
    ("body", "ok"),
    [
        ({"request_id": ID, "template_id": "T", "result": "accept"}, True),
        ({"request_id": ID, "template_id": "T", "result": "filter"}, True),
        ({"request_id": ID, "template_id": "U", "result": "accept"}, False),
        ({"request_id": ID, "template_id": "T", "result": "maybe"}, False),
        ({"request_id": "x", "template_id": "T", "result": "accept"}, False),
        ([], False),
    ],
)
def test_grant_answers(body: object, ok: bool) -> None:
    if ok:
        assert validate.grant(body, "T").request_id == ID
    else:
        assert code_of(lambda: validate.grant(body, "T")) == "bad_request"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"action": "update", "interval_minutes": 10}, texts.INTERVAL_HINT),
        ({"action": "update", "daily_goal": 31}, texts.GOAL_HINT),
        ({"action": "update", "wake": "7:00", "sleep": "22:00"}, texts.WINDOW_HINT),
        ({"action": "update", "sleep": "22:00"}, texts.WINDOW_HINT),
        ({"action": "update", "wake": "23:00", "sleep": "07:00"}, texts.WINDOW_ORDER),
        ({"action": "update"}, ""),
        ({"action": "open"}, ""),
    ],
)
def test_plan_changes_are_checked_with_the_chats_words(body: object, message: str) -> None:
    with pytest.raises(validate.Bad) as bad:
        validate.plan(body)
    assert (bad.value.code, bad.value.message) == ("bad_request", message)


def test_a_good_plan_update_reads_every_value() -> None:
    change = validate.plan(
        {"action": "update", "interval_minutes": 90, "wake": "07:30", "sleep": "23:00"}
    )
    assert (change.interval_minutes, change.wake, change.sleep, change.daily_goal) == (
        90,
        dt.time(7, 30),
        dt.time(23, 0),
        None,
    )


def test_an_actions_digest_names_what_it_says_not_how_it_is_written() -> None:
    first = validate.digest(validate.action(ACTION))
    same_instant = validate.action(ACTION | {"occurred_at": "2026-11-25T02:00:00+00:00"})
    assert validate.digest(same_instant) == first
    reordered = dict(reversed(list(ACTION.items())))
    assert validate.digest(validate.action(reordered)) == first
    for change in (
        {"current_count": 4},
        {"daily_goal": 9},
        {"occurred_at": "2026-11-25T10:00:01+08:00"},
        {"grant_request_id": ID, "subscription_status": "accept"},
    ):
        assert validate.digest(validate.action(ACTION | change)) != first, change
