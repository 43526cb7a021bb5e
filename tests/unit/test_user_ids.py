"""Known UserIDs inside provider texts are tagged, whole words only (issue 20 item 4)."""

from __future__ import annotations

import datetime as dt

import pytest

from scheduler.core.redact import ERROR_MAX_CHARS, mask_user, redact
from scheduler.core.user_ids import KNOWN, KNOWN_IDS_REREAD, mask_ids, user_id_index

IDS = user_id_index(["carol", "al", "a", "zhang.san", "zhang", "UID_Ab12cd34", "u", "1a2b3c4d"])


def tag(user: str) -> str:
    return f"<{user}>"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("errcode 0: ok, invaliduser: carol", "errcode 0: ok, invaliduser: <carol>"),
        ("invalid user", "invalid user"),  # `al` is inside a word here
        ("user CAROL not found", "user <carol> not found"),  # WeCom ignores case
        ("to al, or a friend", "to <al>, or <a> friend"),  # short IDs: whole words only
        ("carol1 and xcarol", "carol1 and xcarol"),  # glued to a letter or digit: another ID
        ("<p>carol.</p>", "<p><carol>.</p>"),
        ("用户carol不存在", "用户<carol>不存在"),
        ("user_carol", "user_<carol>"),  # a separator ends a word: masked a little more
        ("zhang.san left, zhang stayed", "<zhang.san> left, <zhang> stayed"),
        ("uid UID_ab12CD34 refused", "uid <UID_Ab12cd34> refused"),
        ("from ip: 127.0.0.1", "from ip: 127.0.0.1"),
        ("", ""),
    ],
)
def test_known_ids_are_tagged_as_whole_words(text: str, expected: str) -> None:
    assert mask_ids(text, IDS, tag=tag) == expected


def test_a_tag_is_never_tagged_again() -> None:
    """`u` and `1a2b3c4d` are known IDs, and a tag is `u:` and 8 hex characters."""
    once = mask_ids("carol and u", IDS, tag=mask_user)
    assert "carol" not in once
    assert mask_ids(once, IDS, tag=mask_user) == once
    assert mask_ids("seen u:1a2b3c4d", IDS, tag=mask_user) == "seen u:1a2b3c4d"


def test_what_is_not_a_userid_is_not_looked_for() -> None:
    assert user_id_index(["user:12", "", "v1.x+y/z==", "x" * 65, "Bob"]) == {"bob": "Bob"}


def test_the_tag_is_made_from_the_stored_id_whatever_the_case_in_the_text() -> None:
    assert mask_ids("INVALIDUSER: BOB", user_id_index(["Bob"]), tag=mask_user) == (
        f"INVALIDUSER: {mask_user('Bob')}"
    )


def test_many_known_ids_cost_one_lookup_per_candidate() -> None:
    many = user_id_index(f"member{i:05d}" for i in range(20_000))
    text = "proxy error for member19999 and member00000; member20000 is unknown"
    assert mask_ids(text, many, tag=tag) == (
        "proxy error for <member19999> and <member00000>; member20000 is unknown"
    )


def test_redact_masks_the_recipient_passed_and_every_known_id() -> None:
    KNOWN.replace(["dave"])
    text = "502 Bad Gateway: upstream for dave failed; invaliduser: carol"
    masked = redact(text, users=["carol"])
    assert "dave" not in masked
    assert "carol" not in masked
    assert masked == (
        f"502 Bad Gateway: upstream for {mask_user('dave')} failed; "
        f"invaliduser: {mask_user('carol')}"
    )


def test_redact_takes_secrets_out_before_ids_and_cuts_after_both() -> None:
    KNOWN.fix(["boss"])
    text = "x" * (ERROR_MAX_CHARS - 8) + " boss key=SECRETKEY"
    masked = redact(text, ["SECRETKEY"], max_length=ERROR_MAX_CHARS)
    assert len(masked) == ERROR_MAX_CHARS
    assert "bos" not in masked  # no half of the ID left by the cut


def test_fixed_ids_outlive_a_reread_of_the_database() -> None:
    KNOWN.fix(["boss"])
    KNOWN.replace(["carol"])
    KNOWN.replace(["dave"])
    assert set(KNOWN.index) == {"boss", "dave"}


def test_the_known_ids_are_read_again_after_a_minute_or_when_the_clock_went_back() -> None:
    at = dt.datetime(2026, 11, 25, 2, 0, tzinfo=dt.UTC)
    assert KNOWN.due(at)
    KNOWN.replace(["carol"], now=at)
    assert not KNOWN.due(at + KNOWN_IDS_REREAD - dt.timedelta(seconds=1))
    assert KNOWN.due(at + KNOWN_IDS_REREAD)
    assert KNOWN.due(at - dt.timedelta(seconds=1))
