"""Sealing users' channel secrets (`storage.secret_box`): the data key, the previous
one during a rotation, and the values sealed the pre-issue-22 way."""

from __future__ import annotations

import base64
import secrets

import pytest
from Crypto.Cipher import AES

from bot.settings import Settings
from storage.secret_box import (
    DataKey,
    KeyRing,
    NoDataKey,
    Unreadable,
    legacy_key,
    open_secret,
    seal_secret,
    sealed_under,
)
from storage.vocabulary import SealKey
from tests.conftest import TEST_SETTINGS, USER_SENDKEY
from tests.settings_env import changed

RING = TEST_SETTINGS.key_ring()
OLD_TEXT = "the-old-data-key-0001-0123456789abcdefABCD"
NEW_TEXT = "the-new-data-key-0002-0123456789abcdefABCD"
CHANNEL = "serverchan_user"


def _seal(ring: KeyRing, user_id: int = 3, channel: str = CHANNEL) -> str:
    return seal_secret(ring, USER_SENDKEY, user_id=user_id, channel=channel)


def _open(ring: KeyRing, sealed: str, user_id: int = 3, channel: str = CHANNEL) -> str:
    return open_secret(ring, sealed, user_id=user_id, channel=channel)


def sealed_the_old_way(secret: str, plaintext: str, *, user_id: int, channel: str) -> str:
    """A value as keeper sealed it before issue 22: `v1.` + base64(nonce|tag|body)
    under HMAC-SHA256(secret, "keeper user channel key v1")."""
    nonce = secrets.token_bytes(12)
    cipher = AES.new(legacy_key(secret), AES.MODE_GCM, nonce=nonce, mac_len=16)
    cipher.update(f"keeper user channel:{user_id}:{channel}".encode())
    body, tag = cipher.encrypt_and_digest(plaintext.encode())
    return "v1." + base64.b64encode(nonce + tag + body).decode()


def test_a_sealed_key_opens_with_the_same_key_user_and_channel() -> None:
    sealed = _seal(RING)
    assert USER_SENDKEY not in sealed
    assert _open(RING, sealed) == USER_SENDKEY


def test_every_seal_draws_a_fresh_nonce() -> None:
    assert _seal(RING) != _seal(RING)


@pytest.mark.parametrize(("user_id", "channel"), [(4, CHANNEL), (3, "wxpusher")])
def test_a_value_copied_to_another_user_or_channel_does_not_open(
    user_id: int, channel: str
) -> None:
    with pytest.raises(Unreadable):
        _open(RING, _seal(RING), user_id=user_id, channel=channel)


def test_a_value_names_its_key_by_an_id_that_reveals_nothing_of_it() -> None:
    key = DataKey.from_text(NEW_TEXT)
    sealed = _seal(KeyRing(current=key))
    assert sealed.startswith(f"v2.{key.key_id}.")
    assert len(key.key_id) == 8
    assert key.key_id not in NEW_TEXT
    assert key.key_id not in key.aes.hex()
    assert DataKey.from_text(NEW_TEXT) == key  # the same in every process
    assert NEW_TEXT not in repr(key)
    assert key.aes.hex() not in repr(key)


def test_during_a_rotation_the_previous_key_opens_what_it_sealed_and_only_the_new_one_seals() -> (
    None
):
    old, new = DataKey.from_text(OLD_TEXT), DataKey.from_text(NEW_TEXT)
    before = _seal(KeyRing(current=old))
    rotating = KeyRing(current=new, previous=old)
    assert _open(rotating, before) == USER_SENDKEY
    after = _seal(rotating)
    assert after.startswith(f"v2.{new.key_id}.")
    assert sealed_under(rotating, before) == SealKey.PREVIOUS
    assert sealed_under(rotating, after) == SealKey.CURRENT
    assert _open(KeyRing(current=new), after) == USER_SENDKEY


def test_a_key_removed_too_soon_gives_a_clear_error_that_leaks_nothing() -> None:
    old, new = DataKey.from_text(OLD_TEXT), DataKey.from_text(NEW_TEXT)
    sealed = _seal(KeyRing(current=old))
    ring = KeyRing(current=new)
    assert sealed_under(ring, sealed) == SealKey.UNKNOWN
    with pytest.raises(Unreadable) as caught:
        _open(ring, sealed)
    text = str(caught.value)
    assert f"key id {old.key_id}" in text
    assert "KEEPER_DATA_KEY_PREVIOUS" in text
    for secret in (OLD_TEXT, NEW_TEXT, USER_SENDKEY, sealed, sealed.split(".")[2]):
        assert secret not in text
    assert caught.value.__cause__ is None  # no AES error with bytes in it chained on


def test_a_value_sealed_with_the_wrong_key_under_a_known_id_does_not_open() -> None:
    """A forged header (a known key id over another key's bytes) fails the tag."""
    old, new = DataKey.from_text(OLD_TEXT), DataKey.from_text(NEW_TEXT)
    sealed = _seal(KeyRing(current=old)).replace(old.key_id, new.key_id, 1)
    with pytest.raises(Unreadable, match="does not open it"):
        _open(KeyRing(current=new), sealed)


@pytest.mark.parametrize("web_secret", ["", "w" * 32])
def test_values_sealed_before_the_data_key_still_open_by_the_old_derivation(
    web_secret: str,
) -> None:
    """Upgrading needs no one to bind again: the old value opens with the key derived
    from KEEPER_WEB_SECRET (when it was set) or WECOM_SECRET, until `keeper rekey`."""
    settings = changed(TEST_SETTINGS, web={"secret": web_secret})
    base = web_secret or settings.wecom.secret
    old = sealed_the_old_way(base, USER_SENDKEY, user_id=3, channel=CHANNEL)
    ring = settings.key_ring()
    assert sealed_under(ring, old) == SealKey.LEGACY
    assert _open(ring, old) == USER_SENDKEY
    with pytest.raises(Unreadable, match="pre-data-key way"):
        _open(ring, old, user_id=4)


def test_setting_the_web_secret_for_the_first_time_keeps_old_values_opening() -> None:
    """Before issue 22 this made every bound SendKey unreadable; the WECOM_SECRET
    derivation stays among the legacy keys."""
    old = sealed_the_old_way(TEST_SETTINGS.wecom.secret, USER_SENDKEY, user_id=3, channel=CHANNEL)
    later = changed(TEST_SETTINGS, web={"secret": "a-web-secret-set-later-0123456789ab"})
    assert _open(later.key_ring(), old) == USER_SENDKEY


def test_rotating_wecom_secret_or_the_web_key_never_touches_values_under_the_data_key() -> None:
    sealed = _seal(RING)
    rotated = changed(
        TEST_SETTINGS,
        wecom={"secret": "a-new-wecom-secret-0002"},
        web={"secret": "a-new-web-signing-key-0002-0123456789ab", "secret_previous": ""},
        channels={"serverchan_sendkey": "SCTanotherOperatorKey"},
    )
    assert _open(rotated.key_ring(), sealed) == USER_SENDKEY


def test_without_a_data_key_nothing_is_sealed() -> None:
    ring = changed(TEST_SETTINGS, data={"key": ""}).key_ring()
    assert ring.current is None
    with pytest.raises(NoDataKey, match="KEEPER_DATA_KEY is not set"):
        _seal(ring)


@pytest.mark.parametrize(
    "damaged",
    ["v2.", "v2.0123abcd.", "v2.0123abcd.!!!", "v2.XYZ.AAAA", "v2.0123abcd.AAAA", "plain", "v1.A"],
)
def test_a_damaged_value_is_unreadable_not_a_crash(damaged: str) -> None:
    with pytest.raises(Unreadable):
        _open(RING, damaged)
    if not damaged.startswith("v1."):
        assert sealed_under(RING, damaged) == SealKey.UNKNOWN


def test_the_data_key_is_neither_the_signing_key_nor_any_secret() -> None:
    settings: Settings = TEST_SETTINGS
    ring = settings.key_ring()
    assert ring.current is not None
    assert ring.current.aes != settings.web_key()
    assert ring.current.aes not in {s.encode() for s in settings.secrets()}
    assert len(ring.current.aes) == 32
