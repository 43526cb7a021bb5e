"""The WeCom classifier: the whole table as one table, reply parsing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scheduler.channels.wecom_errors import (
    TABLE,
    classify,
    classify_gettoken_reply,
    classify_send_reply,
    for_gettoken,
    parse_body,
)

# signal -> (outcome, error class, refresh the token first?)
EXPECTED: dict[int | str, tuple[str, str, bool]] = {
    0: ("accepted", "none", False),
    40014: ("retry", "transient", True),
    42001: ("retry", "transient", True),
    41001: ("retry", "transient", True),
    -1: ("retry", "transient", False),
    45009: ("retry", "transient", False),
    45033: ("retry", "transient", False),
    40001: ("failed", "config", False),
    40013: ("failed", "config", False),
    40056: ("failed", "config", False),
    41004: ("failed", "config", False),
    48002: ("failed", "config", False),
    50003: ("failed", "config", False),
    60011: ("failed", "config", False),
    60020: ("failed", "config", False),
    301002: ("failed", "config", False),
    81013: ("failed", "permanent", False),
    46004: ("failed", "permanent", False),
    60111: ("failed", "permanent", False),
    40008: ("failed", "permanent", False),
    44004: ("failed", "permanent", False),
    45002: ("failed", "permanent", False),
    47001: ("failed", "permanent", False),
    "recipient_rejected": ("failed", "permanent", False),
    "unknown_errcode": ("failed", "permanent", False),
    "bad_body": ("unknown", "uncertain", False),
    "http_5xx": ("unknown", "uncertain", False),
    "http_429": ("retry", "transient", False),
    "http_4xx": ("failed", "config", False),
    "connect_failed": ("retry", "transient", False),
    "timeout_after_send": ("unknown", "uncertain", False),
    "reset_after_send": ("unknown", "uncertain", False),
    "recipient_refused": ("failed", "permanent", False),
}


def test_the_table_has_exactly_the_reviewed_rows() -> None:
    assert set(TABLE) == set(EXPECTED)


@pytest.mark.parametrize(("signal", "expected"), list(EXPECTED.items()), ids=str)
def test_each_signal_classifies_as_the_table_says(
    signal: int | str, expected: tuple[str, str, bool]
) -> None:
    verdict = classify(signal)
    rule = verdict.rule
    assert (rule.outcome, rule.error_class, rule.refresh_token) == expected
    assert rule.note
    assert verdict.provider_code == (signal if isinstance(signal, int) else None)


def test_an_unknown_errcode_is_a_permanent_failure_that_keeps_its_code() -> None:
    verdict = classify(99999, detail="errcode 99999: something new")
    assert (verdict.rule, verdict.provider_code) == (TABLE["unknown_errcode"], 99999)


def test_the_frequency_limit_hints_a_wait_and_an_explicit_hint_wins() -> None:
    assert classify(45009).retry_after == 60.0
    assert classify(45009, retry_after=5.0).retry_after == 5.0
    assert classify(-1).retry_after is None


def body(**fields: Any) -> bytes:
    return json.dumps(fields).encode()


OK = {"errcode": 0, "errmsg": "ok", "invaliduser": "", "unlicenseduser": "", "msgid": "m1"}

SEND_REPLIES = [
    # (status, body, recipient, Retry-After) -> (signal, outcome, code, msgid, retry_after)
    (200, body(**OK), "ZhangSan", None, (0, "accepted", 0, "m1", None)),
    (200, body(**{**OK, "invaliduser": "lisi"}), "ZhangSan", None, (0, "accepted", 0, "m1", None)),
    (
        200,
        body(**{**OK, "invaliduser": "ghost|zhangsan"}),
        "ZhangSan",
        None,
        ("recipient_rejected", "failed", 0, None, None),
    ),
    (
        200,
        body(**{**OK, "unlicenseduser": "zhangsan"}),
        "ZhangSan",
        None,
        ("recipient_rejected", "failed", 0, None, None),
    ),
    (
        200,
        body(errcode=81013, errmsg="all invalid", invaliduser="zhangsan"),
        "ZhangSan",
        None,
        (81013, "failed", 81013, None, None),
    ),
    (200, body(errcode=42001, errmsg="expired"), "a", None, (42001, "retry", 42001, None, None)),
    (200, body(errcode=45009, errmsg="freq"), "a", None, (45009, "retry", 45009, None, 60.0)),
    (200, body(errcode=60020, errmsg="ip"), "a", None, (60020, "failed", 60020, None, None)),
    (200, body(errcode=123, errmsg="new"), "a", None, (123, "failed", 123, None, None)),
    (200, b"<html>oops</html>", "a", None, ("bad_body", "unknown", None, None, None)),
    (200, b"[1, 2]", "a", None, ("bad_body", "unknown", None, None, None)),
    (200, body(errcode="0"), "a", None, ("bad_body", "unknown", None, None, None)),
    (200, b"\xff\xfe", "a", None, ("bad_body", "unknown", None, None, None)),
    (502, b"<html>502</html>", "a", None, ("http_5xx", "unknown", None, None, None)),
    (504, body(**OK), "a", None, ("http_5xx", "unknown", None, None, None)),
    (429, b"slow down", "a", "7", ("http_429", "retry", None, None, 7.0)),
    (429, b"slow down", "a", "Wed, 21 Oct 2015", ("http_429", "retry", None, None, None)),
    (429, b"slow down", "a", "nan", ("http_429", "retry", None, None, None)),
    (429, b"slow down", "a", "-3", ("http_429", "retry", None, None, 0.0)),
    (404, b"not found", "a", None, ("http_4xx", "failed", None, None, None)),
]


@pytest.mark.parametrize(("status", "raw", "recipient", "retry_after", "expected"), SEND_REPLIES)
def test_send_replies_classify_per_recipient(
    status: int, raw: bytes, recipient: str, retry_after: str | None, expected: tuple[Any, ...]
) -> None:
    verdict = classify_send_reply(status, raw, recipient, retry_after=retry_after)
    got = (
        verdict.signal,
        verdict.rule.outcome,
        verdict.provider_code,
        verdict.message_id,
        verdict.retry_after,
    )
    assert got == expected


def test_a_send_reply_detail_carries_the_errmsg() -> None:
    verdict = classify_send_reply(200, body(errcode=48002, errmsg="api forbidden"), "a")
    assert verdict.detail == "errcode 48002: api forbidden"


def test_a_page_that_is_not_wecom_json_is_quoted_on_one_line() -> None:
    page = b"<html>\n  <h1>502 Bad Gateway</h1>\n</html>" + b"x" * 500
    verdict = classify_send_reply(502, page, "a")
    assert verdict.detail.startswith("HTTP 502: <html> <h1>502 Bad Gateway</h1> </html>x")
    assert len(verdict.detail) == len("HTTP 502: ") + 200
    assert classify_send_reply(503, b"", "a").detail == "HTTP 503"


@pytest.mark.parametrize(
    ("raw", "parsed"),
    [(b'{"errcode": 0}', {"errcode": 0}), (b'{"errcode": true}', None), (b"{}", None), (b"", None)],
)
def test_parse_body_wants_an_object_with_an_int_errcode(raw: bytes, parsed: object) -> None:
    assert parse_body(raw) == parsed


GETTOKEN_REPLIES = [
    # (status, body) -> (outcome, error class)
    (200, body(errcode=0, access_token="t", expires_in=7200), ("accepted", "none")),
    (200, body(errcode=0, access_token="", expires_in=7200), ("retry", "transient")),
    (200, body(errcode=0, access_token="t", expires_in="7200"), ("retry", "transient")),
    (200, body(errcode=0, access_token="t", expires_in=0), ("retry", "transient")),
    (200, body(errcode=40001, errmsg="bad secret"), ("failed", "config")),
    (200, body(errcode=40013, errmsg="bad corpid"), ("failed", "config")),
    (200, body(errcode=60020, errmsg="ip"), ("failed", "config")),
    (200, body(errcode=-1, errmsg="busy"), ("retry", "transient")),
    (200, body(errcode=45009, errmsg="freq"), ("retry", "transient")),
    (200, body(errcode=42001, errmsg="?"), ("retry", "transient")),
    (200, body(errcode=77777, errmsg="new"), ("failed", "config")),
    (200, b"not json", ("retry", "transient")),
    (503, b"", ("retry", "transient")),
    (403, b"", ("failed", "config")),
]


@pytest.mark.parametrize(("status", "raw", "expected"), GETTOKEN_REPLIES)
def test_gettoken_replies_are_never_uncertain_or_permanent(
    status: int, raw: bytes, expected: tuple[str, str]
) -> None:
    verdict = classify_gettoken_reply(status, raw)
    assert (verdict.rule.outcome, verdict.rule.error_class) == expected
    assert not verdict.rule.refresh_token


@pytest.mark.parametrize(
    ("signal", "expected"),
    [
        ("connect_failed", ("retry", "transient")),
        ("timeout_after_send", ("retry", "transient")),
        ("reset_after_send", ("retry", "transient")),
        (40001, ("failed", "config")),
        (81013, ("failed", "config")),
    ],
)
def test_for_gettoken_turns_uncertain_into_transient_and_permanent_into_config(
    signal: int | str, expected: tuple[str, str]
) -> None:
    rule = for_gettoken(classify(signal, detail="x")).rule
    assert (rule.outcome, rule.error_class) == expected


def test_a_userid_the_cut_would_halve_is_left_out_of_the_snippet() -> None:
    """Issue 20 item 4: `da` of `dave` is no longer `dave`, so no masking finds it."""
    head = b"<html><p>upstream refused the message for "
    page = head + b"x" * (199 - len(head) - 2) + b" dave</p></html>"
    detail = classify_send_reply(502, page, "a").detail
    assert detail.endswith("x …")  # the cut fell after `d`: the word went whole
    assert len(detail) <= len("HTTP 502: ") + 200
