"""Logging: one line per event with its context as key=value, secrets redacted.

`RedactingFilter` scrubs every configured secret value, and any `access_token=`,
`corpsecret=` or `key=` value in a URL, from the message, its arguments and the
formatted exception text, so neither a log line nor a traceback can carry one.
The rules themselves live in `scheduler.redact`, shared with the delivery
attempts' stored error texts.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable

from scheduler.redact import REDACTED, redact, secret_values

__all__ = ["REDACTED", "KeyValueFormatter", "RedactingFilter", "configure_logging"]

STANDARD_ATTRS = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


class RedactingFilter(logging.Filter):
    """Replace secret values in a record's final text (message and traceback)."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self.secrets = secret_values(secrets)

    def redact(self, text: str) -> str:
        return redact(text, self.secrets)

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = self.redact(record.getMessage())
        record.args = None
        if record.exc_info:
            formatter = logging.Formatter()
            record.exc_text = self.redact(formatter.formatException(record.exc_info))
            record.exc_info = None
        for name, value in list(vars(record).items()):
            if name not in STANDARD_ATTRS and isinstance(value, str):
                setattr(record, name, self.redact(value))
        return True


class KeyValueFormatter(logging.Formatter):
    """`time level logger message key=value ...` with the record's extra fields."""

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        extras = {k: v for k, v in vars(record).items() if k not in STANDARD_ATTRS}
        if extras:
            line += " " + " ".join(f"{k}={v}" for k, v in sorted(extras.items()))
        return line


def configure_logging(secrets: Iterable[str], *, level: int = logging.INFO) -> logging.Handler:
    """Log to stderr through the redacting filter; returns the handler installed."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(RedactingFilter(secrets))
    handler.setFormatter(KeyValueFormatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
    return handler
