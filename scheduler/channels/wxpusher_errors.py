"""WxPusher's error classifier: one table, pure functions, no I/O.

`POST /api/send/message` answers `{"code", "msg", "data": [...], "success"}` with one
`data` item per uid, each with its own `code`, `status` and `sendRecordId`
(PROVIDERS.md section 1). Sending is asynchronous: code 1000 only means a send
task was created, so an accepted send is exactly that, with the target's
`sendRecordId` kept as the message id. Never "delivered".

Decisions:

- Top-level code 1000 decides nothing alone: the item for our uid must say 1000
  too. An item with another code is that target's failure (permanent, its code and
  status kept). Code 1000 with no item for our uid: uncertain, since the answer
  neither confirms a task for this person nor denies one.
- Every other top-level code is failed, with its `msg`. The official SDK's names
  are in the table for the admin who reads the code; only 1002 (未登录: the
  appToken is wrong or was reset) and 1003 (signature) are **config**, since every
  message fails until someone fixes the credential. The rest are permanent: the
  official docs give no retryable codes (Apprise's different code list is
  unconfirmed, so it is not used).
- HTTP layer and transport: `errors.TRANSPORT` (a 5xx or a garbled body after the
  POST is uncertain: the task may exist).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any, Final

from scheduler.channels import errors
from scheduler.channels.errors import Rule, Verdict, lookup

__all__ = ["SUCCESS", "TABLE", "classify_reply", "parse_body"]

SUCCESS = 1000

TABLE: Final[Mapping[int | str, Rule]] = MappingProxyType(
    {
        SUCCESS: errors.accepted("send task created by WxPusher (not a delivery)"),
        1001: errors.permanent("WxPusher refused the call (business error)"),
        1002: errors.config("not logged in: appToken wrong or reset"),
        1003: errors.config("signature failed"),
        1004: errors.permanent("not found"),
        1005: errors.permanent("WxPusher internal error; it says failed"),
        1006: errors.permanent("WeChat error; WxPusher says failed"),
        1007: errors.permanent("network error; WxPusher says failed"),
        1008: errors.permanent("data error"),
        1009: errors.permanent("unknown error; WxPusher says failed"),
        "unknown_code": errors.permanent("code not in the table: WxPusher says failed"),
        "target_failed": errors.permanent("WxPusher refused this uid"),
        "target_missing": errors.uncertain("code 1000 but no item for this uid"),
        "recipient_refused": errors.permanent("not one WxPusher UID (never a topic)"),
        "too_long": errors.permanent("content over 40000 characters; not sent"),
        **errors.TRANSPORT,
    }
)


def parse_body(body: bytes) -> dict[str, Any] | None:
    """WxPusher's JSON object with an int `code`, or None for anything else."""
    try:
        value = json.loads(body)
    except ValueError:  # also UnicodeDecodeError
        return None
    if not isinstance(value, dict) or type(value.get("code")) is not int:
        return None
    return value


def classify_reply(
    status: int, body: bytes, uid: str, *, retry_after: str | None = None
) -> Verdict:
    """Classify send/message's reply for the one `uid` we sent to."""
    signal = errors.http_signal(status)
    data = parse_body(body) if signal is None else None
    if data is None:
        return errors.unreadable(TABLE, status, signal, body, retry_after)
    code, msg = data["code"], str(data.get("msg", ""))
    if code != SUCCESS:
        return lookup(TABLE, code, detail=f"code {code}: {msg}")
    return _target_verdict(data.get("data"), uid)


def _target_verdict(items: object, uid: str) -> Verdict:
    """The verdict of our uid's own item in `data[]`."""
    listed = items if isinstance(items, list) else []
    mine = [i for i in listed if isinstance(i, dict) and i.get("uid") == uid]
    if not mine:
        return lookup(TABLE, "target_missing", detail="no data item for the uid")
    item = mine[0]
    code, status = item.get("code"), str(item.get("status", ""))
    if code != SUCCESS:
        verdict = lookup(TABLE, "target_failed", detail=f"target code {code}: {status}")
        return _with_code(verdict, code)
    record = item.get("sendRecordId")
    return lookup(TABLE, SUCCESS, message_id=str(record) if record is not None else None)


def _with_code(verdict: Verdict, code: object) -> Verdict:
    return replace(verdict, provider_code=code if type(code) is int else None)
