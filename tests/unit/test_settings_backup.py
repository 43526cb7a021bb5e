"""KEEPER_BACKUP_KEY: optional for serving, required by `keeper backup`/`restore`,
never shown, refused when short or padded."""

from __future__ import annotations

import pytest

from bot.settings import SettingsError, load_backup_key, load_settings

GOOD = {
    "WECOM_CORP_ID": "wwtestcorp000001",
    "WECOM_AGENT_ID": "1000002",
    "WECOM_SECRET": "test-secret-value-0001",
    "WECOM_TOKEN": "TestTokenValue123",
    "WECOM_AES_KEY": "jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C",
}
PASSPHRASE = "correct horse battery staple"


def test_the_backup_key_is_optional_for_serving_and_hidden_when_set() -> None:
    assert load_settings(GOOD).backup_key == ""
    settings = load_settings({**GOOD, "KEEPER_BACKUP_KEY": PASSPHRASE})
    assert settings.backup_key == PASSPHRASE
    assert PASSPHRASE in settings.secrets()
    assert PASSPHRASE not in repr(settings)


def test_backup_commands_require_the_key_by_name() -> None:
    with pytest.raises(
        SettingsError, match=r"^KEEPER_BACKUP_KEY is not set; expected a passphrase"
    ):
        load_backup_key({})
    assert load_backup_key({"KEEPER_BACKUP_KEY": PASSPHRASE}) == PASSPHRASE


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("fifteen chars!!", "too short"),
        (" " + PASSPHRASE, "malformed"),
        (PASSPHRASE + "\n", "malformed"),
        ("tab\tinside the passphrase", "malformed"),
    ],
)
def test_a_weak_or_mangled_key_is_refused_without_echoing_it(value: str, reason: str) -> None:
    for load in (load_backup_key, lambda env: load_settings({**GOOD, **env})):
        with pytest.raises(SettingsError, match=reason) as refused:
            load({"KEEPER_BACKUP_KEY": value})
        assert value.strip() not in str(refused.value)
