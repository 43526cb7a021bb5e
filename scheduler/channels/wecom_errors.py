"""The WeCom app channel's error classifier: one table, pure functions, no I/O.

Every way a call to WeCom can end is a *signal*: an errcode (an int) or a named
event (a str). `TABLE` maps each signal to a `Rule` (`scheduler.channels.errors`:
outcome, error class, and whether to refresh the token). `classify_send_reply` and
`classify_gettoken_reply` turn an HTTP reply into a signal; the client turns a
transport exception into one (see `scheduler.channels.wecom_app`). Nothing else
decides.

Decisions where WeCom's documentation is silent:

- HTTP 5xx, or a 2xx body that is not WeCom's JSON, after the POST was written:
  **uncertain**. message/send is not idempotent and a gateway's 502/504 can come
  after the backend already delivered; only the rule's delivery policy may decide
  to resend (at-least-once, with `enable_duplicate_check`).
- HTTP 429: transient, honouring `Retry-After`. Other HTTP 4xx: **config**. The API
  answers every error with HTTP 200 and an errcode, so a 4xx comes from something in
  between (a proxy, a wrong `api_base`): every message would fail until an admin
  fixes the deployment.
- An errcode we do not know: **permanent** failure, code kept. A non-zero errcode
  means WeCom refused the call ("非0表示调用失败"), so nothing was delivered; the
  documented retryable codes are few (-1 and the frequency limits, listed here), and
  the rest of the global table are parameter and permission errors that a retry
  cannot fix but would spend quota on. The stored code tells an admin which row to add.
- A token error (40014/42001/41001) that survives one refresh: transient; the next
  attempt fetches again. Only a config error holds the channel.
- gettoken sends nothing, so its failures are never uncertain: see `for_gettoken`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any, Final

from scheduler.channels.errors import (
    Rule,
    Verdict,
    accepted,
    config,
    http_signal,
    permanent,
    retry_after_seconds,
    snippet,
    transient,
    uncertain,
)
from storage.vocabulary import AttemptOutcome, ErrorClass

__all__ = [
    "TABLE",
    "classify",
    "classify_gettoken_reply",
    "classify_send_reply",
    "for_gettoken",
    "parse_body",
]

Json = dict[str, Any]


def _token(note: str) -> Rule:
    return Rule(AttemptOutcome.RETRY, ErrorClass.TRANSIENT, note, refresh_token=True)


TABLE: Final[Mapping[int | str, Rule]] = MappingProxyType(
    {
        # -- WeCom answered with an errcode ------------------------------------------
        0: accepted("accepted by WeCom (not a receipt)"),
        40014: _token("invalid access_token: refresh once, resend at once"),
        42001: _token("access_token expired: refresh once, resend at once"),
        41001: _token("access_token missing: refresh once, resend at once"),
        -1: transient("system busy"),
        45009: transient("api frequency limit", retry_after=60.0),  # per-minute windows
        45033: transient("api concurrency limit"),
        40001: config("invalid secret or credential"),
        40013: config("invalid corpid"),
        40056: config("invalid agentid"),
        41004: config("corpsecret missing"),
        48002: config("api forbidden for this app"),
        50003: config("app disabled"),
        60011: config("no privilege for this member (app visibility)"),
        60020: config("server IP not in the app's trusted IPs"),
        301002: config("access_token belongs to another app"),
        81013: permanent("recipient invalid: user & party & tag all invalid"),
        46004: permanent("recipient does not exist"),
        60111: permanent("recipient userid does not exist"),
        40008: permanent("invalid message type"),
        44004: permanent("empty content"),
        45002: permanent("content too long"),
        47001: permanent("request body not valid JSON"),
        # -- derived from a reply ----------------------------------------------------
        "recipient_rejected": permanent("errcode 0 but recipient in invaliduser/unlicenseduser"),
        "unknown_errcode": permanent("errcode not in the table: kept for an admin"),
        "bad_body": uncertain("reply is not WeCom's JSON; it may have been processed"),
        "http_5xx": uncertain("HTTP 5xx after the request was sent"),
        "http_429": transient("HTTP 429 from a proxy"),
        "http_4xx": config("HTTP 4xx: a proxy or api_base refused the request"),
        # -- transport (see wecom_app for the exception mapping) --------------------
        "connect_failed": transient("could not connect; nothing was sent"),
        "timeout_after_send": uncertain("timed out after the request was sent"),
        "reset_after_send": uncertain("connection lost after the request was sent"),
        "recipient_refused": permanent("not one explicit UserID (never @all)"),
    }
)


def classify(signal: int | str, *, detail: str = "", retry_after: float | None = None) -> Verdict:
    """The verdict for a signal; an int missing from the table is `unknown_errcode`."""
    rule = TABLE.get(signal) or TABLE["unknown_errcode"]
    code = signal if isinstance(signal, int) else None
    hint = retry_after if retry_after is not None else rule.retry_after
    return Verdict(signal=signal, rule=rule, provider_code=code, detail=detail, retry_after=hint)


def parse_body(body: bytes) -> Json | None:
    """WeCom's JSON object with an int errcode, or None for anything else."""
    try:
        value = json.loads(body)
    except ValueError:  # also UnicodeDecodeError
        return None
    if not isinstance(value, dict) or type(value.get("errcode")) is not int:
        return None
    return value


def _reply_verdict(status: int, body: bytes, retry_after: str | None) -> Verdict | Json:
    """The verdict for a failed HTTP layer or a body that is not WeCom's; else the JSON."""
    signal = http_signal(status)
    data = parse_body(body) if signal is None else None
    if data is not None:
        return data
    start = snippet(body)
    detail = f"HTTP {status}: {start}" if start else f"HTTP {status}"
    return classify(
        signal or "bad_body", detail=detail, retry_after=retry_after_seconds(retry_after)
    )


def _listed(recipient: str, data: Json) -> bool:
    """WeCom lists rejected user ids lower-cased, `|`-separated."""
    listed = f"{data.get('invaliduser') or ''}|{data.get('unlicenseduser') or ''}"
    return recipient.lower() in {u.strip().lower() for u in listed.split("|")}


def classify_send_reply(
    status: int, body: bytes, recipient: str, *, retry_after: str | None = None
) -> Verdict:
    """Classify message/send's reply for one recipient.

    `retry_after` is the raw `Retry-After` header. An accepted verdict carries the
    msgid; errcode 0 with the recipient listed in invaliduser/unlicenseduser is a
    permanent failure for that recipient.
    """
    data = _reply_verdict(status, body, retry_after)
    if isinstance(data, Verdict):
        return data
    code, errmsg = data["errcode"], str(data.get("errmsg", ""))
    if code == 0 and _listed(recipient, data):
        verdict = classify("recipient_rejected", detail=f"errcode 0: {errmsg}")
        return replace(verdict, provider_code=0)
    verdict = classify(code, detail=f"errcode {code}: {errmsg}")
    msgid = data.get("msgid") if verdict.rule.outcome == AttemptOutcome.ACCEPTED else None
    return replace(verdict, message_id=str(msgid) if msgid else None)


def classify_gettoken_reply(status: int, body: bytes, *, retry_after: str | None = None) -> Verdict:
    """Classify gettoken's reply; accepted only with a token and a positive expires_in."""
    data = _reply_verdict(status, body, retry_after)
    if isinstance(data, Verdict):
        return for_gettoken(data)
    code = data["errcode"]
    token, expires_in = data.get("access_token"), data.get("expires_in")
    well_formed = isinstance(token, str) and token and type(expires_in) is int and expires_in > 0
    if code == 0 and not well_formed:
        return for_gettoken(classify("bad_body", detail="errcode 0 without a usable token"))
    return for_gettoken(classify(code, detail=f"errcode {code}: {data.get('errmsg', '')}"))


_GETTOKEN_RULES: Final[Mapping[ErrorClass, Rule]] = MappingProxyType(
    {
        ErrorClass.UNCERTAIN: transient("gettoken failed; nothing was sent"),
        ErrorClass.PERMANENT: config("gettoken refused; no message can be sent"),
    }
)


def for_gettoken(verdict: Verdict) -> Verdict:
    """The verdict as seen from gettoken, which sends nothing and is idempotent.

    Uncertain becomes transient (no message can have left); permanent becomes config
    (no token means no message to anyone); a token error becomes plain transient.
    """
    rule = _GETTOKEN_RULES.get(verdict.rule.error_class)
    if rule is None and verdict.rule.refresh_token:
        rule = transient(verdict.rule.note)
    return verdict if rule is None else replace(verdict, rule=rule)
