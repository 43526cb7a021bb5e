"""Redaction: no secret, token, key or UserID leaves in a log line or a stored error text.

`redact` removes every configured secret value and any value of `access_token=`,
`corpsecret=`, `secret=`, `key=` or `sendkey=` in a URL or query string (and the
same names as JSON fields, as in `"access_token": "..."`), then tags every UserID
keeper knows (`scheduler.core.user_ids`: the process's known set and the ones passed
in, such as the job's recipient), then cuts the text to a maximum length. It is
the one place every error text passes: each channel's result, the stored attempt
(`outcomes.attempt`), the logging filter and the admin page all call it. Secret
values shorter than 4 characters are ignored: no real secret is that short, and
replacing, say, "tok" would shred ordinary words (including the very name
"access_token").
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterable

from scheduler.core.user_ids import KNOWN, mask_ids, user_id_index

__all__ = [
    "ERROR_MAX_CHARS",
    "MIN_SECRET_CHARS",
    "REDACTED",
    "mask_user",
    "redact",
    "secret_values",
    "set_user_mask_key",
]

REDACTED = "***"
ERROR_MAX_CHARS = 500  # a delivery attempt's stored error text
MIN_SECRET_CHARS = 4
_NAMES = r"access_token|corpsecret|secret|key|sendkey|apptoken"  # (?i): WxPusher's appToken
URL_SECRETS = re.compile(rf"(?i)\b({_NAMES})=([^&\s\"']+)")
JSON_SECRETS = re.compile(rf"(?i)(\"(?:{_NAMES})\"\s*:\s*\")([^\"]*)(\")")


_user_mask_key = b"keeper"


def set_user_mask_key(key: str) -> None:
    """Key the UserID tags with a deployment secret (set once at start-up), so the
    same member has the same tag in every process's log, and a tag cannot be turned
    back into a UserID by hashing a list of names."""
    global _user_mask_key
    _user_mask_key = key.encode() or b"keeper"


def mask_user(user_id: str) -> str:
    """A WeCom UserID as it may appear in a log line: `u:` and 8 hex characters of a
    keyed hash. Stable, so a person can follow one member; never the UserID itself."""
    digest = hmac.new(_user_mask_key, user_id.encode(), hashlib.sha256).hexdigest()
    return f"u:{digest[:8]}"


def secret_values(secrets: Iterable[str]) -> tuple[str, ...]:
    """The values worth replacing, longest first (so a secret containing another
    is replaced whole), without duplicates or too-short values."""
    return tuple(sorted({s for s in secrets if len(s) >= MIN_SECRET_CHARS}, key=len, reverse=True))


def redact(
    text: str,
    secrets: Iterable[str] = (),
    *,
    users: Iterable[str] = (),
    max_length: int | None = None,
) -> str:
    """`text` with every secret value and URL/JSON credential replaced by `***`, and
    every known UserID (`user_ids.KNOWN`, and `users`) by its `mask_user` tag.

    Secrets go first (a key may contain a UserID), and everything happens before
    cutting, so a cut can never leave the front half of a secret or an ID behind.
    With `max_length`, the result is at most that many characters (the last one an
    ellipsis when something was cut).
    """
    for secret in secret_values(secrets):
        text = text.replace(secret, REDACTED)
    text = URL_SECRETS.sub(lambda m: f"{m.group(1)}={REDACTED}", text)
    text = JSON_SECRETS.sub(lambda m: f"{m.group(1)}{REDACTED}{m.group(3)}", text)
    text = mask_ids(text, user_id_index(users), KNOWN.index, tag=mask_user)
    if max_length is not None and len(text) > max_length:
        text = text[: max_length - 1] + "…" if max_length > 0 else ""
    return text
