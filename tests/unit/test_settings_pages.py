"""The pages' settings (issue 13): KEEPER_PUBLIC_URL and KEEPER_WEB_SECRET."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from bot.settings import WEB_KEY_LABEL, SettingsError, load_settings
from tests.settings_env import GOOD


def test_the_pages_are_off_by_default_and_the_key_is_derived_from_the_wecom_secret() -> None:
    settings = load_settings(GOOD)
    assert settings.web.public_url == ""
    expected = hmac.new(GOOD["WECOM_SECRET"].encode(), WEB_KEY_LABEL, hashlib.sha256).digest()
    assert settings.web_key() == expected
    assert settings.web_key() != GOOD["WECOM_SECRET"].encode()


def test_a_web_secret_is_the_key_and_a_secret() -> None:
    secret = "0123456789abcdef" * 4
    settings = load_settings({**GOOD, "KEEPER_WEB_SECRET": secret})
    assert settings.web_key() == secret.encode()
    assert secret in settings.secrets()
    assert secret not in repr(settings)


def test_the_public_url_loses_its_trailing_slash() -> None:
    settings = load_settings({**GOOD, "KEEPER_PUBLIC_URL": "https://keeper.example.com/ "})
    assert settings.web.public_url == "https://keeper.example.com"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("KEEPER_PUBLIC_URL", "pages.internal"),
        ("KEEPER_PUBLIC_URL", "ftp://pages.internal"),
        ("KEEPER_PUBLIC_URL", "https://pages.internal/?a=1"),
        ("KEEPER_PUBLIC_URL", "https://pages.internal/我的;x"),  # raw into Location, Path
        ("KEEPER_WEB_SECRET", "short-secret"),
    ],
)
def test_a_malformed_pages_setting_is_named_without_its_value(name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name) as caught:
        load_settings({**GOOD, name: value})
    assert value not in str(caught.value)


def test_a_public_url_under_a_plain_path_is_kept() -> None:
    settings = load_settings({**GOOD, "KEEPER_PUBLIC_URL": "https://example.com/my-keeper_1/"})
    assert settings.web.public_url == "https://example.com/my-keeper_1"
