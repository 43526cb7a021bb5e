"""The subscribe-message channel's error classifier: one table, pure functions, no I/O.

`POST /cgi-bin/message/subscribe/send` answers `{"errcode", "errmsg", "msgid"?}`;
`POST /cgi-bin/stable_token` answers `{"access_token", "expires_in"}` or an errcode
(PROVIDERS §5). Decisions:

- 0 with a msgid is accepted: WeChat took the message. There is no receipt API, so
  never "delivered".
- 40001 / 42001 on send: the cached token is stale: refresh it once and resend at
  once (`refresh_token`); a second rejection is what the row says (config: nothing
  will pass until someone looks at the AppSecret).
- 43101: the user refused, unsubscribed, or the one-time quota is used up. Permanent
  for this message; the water kind then invalidates the grant and pauses the plan.
- 47003 (template data), 40037 (template id), 41030 (page): config. Every reminder
  would fail the same way until an admin fixes the template or the release, so the
  channel is held and the admins told (the incidents machinery does both).
- stable_token's 40013 (AppID) and 40001/40125 (secret) are config too; -1 and a
  transport failure while fetching the token are transient (nothing was sent).
- 45009 (daily quota / frequency) and -1 on send: retry later.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from scheduler.channels import errors
from scheduler.channels.errors import Rule, Verdict, lookup
from storage.vocabulary import AttemptOutcome, ErrorClass

__all__ = ["TABLE", "TOKEN_TABLE", "classify_send", "classify_token", "parse_body"]

REFRESH = Rule(
    AttemptOutcome.RETRY,
    ErrorClass.TRANSIENT,
    "access_token invalid or expired",
    refresh_token=True,
)

TABLE: Final[Mapping[int | str, Rule]] = MappingProxyType(
    {
        0: errors.accepted("WeChat took the subscribe message (no receipt exists)"),
        40001: REFRESH,
        42001: REFRESH,
        "token_rejected_again": errors.config("access_token refused right after a refresh"),
        40003: errors.permanent("touser is not a valid openid of this mini-program"),
        43101: errors.permanent("user refused or unsubscribed, or the one-time quota is used up"),
        47003: errors.config("template data invalid (errmsg names the field)"),
        40037: errors.config("template_id invalid: check KEEPER_MP_TEMPLATE_ID"),
        41030: errors.config("page invalid: it must exist in the released version"),
        45009: errors.transient("WeChat's daily quota or frequency limit"),
        -1: errors.transient("WeChat busy"),
        "unknown_code": errors.permanent("errcode not in the table: WeChat says failed"),
        "recipient_refused": errors.permanent("not one openid"),
        **errors.TRANSPORT,
    }
)

TOKEN_TABLE: Final[Mapping[int | str, Rule]] = MappingProxyType(
    {
        40001: errors.config("stable_token: AppSecret wrong (KEEPER_MP_SECRET)"),
        40125: errors.config("stable_token: AppSecret invalid (KEEPER_MP_SECRET)"),
        40013: errors.config("stable_token: AppID invalid (KEEPER_MP_APPID)"),
        40164: errors.config("stable_token: this server's IP is not whitelisted"),
        -1: errors.transient("stable_token: WeChat busy; nothing was sent"),
        "unknown_code": errors.transient("stable_token refused; nothing was sent"),
        "bad_body": errors.transient("stable_token answer unreadable; nothing was sent"),
        **{
            name: errors.transient(f"stable_token {name}; nothing was sent")
            for name in errors.TRANSPORT
            if name not in ("bad_body", "http_4xx")
        },
        "http_4xx": errors.config("stable_token: HTTP 4xx from a proxy or the base URL"),
    }
)


def parse_body(body: bytes) -> dict[str, Any] | None:
    """WeChat's JSON object, or None for anything else."""
    try:
        value = json.loads(body)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def classify_send(status: int, body: bytes, *, retry_after: str | None = None) -> Verdict:
    """Classify subscribe/send's reply."""
    signal = errors.http_signal(status)
    data = parse_body(body) if signal is None else None
    if data is None or type(data.get("errcode", 0)) is not int:
        return errors.unreadable(TABLE, status, signal, body, retry_after)
    code, msg = data.get("errcode", 0), str(data.get("errmsg", ""))
    if code == 0:
        msgid = data.get("msgid")
        return lookup(TABLE, 0, message_id=None if msgid is None else str(msgid))
    return lookup(TABLE, code, detail=f"errcode {code}: {msg}")


def classify_token(status: int, body: bytes) -> tuple[str, float] | Verdict:
    """(access_token, expires_in) from stable_token's reply, or the verdict of its failure."""
    signal = errors.http_signal(status)
    data = parse_body(body) if signal is None else None
    if data is None:
        return errors.unreadable(TOKEN_TABLE, status, signal, body, None)
    token, expires_in = data.get("access_token"), data.get("expires_in")
    if isinstance(token, str) and token and isinstance(expires_in, int | float):
        return token, float(expires_in)
    code = data.get("errcode")
    signal_code = code if type(code) is int else "unknown_code"
    return lookup(TOKEN_TABLE, signal_code, detail=f"errcode {code}: {data.get('errmsg', '')}")
