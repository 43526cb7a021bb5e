"""Sealing users' channel secrets (`storage.secret_box`)."""

from __future__ import annotations

import pytest

from storage.secret_box import Unreadable, open_secret, seal_secret
from tests.conftest import TEST_SETTINGS, USER_SENDKEY
from tests.settings_env import changed

KEY = TEST_SETTINGS.channel_key()


def test_a_sealed_key_opens_with_the_same_key_user_and_channel() -> None:
    sealed = seal_secret(KEY, USER_SENDKEY, user_id=3, channel="serverchan_user")
    assert USER_SENDKEY not in sealed
    assert open_secret(KEY, sealed, user_id=3, channel="serverchan_user") == USER_SENDKEY


def test_sealing_twice_gives_two_different_texts() -> None:
    one = seal_secret(KEY, USER_SENDKEY, user_id=3, channel="serverchan_user")
    two = seal_secret(KEY, USER_SENDKEY, user_id=3, channel="serverchan_user")
    assert one != two


@pytest.mark.parametrize(("user_id", "channel"), [(4, "serverchan_user"), (3, "wxpusher")])
def test_a_sealed_key_copied_to_another_user_or_channel_does_not_open(
    user_id: int, channel: str
) -> None:
    sealed = seal_secret(KEY, USER_SENDKEY, user_id=3, channel="serverchan_user")
    with pytest.raises(Unreadable):
        open_secret(KEY, sealed, user_id=user_id, channel=channel)


def test_a_rotated_wecom_secret_without_a_web_secret_makes_sealed_keys_unreadable() -> None:
    sealed = seal_secret(KEY, USER_SENDKEY, user_id=3, channel="serverchan_user")
    rotated = changed(TEST_SETTINGS, wecom={"secret": "a-new-wecom-secret-0002"}).channel_key()
    with pytest.raises(Unreadable):
        open_secret(rotated, sealed, user_id=3, channel="serverchan_user")


def test_with_a_web_secret_the_wecom_secret_can_rotate() -> None:
    pinned = changed(TEST_SETTINGS, web={"secret": "w" * 40})
    sealed = seal_secret(pinned.channel_key(), USER_SENDKEY, user_id=3, channel="serverchan_user")
    rotated = changed(pinned, wecom={"secret": "a-new-wecom-secret-0002"}).channel_key()
    assert open_secret(rotated, sealed, user_id=3, channel="serverchan_user") == USER_SENDKEY


def test_the_channel_key_is_neither_the_cookie_key_nor_a_secret() -> None:
    for settings in (TEST_SETTINGS, changed(TEST_SETTINGS, web={"secret": "w" * 40})):
        assert settings.channel_key() != settings.web_key()
        assert len(settings.channel_key()) == 32


@pytest.mark.parametrize("damaged", ["", "v1.", "v1.!!!", "v2.AAAA", "v1." + "A" * 64])
def test_a_damaged_value_is_unreadable_not_a_crash(damaged: str) -> None:
    with pytest.raises(Unreadable):
        open_secret(KEY, damaged, user_id=3, channel="serverchan_user")
