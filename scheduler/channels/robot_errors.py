"""The WeCom group robot's error classifier: one table, pure functions, no I/O.

`POST /cgi-bin/webhook/send?key=KEY` answers `{"errcode", "errmsg"}`, errors too
with HTTP 200 ("check errcode, not errmsg"); no message id ever comes back, so an
accepted send carries none. Codes from the official robot page and WeCom's global
errcode table (see /work/shared/PROVIDERS.md section 3).

Decisions:

- 93000 (bad key, or the robot was removed from its group), 93004 (robot disabled)
  and 93008 (robot not in the group) can never succeed for any message until
  someone fixes the robot: failed, and filed as **config**, which DESIGN gives to a
  bad credential (hold the channel, tell the admins), rather than permanent, which
  would go on trying every next message against a dead key.
- 45009 (frequency limit: 20 a minute per robot) retries after 60 s; 45033
  (concurrency) and -1 (busy) retry with the backoff.
- 44004 (empty), 45002 (too long), 40008 (bad msgtype) are this message's fault:
  permanent. An errcode not in the table: permanent, code kept (a refusal).
- A body that is not the robot's JSON after the POST: uncertain (errors.TRANSPORT).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from scheduler.channels import errors
from scheduler.channels.errors import Rule, Verdict, lookup
from scheduler.channels.wecom_errors import parse_body

__all__ = ["TABLE", "classify_reply"]

TABLE: Final[Mapping[int | str, Rule]] = MappingProxyType(
    {
        0: errors.accepted("accepted by the group robot (no message id; not a receipt)"),
        93000: errors.config("webhook key invalid, or the robot was removed from the group"),
        93004: errors.config("robot disabled"),
        93008: errors.config("robot not in the group"),
        45009: errors.transient("robot frequency limit (20 a minute)", retry_after=60.0),
        45033: errors.transient("robot concurrency limit"),
        -1: errors.transient("system busy"),
        44004: errors.permanent("empty content"),
        45002: errors.permanent("content too long"),
        40008: errors.permanent("invalid message type"),
        "unknown_code": errors.permanent("errcode not in the table: kept for an admin"),
        "recipient_refused": errors.permanent("not one UserID to mention (never @all)"),
        "too_long": errors.permanent("over the robot's size limit; not sent"),
        **errors.TRANSPORT,
    }
)


def classify_reply(status: int, body: bytes, *, retry_after: str | None = None) -> Verdict:
    """Classify webhook/send's reply: the HTTP layer first, then the errcode."""
    signal = errors.http_signal(status)
    data = parse_body(body) if signal is None else None
    if data is None:
        return errors.unreadable(TABLE, status, signal, body, retry_after)
    code = data["errcode"]
    return lookup(TABLE, code, detail=f"errcode {code}: {data.get('errmsg', '')}")
