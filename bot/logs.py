"""Logging: one line per event with its context as key=value (or JSON), secrets redacted.

UserIDs never appear: code logs `scheduler.core.redact.mask_user(...)` tags instead, and
the filter tags any UserID keeper knows that a provider's text carried in
(`scheduler.core.user_ids`).

`RedactingFilter` scrubs every configured secret value, and any `access_token=`,
`corpsecret=` or `key=` value in a URL, from the message, its arguments and the
formatted exception text, so neither a log line nor a traceback can carry one.
The rules themselves live in `scheduler.core.redact`, shared with the delivery
attempts' stored error texts.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
import sys
from collections.abc import Iterable

from scheduler.core.redact import REDACTED, redact, secret_values, set_user_mask_key
from scheduler.core.user_ids import KNOWN

__all__ = ["REDACTED", "JsonFormatter", "KeyValueFormatter", "RedactingFilter", "configure_logging"]

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
    """`time level logger message key=value ...`: an ISO 8601 time with its zone, the
    record's extra fields sorted, and a value quoted when it holds a space or quote."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return _iso(record)

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        extras = _extras(record)
        if extras:
            line += " " + " ".join(f"{k}={_quoted(v)}" for k, v in sorted(extras.items()))
        return line


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, the extra fields and,
    when there is one, the (already redacted) traceback."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": _iso(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update({k: _plain(v) for k, v in sorted(_extras(record).items())})
        trace = record.exc_text or (
            self.formatException(record.exc_info) if record.exc_info else ""
        )
        if trace:
            entry["traceback"] = trace
        return json.dumps(entry, ensure_ascii=False)


def _iso(record: logging.LogRecord) -> str:
    return dt.datetime.fromtimestamp(record.created).astimezone().isoformat(timespec="milliseconds")


def _extras(record: logging.LogRecord) -> dict[str, object]:
    return {k: v for k, v in vars(record).items() if k not in STANDARD_ATTRS}


_NEEDS_QUOTES = re.compile(r'[\s"=]')  # one scan in C: the line is written per message


def _quoted(value: object) -> str:
    text = str(value)
    if not text or _NEEDS_QUOTES.search(text):
        return json.dumps(text, ensure_ascii=False)
    return text


def _plain(value: object) -> object:
    return value if isinstance(value, str | int | float | bool) or value is None else str(value)


QUIET_LOGGERS = {"aiohttp.access": logging.WARNING, "alembic": logging.WARNING}
"""Chatty libraries: access lines and Alembic's context lines only when they matter
(`keeper migrate` turns Alembic back up to report what it applied)."""


def configure_logging(
    secrets: Iterable[str],
    *,
    level: int | str = logging.INFO,
    fmt: str = "text",
    user_ids: Iterable[str] = (),
) -> logging.Handler:
    """Log to stderr through the redacting filter, as text or JSON; returns the handler.

    Also keys the UserID tags (`scheduler.core.redact.mask_user`) with the deployment's
    secrets, so one member has one tag in every process's log, and makes `user_ids`
    (the ones the settings name) known to the redaction for good
    (`scheduler.core.user_ids.KNOWN`; the scheduler adds the database's).
    """
    secrets = tuple(secrets)
    set_user_mask_key("".join(sorted(secrets)))
    KNOWN.fix(user_ids)
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(RedactingFilter(secrets))
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(KeyValueFormatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name, quiet in QUIET_LOGGERS.items():
        logging.getLogger(name).setLevel(max(quiet, root.level))
    return handler
