"""The mini-program's settings: optional, validated together, the secret never shown."""

from __future__ import annotations

import ipaddress

import pytest

from bot.forwarded import LOOPBACK
from bot.settings import SettingsError, load_settings
from tests.settings_env import GOOD

MP = {
    "KEEPER_MP_APPID": "wx0123456789abcdef",
    "KEEPER_MP_SECRET": "0123456789abcdef0123456789abcdef",
    "KEEPER_MP_TEMPLATE_ID": "AbCdEf0123456789-_xyz",
}


def test_the_mini_program_is_off_unless_configured() -> None:
    settings = load_settings(GOOD, dotenv=None)
    assert not settings.mp.configured
    assert settings.mp.api_base == "https://api.weixin.qq.com"


def test_a_configured_mini_program_keeps_its_secret_out_of_repr_and_in_secrets() -> None:
    settings = load_settings(GOOD | MP | {"KEEPER_WECHAT_API_BASE": "http://127.0.0.1:9/"})
    assert settings.mp.configured
    assert settings.mp.api_base == "http://127.0.0.1:9"
    assert MP["KEEPER_MP_SECRET"] not in repr(settings)
    assert MP["KEEPER_MP_SECRET"] in settings.secrets()


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"KEEPER_MP_APPID": "wxNOTHEX"}, "KEEPER_MP_APPID"),
        ({"KEEPER_MP_SECRET": "short"}, "KEEPER_MP_SECRET"),
        ({"KEEPER_MP_SECRET": ""}, "KEEPER_MP_SECRET"),
        ({"KEEPER_MP_APPID": ""}, "KEEPER_MP_APPID"),
        ({"KEEPER_MP_TEMPLATE_ID": ""}, "KEEPER_MP_TEMPLATE_ID"),
        ({"KEEPER_MP_TEMPLATE_ID": "bad id!"}, "KEEPER_MP_TEMPLATE_ID"),
        ({"KEEPER_WECHAT_API_BASE": "ftp://x"}, "KEEPER_WECHAT_API_BASE"),
    ],
)
def test_a_wrong_mini_program_setting_is_named_without_its_value(
    changes: dict[str, str], named: str
) -> None:
    env = GOOD | MP | changes
    with pytest.raises(SettingsError, match=named) as error:
        load_settings(env, dotenv=None)
    assert MP["KEEPER_MP_SECRET"] not in str(error.value)


def test_the_trusted_proxies_are_loopback_unless_named() -> None:
    assert load_settings(GOOD, dotenv=None).web.trusted_proxies == LOOPBACK
    named = {"KEEPER_TRUSTED_PROXIES": " 127.0.0.1, 172.18.0.0/16 "}
    assert load_settings(GOOD | named, dotenv=None).web.trusted_proxies == (
        ipaddress.ip_network("127.0.0.1/32"),
        ipaddress.ip_network("172.18.0.0/16"),
    )
    for wrong in ("nginx", "127.0.0.1,", "300.1.1.1"):
        with pytest.raises(SettingsError, match="KEEPER_TRUSTED_PROXIES"):
            load_settings(GOOD | {"KEEPER_TRUSTED_PROXIES": wrong}, dotenv=None)
