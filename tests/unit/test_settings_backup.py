"""KEEPER_BACKUP_KEY: optional for serving, required by `keeper backup`/`restore`,
never shown, refused when short or padded."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from bot.settings import SettingsError, load_backup_key, load_settings
from tests.settings_env import GOOD

PASSPHRASE = "correct horse battery staple"


def test_the_backup_key_is_optional_for_serving_and_hidden_when_set() -> None:
    assert load_settings(GOOD).backup.key == ""
    settings = load_settings({**GOOD, "KEEPER_BACKUP_KEY": PASSPHRASE})
    assert settings.backup.key == PASSPHRASE
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


# -- Scheduled backups: KEEPER_BACKUP_DIR, KEEPER_BACKUP_AT, KEEPER_BACKUP_KEEP ---------


def test_scheduled_backups_are_off_unless_a_directory_is_set() -> None:
    settings = load_settings({**GOOD, "KEEPER_BACKUP_KEY": PASSPHRASE})
    assert (settings.backup.directory, settings.backup.at, settings.backup.keep) == (
        None,
        dt.time(3, 30),
        14,
    )


def test_a_directory_with_its_key_turns_them_on_at_the_configured_time() -> None:
    settings = load_settings(
        {
            **GOOD,
            "KEEPER_BACKUP_KEY": PASSPHRASE,
            "KEEPER_BACKUP_DIR": "/var/backups/keeper",
            "KEEPER_BACKUP_AT": "4:05",
            "KEEPER_BACKUP_KEEP": "30",
        }
    )
    assert settings.backup.directory == Path("/var/backups/keeper")
    assert (settings.backup.at, settings.backup.keep) == (dt.time(4, 5), 30)


def test_a_directory_without_the_key_is_refused_naming_the_key() -> None:
    with pytest.raises(
        SettingsError, match=r"^KEEPER_BACKUP_DIR is set but KEEPER_BACKUP_KEY is not"
    ):
        load_settings({**GOOD, "KEEPER_BACKUP_DIR": "/var/backups/keeper"})


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"KEEPER_BACKUP_DIR": "backups"}, "KEEPER_BACKUP_DIR must be an absolute path"),
        ({"KEEPER_BACKUP_AT": "24:00"}, "KEEPER_BACKUP_AT must be a time of day HH:MM"),
        ({"KEEPER_BACKUP_AT": "3.30"}, "KEEPER_BACKUP_AT must be a time of day HH:MM"),
        ({"KEEPER_BACKUP_AT": "03:60"}, "KEEPER_BACKUP_AT must be a time of day HH:MM"),
        ({"KEEPER_BACKUP_KEEP": "0"}, "KEEPER_BACKUP_KEEP must be an integer from 1"),
        ({"KEEPER_BACKUP_KEEP": "two"}, "KEEPER_BACKUP_KEEP must be an integer from 1"),
    ],
)
def test_a_malformed_schedule_setting_is_refused_by_name(env: dict[str, str], named: str) -> None:
    with pytest.raises(SettingsError, match=f"^{named}"):
        load_settings({**GOOD, "KEEPER_BACKUP_KEY": PASSPHRASE, **env})
