"""The keys' settings (issue 22): KEEPER_DATA_KEY and KEEPER_DATA_KEY_PREVIOUS, and
KEEPER_WEB_SECRET_PREVIOUS; and a cookie or mini-program token signed with the
previous signing key still believed during a rotation."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.mp import auth as mp_auth
from bot.settings import Settings, SettingsError, load_settings
from bot.web import auth as web_auth
from tests.settings_env import GOOD

KEY = "a-data-key-for-settings-tests-0123456789AB"
OTHER = "another-data-key-for-settings-0123456789AB"
WEB = "w" * 40
NOW = dt.datetime(2026, 12, 1, 8, 0, tzinfo=dt.UTC)


def test_no_data_key_is_zero_setup_and_seals_nothing() -> None:
    ring = load_settings(dict(GOOD)).key_ring()
    assert ring.current is None
    assert ring.previous is None
    assert len(ring.legacy) == 1  # WECOM_SECRET's old derivation, to open only


def test_the_data_key_and_its_previous_make_the_ring_by_key_id() -> None:
    settings = load_settings(
        {
            **GOOD,
            "KEEPER_DATA_KEY": KEY,
            "KEEPER_DATA_KEY_PREVIOUS": OTHER,
            "KEEPER_WEB_SECRET": WEB,
        }
    )
    ring = settings.key_ring()
    assert ring.current is not None
    assert ring.previous is not None
    assert ring.current.key_id != ring.previous.key_id
    assert len(ring.legacy) == 2  # KEEPER_WEB_SECRET's and WECOM_SECRET's old derivations
    assert {KEY, OTHER} <= set(settings.secrets())


@pytest.mark.parametrize(
    ("environ", "named"),
    [
        ({"KEEPER_DATA_KEY": "short"}, "KEEPER_DATA_KEY is malformed"),
        ({"KEEPER_DATA_KEY": "x" * 31}, "KEEPER_DATA_KEY is malformed"),
        ({"KEEPER_DATA_KEY": "has spaces " * 4}, "KEEPER_DATA_KEY is malformed"),
        (
            {"KEEPER_DATA_KEY_PREVIOUS": KEY},
            "KEEPER_DATA_KEY_PREVIOUS is set but KEEPER_DATA_KEY is not",
        ),
        ({"KEEPER_DATA_KEY": KEY, "KEEPER_DATA_KEY_PREVIOUS": KEY}, "equals KEEPER_DATA_KEY"),
        ({"KEEPER_DATA_KEY": KEY, "KEEPER_DATA_KEY_PREVIOUS": "bad"}, "PREVIOUS is malformed"),
        ({"KEEPER_DATA_KEY": WEB, "KEEPER_WEB_SECRET": WEB}, "a key of its own"),
        (
            {"KEEPER_WEB_SECRET_PREVIOUS": WEB},
            "KEEPER_WEB_SECRET_PREVIOUS is set but KEEPER_WEB_SECRET is not",
        ),
        ({"KEEPER_WEB_SECRET": WEB, "KEEPER_WEB_SECRET_PREVIOUS": WEB}, "equals KEEPER_WEB_SECRET"),
    ],
)
def test_a_wrong_key_setting_is_named_never_shown(environ: dict[str, str], named: str) -> None:
    with pytest.raises(SettingsError, match=named) as caught:
        load_settings({**GOOD, **environ})
    for value in environ.values():
        assert value not in str(caught.value)


def test_a_data_key_equal_to_wecom_secret_is_refused() -> None:
    long_secret = "s3cr3t-value-for-tests-long-enough-0123456"
    with pytest.raises(SettingsError, match="a key of its own"):
        load_settings({**GOOD, "WECOM_SECRET": long_secret, "KEEPER_DATA_KEY": long_secret})


def test_a_cookie_signed_with_the_previous_web_key_is_believed_during_the_rotation() -> None:
    old = load_settings({**GOOD, "KEEPER_WEB_SECRET": WEB})
    rotating = load_settings(
        {**GOOD, "KEEPER_WEB_SECRET": "n" * 40, "KEEPER_WEB_SECRET_PREVIOUS": WEB}
    )
    done = load_settings({**GOOD, "KEEPER_WEB_SECRET": "n" * 40})
    cookie = web_auth.issue(old.web_key(), 7, "user", NOW)

    def opens(s: Settings) -> bool:
        found = web_auth.verify(s.web_key(), cookie, NOW, previous=s.previous_web_keys())
        return found is not None and found.user_id == 7

    assert opens(rotating)
    assert not opens(done)
    fresh = web_auth.issue(rotating.web_key(), 7, "user", NOW)  # new ones: the new key only
    assert web_auth.verify(done.web_key(), fresh, NOW) is not None


def test_a_mini_program_token_signed_with_the_previous_web_key_is_believed_too() -> None:
    old = load_settings({**GOOD, "KEEPER_WEB_SECRET": WEB})
    rotating = load_settings(
        {**GOOD, "KEEPER_WEB_SECRET": "n" * 40, "KEEPER_WEB_SECRET_PREVIOUS": WEB}
    )
    token, _ = mp_auth.issue(mp_auth.token_key(old.web_key()), 7, "openid-1", NOW)
    key = mp_auth.token_key(rotating.web_key())
    previous = [mp_auth.token_key(k) for k in rotating.previous_web_keys()]
    assert mp_auth.verify(key, token, NOW) is None
    found = mp_auth.verify(key, token, NOW, previous=previous)
    assert found is not None
    assert found.openid == "openid-1"
    cookie = web_auth.issue(old.web_key(), 7, "user", NOW)  # still no token of the other kind
    assert mp_auth.verify(key, cookie, NOW, previous=previous) is None
