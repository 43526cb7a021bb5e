"""WeCom's API vocabulary, shared by every endpoint of the fake.

One role: how WeCom says "no" (errcodes, their errmsg wording and shape) and the
body checks every POST endpoint starts with (is it a JSON object, is it for our
app). The endpoints themselves live in `fake_api` (gettoken, message/send) and
`fake_cards` (update_template_card).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from datetime import datetime
from typing import Any

__all__ = ["ERRMSGS", "Clock", "Json", "agent_error", "error_body", "json_object"]

Clock = Callable[[], datetime]
Json = dict[str, Any]

ERRMSGS = {
    -1: "system busy",
    40001: "invalid credential",
    40008: "invalid message type",
    40013: "invalid corpid",
    40016: "invalid button size",
    40017: "invalid button type",
    40018: "invalid button name size",
    40019: "invalid button key size",
    40014: "invalid access_token",
    40056: "invalid agentid",
    40058: "invalid parameter",
    41001: "access_token missing",
    42001: "access_token expired",
    44004: "empty content",
    45009: "api freq out of limit",
    42022: "code has been used, it can only be used once",
    47001: "data format error",
    48002: "api forbidden",
    60020: "not allow to access from your ip",
    81013: "user & party & tag all invalid",
    82001: "user & party & tag all empty",
    301002: "not allow operate another agent with this accesstoken",
}


def error_body(errcode: int, *, from_ip: str = "127.0.0.1", text: str | None = None) -> Json:
    """WeCom's error shape: errcode plus an errmsg (`text`, else the code's usual words)
    with a hint, the caller's address as WeCom saw it ("from ip: ...", what 企业可信 IP
    must list) and a query link."""
    text = ERRMSGS.get(errcode, "fake error") if text is None else text
    errmsg = (
        f"{text}, hint: [{secrets.token_hex(8)}], from ip: {from_ip}, "
        f"more info at https://open.work.weixin.qq.com/devtool/query?e={errcode}"
    )
    return {"errcode": errcode, "errmsg": errmsg}


def json_object(raw_body: bytes) -> Json | None:
    """The body as a JSON object, or None when it is not one (WeCom: 47001)."""
    try:
        value = json.loads(raw_body)
    except ValueError:  # also covers UnicodeDecodeError
        return None
    return value if isinstance(value, dict) else None


def agent_error(payload: Json, agent_id: int) -> int:
    """40056 for a missing or non-integer agentid; 301002 for another app's."""
    agentid = payload.get("agentid")
    if isinstance(agentid, str) and agentid.isdigit():
        agentid = int(agentid)
    if not isinstance(agentid, int) or isinstance(agentid, bool):
        return 40056
    return 301002 if agentid != agent_id else 0
