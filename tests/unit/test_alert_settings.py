"""KEEPER_ALERT_CHANNEL: which road admin alerts take, checked against its credential."""

from __future__ import annotations

import pytest

from bot.scheduling import alert_route
from bot.settings import SettingsError, load_settings
from tests.unit.test_channel_settings import CHANNELS, GOOD

ADMINS = {"KEEPER_ADMINS": "boss,ada"}


@pytest.mark.parametrize(
    ("choice", "channel"),
    [
        ("robot", "wecom_robot"),
        ("serverchan", "serverchan"),
        ("wecomchan", "wecomchan"),
        ("ROBOT", "wecom_robot"),
    ],
)
def test_an_alert_channel_with_its_credential_routes_alerts_to_the_first_admin(
    choice: str, channel: str
) -> None:
    settings = load_settings({**GOOD, **CHANNELS, **ADMINS, "KEEPER_ALERT_CHANNEL": choice})
    route = alert_route(settings)
    assert route is not None
    assert (route.channel, route.owner, route.recipients, route.fallback) == (
        channel,
        "ada",
        ("ada",),
        False,
    )


def test_wxpusher_alerts_go_to_the_uid_given() -> None:
    env = {**GOOD, **CHANNELS, **ADMINS, "KEEPER_ALERT_CHANNEL": "wxpusher"}
    route = alert_route(load_settings({**env, "KEEPER_ALERT_TO": "UID_boss0001"}))
    assert route is not None
    assert (route.channel, route.recipients) == ("wxpusher", ("UID_boss0001",))


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({**ADMINS, "KEEPER_ALERT_CHANNEL": "robot"}, "KEEPER_ROBOT_KEY"),
        ({**ADMINS, "KEEPER_ALERT_CHANNEL": "serverchan"}, "KEEPER_SERVERCHAN_SENDKEY"),
        ({**ADMINS, "KEEPER_ALERT_CHANNEL": "wecomchan"}, "KEEPER_WECOMCHAN_URL"),
        ({**ADMINS, "KEEPER_ALERT_CHANNEL": "wxpusher"}, "KEEPER_WXPUSHER_APP_TOKEN"),
        ({**ADMINS, **CHANNELS, "KEEPER_ALERT_CHANNEL": "wxpusher"}, "KEEPER_ALERT_TO"),
        ({**ADMINS, **CHANNELS, "KEEPER_ALERT_CHANNEL": "pager"}, "KEEPER_ALERT_CHANNEL"),
        ({**CHANNELS, "KEEPER_ALERT_CHANNEL": "robot"}, "KEEPER_ADMINS"),
    ],
)
def test_an_alert_channel_that_cannot_work_stops_start_up_naming_what_is_missing(
    env: dict[str, str], named: str
) -> None:
    with pytest.raises(SettingsError, match=named) as caught:
        load_settings({**GOOD, **env})
    for secret in CHANNELS.values():
        assert secret not in str(caught.value)


def test_without_an_alert_channel_the_wecom_app_tells_every_admin_as_a_fallback() -> None:
    route = alert_route(load_settings({**GOOD, **ADMINS}))
    assert route is not None
    assert (route.channel, route.recipients, route.fallback) == ("wecom_app", ("ada", "boss"), True)
    assert not route.reaches_around("wecom_app")  # it cannot report its own hold
    assert route.reaches_around("wecom_robot")


def test_without_admins_nobody_is_alerted() -> None:
    assert alert_route(load_settings(GOOD)) is None
