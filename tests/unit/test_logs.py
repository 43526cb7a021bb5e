"""Log lines never carry a secret: not in the message, the arguments or a traceback."""

from __future__ import annotations

import datetime as dt
import io
import json
import logging
import re

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


def _record(**extra: object) -> logging.LogRecord:
    record = logging.makeLogRecord({"name": "keeper.test", "levelname": "INFO", "msg": "done"})
    for key, value in extra.items():
        setattr(record, key, value)
    return record


def test_a_text_line_has_an_iso_time_with_its_zone_and_quotes_values_with_spaces() -> None:
    from bot.logs import KeyValueFormatter

    line = KeyValueFormatter("%(asctime)s %(levelname)s %(name)s %(message)s").format(
        _record(reason="server IP not trusted", code=60020)
    )
    stamp = line.split(" ", 1)[0]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d", stamp), stamp
    assert line.endswith('code=60020 reason="server IP not trusted"')


def test_a_json_line_is_one_object_with_the_extra_fields() -> None:
    from bot.logs import JsonFormatter

    entry = json.loads(JsonFormatter().format(_record(job=7, channel="wecom_app")))
    assert (entry["level"], entry["logger"], entry["message"]) == ("INFO", "keeper.test", "done")
    assert (entry["job"], entry["channel"]) == (7, "wecom_app")
    assert dt.datetime.fromisoformat(entry["time"]).tzinfo is not None


def test_a_userid_is_logged_as_a_stable_tag_that_does_not_contain_it() -> None:
    from scheduler.core.redact import mask_user, set_user_mask_key

    set_user_mask_key("deployment-secret")
    tag = mask_user("zhangsan")
    assert tag == mask_user("zhangsan") != mask_user("lisi")
    assert re.fullmatch(r"u:[0-9a-f]{8}", tag)
    assert "zhangsan" not in tag
    set_user_mask_key("another-deployment")
    assert mask_user("zhangsan") != tag  # keyed: not a plain hash of the name
    set_user_mask_key("")


def test_the_userids_the_settings_name_are_masked_in_a_line_that_quotes_a_provider(
    captured: tuple[logging.Logger, io.StringIO],
) -> None:
    """Issue 20 item 4: KEEPER_ADMINS are known from the start, before any tick."""
    from bot.logs import configure_logging
    from scheduler.core.redact import mask_user, set_user_mask_key

    root = logging.getLogger()
    quiet = [logging.getLogger(name) for name in ("aiohttp.access", "alembic")]
    handlers, levels = root.handlers[:], [lg.level for lg in (root, *quiet)]
    try:
        configure_logging([SECRET], user_ids=["boss", ""])
    finally:  # the suite's own handlers and levels back
        root.handlers[:] = handlers
        for lg, level in zip((root, *quiet), levels, strict=True):
            lg.setLevel(level)
        set_user_mask_key("")
    logger, stream = captured
    logger.warning("proxy said: %s", "no route for BOSS; bossy is fine")
    line = stream.getvalue().strip()
    assert line == f"WARNING proxy said: no route for {mask_user('boss')}; bossy is fine"
