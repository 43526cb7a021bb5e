"""The pages' session cookie: issued, verified, and refused when anything is off."""

from __future__ import annotations

import datetime as dt

import pytest

from bot import signed
from bot.web import auth

KEY = b"k" * 32
NOW = dt.datetime(2026, 11, 25, 2, 0, tzinfo=dt.UTC)


def test_an_issued_cookie_verifies_as_its_user_and_role_for_twelve_hours() -> None:
    value = auth.issue(KEY, 7, "admin", NOW)
    session = auth.verify(KEY, value, NOW + dt.timedelta(hours=11, minutes=59))
    assert session == auth.WebSession(user_id=7, role="admin", expires_at=NOW + auth.SESSION_TTL)
    assert auth.verify(KEY, value, NOW + auth.SESSION_TTL) is None


def _resigned(value: str, old: str, new: str) -> str:
    return value.replace(old, new, 1)


@pytest.mark.parametrize(
    "make",
    [
        lambda v: None,
        lambda v: "",
        lambda v: _resigned(v, "v1.7.", "v1.8."),  # another user, old signature
        lambda v: _resigned(v, ".user.", ".admin."),  # a promotion, old signature
        lambda v: v[:-2] + ("AA" if not v.endswith("AA") else "BB"),
        lambda v: v + "=",
        lambda v: v.split(".", 1)[1],
        lambda v: "v1.7.user.99999999999.sig",
        lambda v: "x" * 500,
        lambda v: auth.issue(b"other key" * 4, 7, "user", NOW),
    ],
    ids=[
        "absent", "empty", "other-user", "promoted", "bad-signature", "padded",
        "no-version", "made-up", "too-long", "other-key",
    ],
)  # fmt: skip
def test_an_altered_forged_or_foreign_cookie_is_no_session(make: object) -> None:
    value = auth.issue(KEY, 7, "user", NOW)
    assert callable(make)
    assert auth.verify(KEY, make(value), NOW) is None


def test_a_cookie_with_a_valid_signature_over_a_bad_payload_is_refused() -> None:
    for payload in ("v2.7.user.1900000000", "v1.x.user.1900000000", "v1.7.root.1900000000"):
        value = f"{payload}.{signed._sign(KEY, payload)}"
        assert auth.verify(KEY, value, NOW) is None, payload


@pytest.mark.parametrize(
    "expires", ["1000000000000", "99999999999999999999", "-1000000000000", "0"]
)
def test_a_signed_cookie_with_an_expiry_no_date_can_hold_is_refused(expires: str) -> None:
    """Correctly signed, so only the expiry can refuse it: never an overflow (a 503)."""
    payload = f"v1.7.user.{expires}"
    assert auth.verify(KEY, f"{payload}.{signed._sign(KEY, payload)}", NOW) is None
