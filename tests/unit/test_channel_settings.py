"""The extra channels' settings: optional, validated, named when wrong, never shown."""

from __future__ import annotations

import pytest

from bot.settings import SettingsError, load_settings
from tests.settings_env import GOOD

CHANNELS = {
    "KEEPER_ROBOT_KEY": "693a91f6-7a3c-4bc4-97a0-0ec2sifa5aaa",
    "KEEPER_WXPUSHER_APP_TOKEN": "AT_abcDEF123456",
    "KEEPER_SERVERCHAN_SENDKEY": "SCT123456TabcdefABCDEF",
    "KEEPER_WECOMCHAN_URL": "https://relay.example/wecomchan?sendkey=relay-key-42",
}


def test_every_extra_channel_is_off_unless_its_credential_is_set() -> None:
    settings = load_settings(GOOD)
    assert (settings.channels.robot_key, settings.channels.wxpusher_app_token) == ("", "")
    assert (settings.channels.serverchan_sendkey, settings.channels.wecomchan_url) == ("", "")
    assert settings.channels.wxpusher_api_base == "https://wxpusher.zjiecode.com"
    assert settings.channels.serverchan_api_base == "https://sctapi.ftqq.com"
    assert settings.channels.secrets() == ()


def test_the_credentials_load_and_are_secrets_never_in_the_repr() -> None:
    settings = load_settings({**GOOD, **CHANNELS})
    assert settings.channels.robot_key == CHANNELS["KEEPER_ROBOT_KEY"]
    assert settings.channels.wecomchan_url == CHANNELS["KEEPER_WECOMCHAN_URL"]
    for name, value in CHANNELS.items():
        assert value not in repr(settings)
        if name != "KEEPER_WECOMCHAN_URL":
            assert value in settings.secrets()
    assert "relay-key-42" in settings.secrets()  # the relay's host stays readable in logs


def test_the_base_urls_can_point_at_fakes() -> None:
    settings = load_settings(
        {
            **GOOD,
            "KEEPER_WXPUSHER_API_BASE": "http://127.0.0.1:8001/",
            "KEEPER_SERVERCHAN_API_BASE": "http://127.0.0.1:8002",
        }
    )
    assert settings.channels.wxpusher_api_base == "http://127.0.0.1:8001"
    assert settings.channels.serverchan_api_base == "http://127.0.0.1:8002"


@pytest.mark.parametrize(
    ("name", "value", "form"),
    [
        ("KEEPER_ROBOT_KEY", "short", "key= value"),
        ("KEEPER_ROBOT_KEY", "has space in it", "key= value"),
        ("KEEPER_WXPUSHER_APP_TOKEN", "abcdefgh123", "AT_"),
        ("KEEPER_SERVERCHAN_SENDKEY", "sctp123t-not-turbo", "SCT"),
        ("KEEPER_WECOMCHAN_URL", "relay.example/wecomchan", "sendkey="),
        ("KEEPER_WECOMCHAN_URL", "https://relay.example/wecomchan", "sendkey="),
        ("KEEPER_WECOMCHAN_URL", "https://relay.example/w?sendkey=", "sendkey="),
        ("KEEPER_WXPUSHER_API_BASE", "ftp://wxpusher", "http(s) URL"),
        ("KEEPER_SERVERCHAN_API_BASE", "sct.example.org", "http(s) URL"),
    ],
)
def test_a_malformed_value_is_named_with_its_expected_form_and_never_shown(
    name: str, value: str, form: str
) -> None:
    with pytest.raises(SettingsError) as raised:
        load_settings({**GOOD, name: value})
    message = str(raised.value)
    assert message.startswith(name)
    assert form in message
    assert value not in message
