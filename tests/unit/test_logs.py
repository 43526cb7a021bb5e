"""Log lines never carry a secret: not in the message, the arguments or a traceback."""

from __future__ import annotations

import io
import logging

import pytest

from bot.logs import KeyValueFormatter, RedactingFilter

SECRET = "super-secret-corp-value"


@pytest.fixture
def captured() -> tuple[logging.Logger, io.StringIO]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactingFilter([SECRET, "tok"]))
    handler.setFormatter(KeyValueFormatter("%(levelname)s %(message)s"))
    logger = logging.getLogger(f"test.logs.{id(stream)}")
    logger.handlers[:] = [handler]
    logger.propagate = False
    logger.setLevel(logging.INFO)
    return logger, stream


@pytest.mark.parametrize(
    ("message", "args"),
    [
        ("value %s", (SECRET,)),
        (f"inline {SECRET}", ()),
        ("GET /cgi-bin/gettoken?corpid=ww1&corpsecret=%s", ("abc123xyz",)),
        ("POST /cgi-bin/message/send?access_token=%s", ("TOKENVALUE42",)),
    ],
)
def test_secrets_in_messages_and_arguments_are_redacted(
    captured: tuple[logging.Logger, io.StringIO], message: str, args: tuple[str, ...]
) -> None:
    logger, stream = captured
    logger.info(message, *args)
    line = stream.getvalue()
    for value in (SECRET, "abc123xyz", "TOKENVALUE42"):
        assert value not in line
    assert "***" in line


def test_a_traceback_mentioning_a_secret_is_redacted(
    captured: tuple[logging.Logger, io.StringIO],
) -> None:
    logger, stream = captured
    try:
        raise RuntimeError(f"failed with corpsecret={SECRET}")
    except RuntimeError:
        logger.exception("boom")
    output = stream.getvalue()
    assert "RuntimeError" in output
    assert SECRET not in output


def test_extra_fields_are_appended_as_key_value_and_redacted(
    captured: tuple[logging.Logger, io.StringIO],
) -> None:
    logger, stream = captured
    logger.info("handled", extra={"dedup_key": "msg:1", "note": SECRET})
    assert stream.getvalue().strip() == "INFO handled dedup_key=msg:1 note=***"
