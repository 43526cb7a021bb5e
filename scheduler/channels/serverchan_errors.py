"""Server酱 Turbo's error classifier: one table, pure functions, no I/O.

`POST https://sctapi.ftqq.com/<SendKey>.send` answers
`{"code": 0, "message": "", "data": {"pushid", "readkey", "error", "errno"}}`; code 0
means the push was put in Server酱's queue ("返回的结果是放入队列是否成功"), so an
accepted send is that, with `pushid` kept as the message id (PROVIDERS.md section 2).

Decisions:

- code 0 with `data.pushid`: accepted. code 0 without a pushid: uncertain (queued
  or not, we cannot tell, and there is no id to ask about).
- The daily quota answer (`code` 40001, "[AUTH]超过当天的发送次数限制…"; seen with
  HTTP 200 over GET and HTTP 500 over POST) and HTTP 429 (this IP over its 24-hour
  call limit: "停止调用24小时后再尝试") are failures of the whole channel until the
  quota resets: **config** (hold it, tell the admins), each with its own reason.
  A JSON answer with a `code` is believed whatever the HTTP status, because
  Server酱 wrote it: that is how the 500-with-quota case is told from a 5xx that
  may have queued the push.
- A JSON object without `code` (a wrong SendKey: "Custom authentication failed"):
  failed, config. Any other non-zero code: permanent, `message` kept.
- Everything else: `errors.TRANSPORT`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from scheduler.channels import errors
from scheduler.channels.errors import Rule, Verdict, lookup
from scheduler.core.texts.channels import SERVERCHAN

__all__ = ["QUOTA_CODE", "TABLE", "classify_reply"]

QUOTA_CODE = 40001

TABLE: Final[Mapping[int | str, Rule]] = MappingProxyType(
    {
        0: errors.accepted(f"queued by {SERVERCHAN} (not a delivery)"),
        QUOTA_CODE: errors.config(f"{SERVERCHAN} refused: daily send quota used up ([AUTH])"),
        "http_429": errors.config(f"HTTP 429: this IP is over {SERVERCHAN}'s 24 h call limit"),
        "no_code": errors.config("answer without a code: the SendKey was not accepted"),
        "no_pushid": errors.uncertain("code 0 without a pushid"),
        "unknown_code": errors.permanent(f"{SERVERCHAN} refused the message"),
        "too_long": errors.permanent(f"over {SERVERCHAN}'s size limit; not sent"),
        "empty": errors.permanent("nothing to send"),
        **{k: v for k, v in errors.TRANSPORT.items() if k != "http_429"},
    }
)


def _json(body: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(body)
    except ValueError:  # also UnicodeDecodeError
        return None
    return value if isinstance(value, dict) else None


def classify_reply(status: int, body: bytes, *, retry_after: str | None = None) -> Verdict:
    """Classify `<SendKey>.send`'s reply (see the module docstring for the order)."""
    data = _json(body)
    signal = errors.http_signal(status)
    if data is not None and type(data.get("code")) is int:
        return _coded(data)
    if data is not None and signal in (None, "http_4xx"):
        return lookup(TABLE, "no_code", detail=f"HTTP {status}: {data.get('message', '')}")
    return errors.unreadable(TABLE, status, signal, body, retry_after)


def _coded(data: dict[str, Any]) -> Verdict:
    code, message = data["code"], str(data.get("message", ""))
    inner = data.get("data")
    pushid = inner.get("pushid") if isinstance(inner, dict) else None
    if code == 0 and not pushid:
        return lookup(TABLE, "no_pushid", detail="code 0: no data.pushid")
    return lookup(
        TABLE, code, detail=f"code {code}: {message}", message_id=str(pushid) if pushid else None
    )
