"""The fallback rule and the primary route (`scheduler.core.fallback`), as tables and a property."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scheduler.core.channel import SendResult
from scheduler.core.fallback import (
    Route,
    fallback_for,
    primary_route,
    route_of,
    sendkey_ref,
    user_of_ref,
)
from scheduler.core.outcomes import decide
from storage.records import JobRecord

WECOM = Route(channel="wecom_app", recipient="alice")
PUSHER = Route(channel="wxpusher", recipient="UID_alice0001")
CONFIGURED = frozenset({"wecom_app", "wxpusher", "serverchan_user"})


@pytest.mark.parametrize(
    ("policy", "outcome", "error_class", "channel", "tried", "fallback", "expected"),
    [
        # the one case that falls back: at least once, failed for good, first road
        ("at_least_once", "failed", "permanent", "wecom_app", {"wecom_app"}, PUSHER, PUSHER),
        ("at_least_once", "failed", "config", "wecom_app", {"wecom_app"}, PUSHER, PUSHER),
        ("at_least_once", "failed", "config", "wxpusher", {"wxpusher"}, WECOM, WECOM),
        # never for at-most-once, whatever happened
        ("at_most_once", "failed", "permanent", "wecom_app", {"wecom_app"}, PUSHER, None),
        ("at_most_once", "unknown", "uncertain", "wecom_app", {"wecom_app"}, PUSHER, None),
        # not failed for good: accepted, uncertain, transient
        ("at_least_once", "accepted", "none", "wecom_app", {"wecom_app"}, PUSHER, None),
        ("at_least_once", "unknown", "uncertain", "wecom_app", {"wecom_app"}, PUSHER, None),
        ("at_least_once", "retry", "transient", "wecom_app", {"wecom_app"}, PUSHER, None),
        ("at_least_once", "failed", "transient", "wecom_app", {"wecom_app"}, PUSHER, None),
        # no fallback, or the fallback is the road that failed
        ("at_least_once", "failed", "permanent", "wecom_app", {"wecom_app"}, None, None),
        ("at_least_once", "failed", "permanent", "wxpusher", {"wxpusher"}, PUSHER, None),
        # never a fallback after a fallback
        (
            "at_least_once",
            "failed",
            "permanent",
            "wxpusher",
            {"wecom_app", "wxpusher"},
            WECOM,
            None,
        ),
        ("at_least_once", "failed", "config", "wecom_app", {"wecom_app", "wxpusher"}, PUSHER, None),
    ],
)
def test_the_fallback_table(
    policy: str,
    outcome: str,
    error_class: str,
    channel: str,
    tried: set[str],
    fallback: Route | None,
    expected: Route | None,
) -> None:
    got = fallback_for(
        kind="custom",
        policy=policy,
        outcome=outcome,
        error_class=error_class,
        ends=ENDS[outcome],
        uncertain_before=False,
        channel=channel,
        tried=tried,
        fallback=fallback,
        configured=CONFIGURED,
    )
    assert got == expected


ENDS = {"accepted": "accepted", "failed": "failed", "unknown": "retry_wait", "retry": "retry_wait"}
"""The status `outcomes.decide` gives an at-least-once job with attempts left."""


@pytest.mark.parametrize(
    ("outcome", "error_class", "ends", "uncertain_before", "expected"),
    [
        # transient retries used up: the job would end failed, so it falls back
        ("retry", "transient", "failed", False, PUSHER),
        # ... but not while retries are left
        ("retry", "transient", "retry_wait", False, None),
        # an earlier attempt was uncertain (or accepted): it may have arrived
        ("failed", "permanent", "failed", True, None),
        ("failed", "config", "failed", True, None),
        ("retry", "transient", "failed", True, None),
        # an uncertain result that ends the job (attempts spent) never falls back
        ("unknown", "uncertain", "unknown", False, None),
    ],
)
def test_the_fallback_follows_the_jobs_end_and_its_history(
    outcome: str, error_class: str, ends: str, uncertain_before: bool, expected: Route | None
) -> None:
    got = fallback_for(
        kind="custom",
        policy="at_least_once",
        outcome=outcome,
        error_class=error_class,
        ends=ends,
        uncertain_before=uncertain_before,
        channel="wecom_app",
        tried={"wecom_app"},
        fallback=PUSHER,
        configured=CONFIGURED,
    )
    assert got == expected


def test_a_fallback_keeper_has_not_configured_is_not_taken() -> None:
    got = fallback_for(
        kind="custom",
        policy="at_least_once",
        outcome="failed",
        error_class="permanent",
        ends="failed",
        uncertain_before=False,
        channel="wecom_app",
        tried={"wecom_app"},
        fallback=PUSHER,
        configured={"wecom_app"},
    )
    assert got is None


@pytest.mark.parametrize("kind", ["card_update", "admin_alert"])
def test_card_updates_and_admin_alerts_never_fall_back(kind: str) -> None:
    got = fallback_for(
        kind=kind,
        policy="at_least_once",
        outcome="failed",
        error_class="config",
        ends="failed",
        uncertain_before=False,
        channel="wecom_app",
        tried={"wecom_app"},
        fallback=PUSHER,
        configured=CONFIGURED,
    )
    assert got is None


CHANNELS = st.sampled_from(["wecom_app", "wxpusher", "serverchan_user"])
RESULTS = st.sampled_from(
    [
        ("accepted", "none"),
        ("failed", "permanent"),
        ("failed", "config"),
        ("failed", "transient"),
        ("unknown", "uncertain"),
        ("retry", "transient"),
    ]
)


@given(
    policy=st.sampled_from(["at_least_once", "at_most_once"]),
    first=CHANNELS,
    fallback=CHANNELS,
    results=st.lists(RESULTS, min_size=1, max_size=8),
)
def test_a_job_leaves_its_first_road_at_most_once_and_never_when_at_most_once(
    policy: str, first: str, fallback: str, results: list[tuple[str, str]]
) -> None:
    """Play a job's attempts through `outcomes.decide`: each result on the current
    channel, moving when the rule says so, until the job ends. Whatever the results,
    it moves at most once, only at least once, only when it would end failed, and
    never after an attempt that may have arrived."""
    job = _job(policy)
    channel, tried, moves, seen = first, {first}, 0, set[str]()
    for n, (outcome, error_class) in enumerate(results, start=1):
        job = dataclasses.replace(job, attempts=n)
        result = SendResult(outcome=outcome, error_class=error_class)  # type: ignore[arg-type]
        ends = decide(job, result, NOW).status
        route = fallback_for(
            kind="custom",
            policy=policy,
            outcome=outcome,
            error_class=error_class,
            ends=ends,
            uncertain_before=bool(seen & {"unknown", "accepted"}),
            channel=channel,
            tried=tried,
            fallback=Route(channel=fallback, recipient="r"),
            configured=CONFIGURED,
        )
        seen.add(outcome)
        if route is not None:
            assert ends == "failed"
            assert outcome == "retry" or error_class in ("permanent", "config")
            assert not seen & {"unknown", "accepted"}
            assert route.channel != channel
            channel, moves = route.channel, moves + 1
            tried.add(channel)
        elif ends != "retry_wait":
            break  # the job ended
    assert moves <= 1
    if policy == "at_most_once":
        assert moves == 0


NOW = dt.datetime(2026, 11, 30, 9, tzinfo=dt.UTC)


def _job(policy: str) -> JobRecord:
    return JobRecord(
        id=1,
        user_id=1,
        rule_id=1,
        slot=NOW,
        status="processing",
        policy=policy,
        priority="high",
        channel="wecom_app",
        recipient="alice",
        payload_kind="custom",
        payload_ref=None,
        attempts=1,
        lease_owner="w",
    )


@pytest.mark.parametrize(
    ("kind", "made", "primary", "expected"),
    [
        ("custom", WECOM, PUSHER, PUSHER),
        ("water", WECOM, PUSHER, PUSHER),
        ("custom", WECOM, None, WECOM),
        ("card_update", WECOM, PUSHER, WECOM),  # a card lives in WeCom
        ("admin_alert", WECOM, PUSHER, WECOM),  # an alert has its own road
        ("custom", PUSHER, WECOM, PUSHER),  # a job already elsewhere stays
    ],
)
def test_the_primary_route_table(
    kind: str, made: Route, primary: Route | None, expected: Route
) -> None:
    assert primary_route(kind=kind, made=made, primary=primary, configured=CONFIGURED) == expected


def test_a_primary_keeper_cannot_use_leaves_the_job_on_the_wecom_app() -> None:
    got = primary_route(kind="custom", made=WECOM, primary=PUSHER, configured={"wecom_app"})
    assert got == WECOM


def test_a_server_chan_route_names_the_user_never_the_key() -> None:
    route = route_of(7, "serverchan_user", "v1.sealed")
    assert route == Route(channel="serverchan_user", recipient="user:7")
    assert user_of_ref(sendkey_ref(7)) == 7
    assert user_of_ref("alice") is None
    assert user_of_ref("user:x") is None
    assert route_of(7, "wxpusher", "UID_a") == Route(channel="wxpusher", recipient="UID_a")
