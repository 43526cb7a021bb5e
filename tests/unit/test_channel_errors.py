"""The extra channels' classifiers as one table: (reply) -> (outcome, class, code)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from scheduler.channels import robot_errors, serverchan_errors, wecomchan_errors, wxpusher_errors
from scheduler.channels.errors import TRANSPORT, Rule, Verdict

UID = "UID_me0001"
Classify = Callable[..., Verdict]


def robot(status: int, body: bytes, retry_after: str | None = None) -> Verdict:
    return robot_errors.classify_reply(status, body, retry_after=retry_after)


def wxpusher(status: int, body: bytes, retry_after: str | None = None) -> Verdict:
    return wxpusher_errors.classify_reply(status, body, UID, retry_after=retry_after)


def serverchan(status: int, body: bytes, retry_after: str | None = None) -> Verdict:
    return serverchan_errors.classify_reply(status, body, retry_after=retry_after)


def wecomchan(status: int, body: bytes, retry_after: str | None = None) -> Verdict:
    return wecomchan_errors.classify_reply(status, body, retry_after=retry_after)


def j(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode()


def item(code: Any, record: Any = 42, uid: str = UID) -> dict[str, Any]:
    return {"uid": uid, "code": code, "status": "s", "sendRecordId": record}


@pytest.mark.parametrize(
    ("classify", "status", "body", "expected", "message_id"),
    [
        # the group robot
        (robot, 200, j({"errcode": 0, "errmsg": "ok"}), ("accepted", "none", 0), None),
        (robot, 200, j({"errcode": "0"}), ("unknown", "uncertain", None), None),
        (robot, 200, j([0]), ("unknown", "uncertain", None), None),
        (robot, 200, b"<html>ok</html>", ("unknown", "uncertain", None), None),
        (robot, 503, j({"errcode": 0}), ("unknown", "uncertain", None), None),
        (robot, 200, j({"errcode": 93000}), ("failed", "config", 93000), None),
        (robot, 200, j({"errcode": 45009}), ("retry", "transient", 45009), None),
        # WxPusher
        (wxpusher, 200, j({"code": 1000, "data": [item(1000)]}), ("accepted", "none", 1000), "42"),
        (
            wxpusher,
            200,
            j({"code": 1000, "data": [item(1000, None)]}),
            ("accepted", "none", 1000),
            None,
        ),
        (
            wxpusher,
            200,
            j({"code": 1000, "data": [item("1000")]}),
            ("failed", "permanent", None),
            None,
        ),
        (
            wxpusher,
            200,
            j({"code": 1000, "data": [item(1001)]}),
            ("failed", "permanent", 1001),
            None,
        ),
        (wxpusher, 200, j({"code": "1000"}), ("unknown", "uncertain", None), None),
        (wxpusher, 200, j({"code": 1002, "msg": "未登录"}), ("failed", "config", 1002), None),
        (wxpusher, 200, j({"code": 4242, "msg": "?"}), ("failed", "permanent", 4242), None),
        (
            wxpusher,
            502,
            j({"code": 1000, "data": [item(1000)]}),
            ("unknown", "uncertain", None),
            None,
        ),
        # Server酱
        (serverchan, 200, j({"code": 0, "data": {"pushid": "7"}}), ("accepted", "none", 0), "7"),
        (serverchan, 200, j({"code": 0, "data": None}), ("unknown", "uncertain", None), None),
        (
            serverchan,
            500,
            j({"code": 40001, "message": "[AUTH]…"}),
            ("failed", "config", 40001),
            None,
        ),
        (
            serverchan,
            200,
            j({"message": "Custom authentication failed"}),
            ("failed", "config", None),
            None,
        ),
        (
            serverchan,
            403,
            j({"message": "Custom authentication failed"}),
            ("failed", "config", None),
            None,
        ),
        (serverchan, 503, j({"message": "upstream"}), ("unknown", "uncertain", None), None),
        (serverchan, 429, b"", ("failed", "config", None), None),
        (serverchan, 200, j(["x"]), ("unknown", "uncertain", None), None),
        # wecomchan
        (wecomchan, 200, b"bad params", ("failed", "config", None), None),
        (wecomchan, 200, b"", ("unknown", "uncertain", None), None),
        (wecomchan, 200, j({"errcode": 0, "msgid": "m1"}), ("accepted", "none", 0), "m1"),
        (wecomchan, 200, j({"errcode": 42001}), ("retry", "transient", 42001), None),
        (wecomchan, 200, j({"errcode": 81013}), ("failed", "permanent", 81013), None),
        (wecomchan, 500, b"bad params", ("unknown", "uncertain", None), None),
    ],
)
def test_each_reply_has_one_verdict(
    classify: Classify,
    status: int,
    body: bytes,
    expected: tuple[str, str, int | None],
    message_id: str | None,
) -> None:
    verdict = classify(status, body)
    assert (verdict.rule.outcome, verdict.rule.error_class, verdict.provider_code) == expected
    assert verdict.message_id == message_id


@pytest.mark.parametrize("classify", [robot, wxpusher, wecomchan])
def test_a_proxys_429_is_retried_after_its_retry_after(classify: Classify) -> None:
    verdict = classify(429, b"slow down", "30")
    assert (verdict.rule.outcome, verdict.retry_after) == ("retry", 30.0)


TABLES: Mapping[str, Mapping[int | str, Rule]] = {
    "robot": robot_errors.TABLE,
    "wxpusher": wxpusher_errors.TABLE,
    "serverchan": serverchan_errors.TABLE,
    "wecomchan": wecomchan_errors.TABLE,
}


@pytest.mark.parametrize("name", TABLES)
def test_every_table_has_a_row_for_every_transport_signal_and_unknown_codes(name: str) -> None:
    table = TABLES[name]
    assert set(TRANSPORT) | {"unknown_code"} <= set(table)
    assert not any(rule.refresh_token for rule in table.values())  # no tokens to refresh
    assert {rule.outcome for code, rule in table.items() if code == 0 or code == 1000} <= {
        "accepted"
    }
