"""Settings: every variable validated, named when wrong, secrets never shown."""

from __future__ import annotations

import dataclasses
import itertools
import re
from pathlib import Path

import pytest

from bot.app import deployment_of
from bot.settings import SettingsError, load_settings, mask_database_url
from storage.engine import with_driver
from tests.settings_env import GOOD


def test_good_settings_load_with_documented_defaults() -> None:
    settings = load_settings(GOOD)
    assert settings.database.url == "sqlite+aiosqlite:///keeper.db"
    assert settings.operations.timezone.key == "Asia/Shanghai"
    assert (settings.web.host, settings.web.port, settings.operations.scheduler_on) == (
        "127.0.0.1",
        8080,
        False,
    )
    assert settings.wecom.api_base == "https://qyapi.weixin.qq.com"
    assert settings.wecom.callback_window_seconds == 600


def test_admins_are_a_set_of_user_ids() -> None:
    settings = load_settings({**GOOD, "KEEPER_ADMINS": " alice, bob ,,"})
    assert settings.operations.admins == frozenset({"alice", "bob"})


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("WECOM_CORP_ID", ""),
        ("WECOM_CORP_ID", "has space"),
        ("WECOM_AGENT_ID", ""),
        ("WECOM_AGENT_ID", "abc"),
        ("WECOM_AGENT_ID", "0"),
        ("WECOM_SECRET", ""),
        ("WECOM_SECRET", "short"),
        ("WECOM_TOKEN", ""),
        ("WECOM_TOKEN", "bad token!"),
        ("WECOM_AES_KEY", ""),
        ("WECOM_AES_KEY", "tooshort"),
        ("WECOM_AES_KEY", "!" * 43),
        ("KEEPER_TIMEZONE", "Mars/Olympus"),
        ("KEEPER_SCHEDULER", "maybe"),
        ("KEEPER_PORT", "99999"),
        ("KEEPER_DATABASE_URL", "postgres://nope"),
        ("WECOM_API_BASE", "ftp://example"),
        ("KEEPER_CALLBACK_WINDOW_SECONDS", "5"),
        ("KEEPER_LOG_FORMAT", "xml"),
        ("KEEPER_LOG_LEVEL", "LOUD"),
        ("KEEPER_METRICS_PORT", "70000"),
        ("KEEPER_WECOM_DAILY_CAP", "lots"),
        ("KEEPER_WECOM_DAILY_CAP", "-200"),
        ("KEEPER_WECOM_DAILY_CAP", "1000000001"),
    ],
)
def test_a_missing_or_malformed_variable_is_named_without_its_value(name: str, value: str) -> None:
    with pytest.raises(SettingsError) as info:
        load_settings({**GOOD, name: value})
    message = str(info.value)
    assert name in message
    assert re.search(r"expected|must be|must start", message), f"no expected form: {message}"
    if value:
        assert value not in message


def test_the_daily_cap_is_not_counted_unless_set() -> None:
    assert load_settings(GOOD).wecom.daily_cap is None
    assert load_settings({**GOOD, "KEEPER_WECOM_DAILY_CAP": " 2000 "}).wecom.daily_cap == 2000


def test_logs_and_metrics_settings_have_safe_defaults_and_take_their_forms() -> None:
    plain = load_settings(GOOD)
    assert (
        plain.operations.log_format,
        plain.operations.log_level,
        plain.operations.metrics_port,
    ) == ("text", "INFO", None)
    chosen = load_settings(
        {
            **GOOD,
            "KEEPER_LOG_FORMAT": "JSON",
            "KEEPER_LOG_LEVEL": "debug",
            "KEEPER_METRICS_PORT": "9180",
        }
    )
    assert (
        chosen.operations.log_format,
        chosen.operations.log_level,
        chosen.operations.metrics_port,
    ) == ("json", "DEBUG", 9180)
    assert chosen.operations.metrics_host == "127.0.0.1"  # local only unless asked


def test_the_repr_of_settings_shows_no_secret() -> None:
    text = repr(load_settings(GOOD))
    for name in ("WECOM_SECRET", "WECOM_TOKEN", "WECOM_AES_KEY"):
        assert GOOD[name] not in text


def test_the_database_password_comes_from_its_file_and_is_a_secret(tmp_path: Path) -> None:
    secret_file = tmp_path / "db_password"
    secret_file.write_text("p@ss:w/rd%1\n")
    settings = load_settings(
        {
            **GOOD,
            "KEEPER_DATABASE_URL": "mysql+aiomysql://keeper@db:3306/keeper",
            "KEEPER_DATABASE_PASSWORD_FILE": str(secret_file),
        }
    )
    from sqlalchemy.engine import make_url

    assert make_url(settings.database.url).password == "p@ss:w/rd%1"
    assert "p@ss:w/rd%1" in settings.secrets()
    assert mask_database_url(settings.database.url) == "mysql+aiomysql://keeper:***@db:3306/keeper"
    assert "p@ss" not in repr(settings)


@pytest.mark.parametrize("content", [None, ""])
def test_an_unreadable_or_empty_password_file_is_named_with_the_expected_form(
    tmp_path: Path, content: str | None
) -> None:
    path = tmp_path / "db_password"
    if content is not None:
        path.write_text(content)
    with pytest.raises(SettingsError, match=r"KEEPER_DATABASE_PASSWORD_FILE .*expected"):
        load_settings({**GOOD, "KEEPER_DATABASE_PASSWORD_FILE": str(path)})


def test_a_masked_database_url_hides_only_the_password() -> None:
    assert mask_database_url("mysql+aiomysql://u:pw@h:3306/d") == "mysql+aiomysql://u:***@h:3306/d"
    assert mask_database_url("sqlite+aiosqlite:///keeper.db") == "sqlite+aiosqlite:///keeper.db"


@pytest.mark.parametrize(
    ("given", "used"),
    [
        ("mysql://keeper@db:3306/keeper", "mysql+asyncmy://keeper@db:3306/keeper"),
        ("mariadb://keeper@db/keeper", "mariadb+asyncmy://keeper@db/keeper"),
        ("mysql+asyncmy://keeper@db:3306/keeper", "mysql+asyncmy://keeper@db:3306/keeper"),
        ("mysql+aiomysql://keeper@db:3306/keeper", "mysql+aiomysql://keeper@db:3306/keeper"),
        ("mariadb+aiomysql://keeper@db/keeper", "mariadb+aiomysql://keeper@db/keeper"),
        ("sqlite+aiosqlite:///keeper.db", "sqlite+aiosqlite:///keeper.db"),
    ],
)
def test_a_mysql_url_naming_no_driver_gets_asyncmy_and_a_named_driver_is_kept(
    given: str, used: str
) -> None:
    assert load_settings({**GOOD, "KEEPER_DATABASE_URL": given}).database.url == given
    assert with_driver(given) == used


def test_a_mysql_url_naming_no_driver_takes_its_password_from_the_file(tmp_path: Path) -> None:
    (tmp_path / "db_password").write_text("pw-from-file\n")
    env = {"KEEPER_DATABASE_URL": "mysql://keeper@db:3306/keeper"}
    env["KEEPER_DATABASE_PASSWORD_FILE"] = str(tmp_path / "db_password")
    url = load_settings({**GOOD, **env}).database.url
    assert url == "mysql://keeper:pw-from-file@db:3306/keeper"


EVERY_SECRET = {
    "KEEPER_WEB_SECRET": "0123456789abcdef" * 4,
    "KEEPER_WEB_SECRET_PREVIOUS": "fedcba9876543210" * 4,
    "KEEPER_DATA_KEY": "data-key-for-the-repr-test-0000000000000001",
    "KEEPER_DATA_KEY_PREVIOUS": "data-key-for-the-repr-test-0000000000000000",
    "KEEPER_BACKUP_KEY": "correct horse battery staple",
    "KEEPER_ROBOT_KEY": "693a91f6-7a3c-4bc4-97a0-0ec2sifa5aaa",
    "KEEPER_WXPUSHER_APP_TOKEN": "AT_abcDEF123456",
    "KEEPER_SERVERCHAN_SENDKEY": "SCT123456TabcdefABCDEF",
    "KEEPER_WECOMCHAN_URL": "https://relay.example/wecomchan?sendkey=relay-key-42",
    "KEEPER_MP_APPID": "wx0123456789abcdef",
    "KEEPER_MP_SECRET": "0123456789abcdef0123456789abcdef",
    "KEEPER_MP_TEMPLATE_ID": "AbCdEf0123456789-_xyz",
}


def test_no_settings_group_and_not_the_deployment_shows_a_secret(tmp_path: Path) -> None:
    """Each group hides its own secrets, so a group logged or handed down alone (as
    `handlers.deployment.Deployment` hands some to every handler) shows none either."""
    (tmp_path / "db_password").write_text("p@ss:w/rd%1\n")
    settings = load_settings(
        {
            **GOOD,
            **EVERY_SECRET,
            "KEEPER_DATABASE_URL": "mysql+aiomysql://keeper@db:3306/keeper",
            "KEEPER_DATABASE_PASSWORD_FILE": str(tmp_path / "db_password"),
        }
    )
    secrets = settings.secrets()
    assert len(secrets) == 14  # WeCom's three, the password, web's two, data's two, backup, mp,
    # four channels
    deployment = deployment_of(settings)
    shown = [repr(getattr(settings, f.name)) for f in dataclasses.fields(settings)]
    shown += [repr(settings), str(settings), repr(deployment), str(deployment)]
    for text, secret in itertools.product(shown, secrets):
        assert secret not in text
    ring = settings.key_ring()
    assert ring.current is not None
    assert ring.previous is not None
    for key in (ring.current.aes, ring.previous.aes, *ring.legacy):
        assert repr(key) not in repr(deployment)
        assert repr(key) not in repr(ring)
