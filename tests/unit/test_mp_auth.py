"""The mini-program's bearer token (pure): issued, verified, refused when touched."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import signed
from bot.mp import auth

KEY = auth.token_key(b"web key for tests")
NOW = dt.datetime(2026, 11, 25, 2, 0, tzinfo=dt.UTC)
OPENID = "oMpUser0001"


def test_a_token_proves_its_user_and_openid_until_it_expires() -> None:
    token, expires = auth.issue(KEY, 7, OPENID, NOW)
    assert expires == NOW + auth.TOKEN_TTL
    assert auth.verify(KEY, token, NOW) == auth.MpSession(
        user_id=7, openid=OPENID, expires_at=expires
    )
    assert auth.verify(KEY, token, expires - dt.timedelta(seconds=1)) is not None
    assert auth.verify(KEY, token, expires) is None


def test_the_token_key_is_not_the_web_key_itself() -> None:
    token, _ = auth.issue(b"web key for tests", 7, OPENID, NOW)
    assert auth.verify(KEY, token, NOW) is None


@pytest.mark.parametrize(
    "token",
    [None, "", "mp1.7.o.1.x", "v1.7.user.9999999999.sig", "x" * 400, "mp1.7.a b.9.sig"],
)
def test_malformed_tokens_are_refused(token: str | None) -> None:
    assert auth.verify(KEY, token, NOW) is None


@given(position=st.integers(min_value=0, max_value=200), char=st.sampled_from("0aZ._-"))
def test_any_one_character_changed_is_refused(position: int, char: str) -> None:
    token, _ = auth.issue(KEY, 7, OPENID, NOW)
    at = position % len(token)
    touched = token[:at] + char + token[at + 1 :]
    if touched != token:
        assert auth.verify(KEY, touched, NOW) is None


@pytest.mark.parametrize(
    ("header", "token"),
    [
        ("Bearer abc", "abc"),
        ("bearer  abc ", "abc"),
        ("Basic abc", None),
        (None, None),
        ("Bearer", None),
    ],
)
def test_the_bearer_header_is_read_strictly(header: str | None, token: str | None) -> None:
    assert auth.bearer(header) == token


@pytest.mark.parametrize("expires", [10**12, 10**19, -(10**12), 253_402_300_800])
def test_a_signed_token_with_an_expiry_no_date_can_hold_is_refused(expires: int) -> None:
    payload = f"mp1.7.{OPENID}.{expires}"
    assert auth.verify(KEY, f"{payload}.{signed._sign(KEY, payload)}", NOW) is None


def test_a_token_expiring_at_the_last_instant_a_date_holds_still_opens() -> None:
    payload = f"mp1.7.{OPENID}.{signed.LAST_EXPIRY}"
    assert auth.verify(KEY, f"{payload}.{signed._sign(KEY, payload)}", NOW) is not None
