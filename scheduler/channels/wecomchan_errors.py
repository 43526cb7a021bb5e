"""The wecomchan-compatible endpoint's error classifier: one table, pure, no I/O.

wecomchan (easychen/wecomchan, PHP `index.php` or `go-wecomchan`) is a small relay
someone runs for themselves: `?sendkey=&msg=&msg_type=text` in, WeCom's own
`message/send` answer out (PROVIDERS.md section 4). So its table is WeCom's
(`wecom_errors.TABLE`) for the errcodes it passes through, plus its own answers:

- plain text `bad params` (HTTP 200; PHP: a wrong or missing sendkey, or an empty
  msg, and we never send an empty one): failed, **config**, as a wrong credential.
- an empty body (PHP could not get a WeCom token and printed `false`) and a dropped
  connection (Go panics on a wrong sendkey and net/http drops the connection):
  **unknown**. From here neither can be told from a relay that sent the message
  and then died, so only the rule's delivery policy may resend.
- WeCom's token errors (40014/42001/41001) are the relay's to refresh, not ours:
  plain transient (the Go version already retries 42001 itself).
- errcode 0 is accepted with WeCom's `msgid`. Recipients are the relay's own
  `touser` (its default is `@all`), so `invaliduser` is not ours to check.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Final

from scheduler.channels import errors
from scheduler.channels.errors import Rule, Verdict, lookup
from scheduler.channels.wecom_errors import TABLE as WECOM_TABLE
from scheduler.channels.wecom_errors import parse_body

__all__ = ["BAD_PARAMS", "TABLE", "classify_reply"]

BAD_PARAMS = b"bad params"


def _relayed(rule: Rule) -> Rule:
    return replace(rule, refresh_token=False)


TABLE: Final[Mapping[int | str, Rule]] = MappingProxyType(
    {
        **{code: _relayed(rule) for code, rule in WECOM_TABLE.items() if isinstance(code, int)},
        0: errors.accepted("accepted by WeCom through the relay (not a receipt)"),
        "bad_params": errors.config("relay said 'bad params': sendkey wrong"),
        "empty_body": errors.uncertain("relay answered nothing; it may have sent"),
        "unknown_code": errors.permanent("errcode not in the table: kept for an admin"),
        "empty": errors.permanent("nothing to send"),
        **errors.TRANSPORT,
    }
)


def classify_reply(status: int, body: bytes, *, retry_after: str | None = None) -> Verdict:
    """Classify the relay's reply: HTTP layer, its own answers, then WeCom's errcode."""
    signal = errors.http_signal(status)
    if signal is None and body.strip() == BAD_PARAMS:
        return lookup(TABLE, "bad_params", detail="bad params")
    if signal is None and not body.strip():
        return lookup(TABLE, "empty_body", detail=f"HTTP {status}, empty body")
    data = parse_body(body) if signal is None else None
    if data is None:
        return errors.unreadable(TABLE, status, signal, body, retry_after)
    code, msgid = data["errcode"], data.get("msgid")
    return lookup(
        TABLE,
        code,
        detail=f"errcode {code}: {data.get('errmsg', '')}",
        message_id=str(msgid) if msgid else None,
    )
