"""The incident state machine (`scheduler.core.incidents`) as one table, and its words."""

from __future__ import annotations

import datetime as dt
import itertools
from zoneinfo import ZoneInfo

import pytest

from scheduler.core.incidents import (
    TRANSITIONS,
    Action,
    Event,
    State,
    Step,
    state_of,
    step,
)
from scheduler.core.texts.incidents import alert_text, recovery_text
from storage.vocabulary import IncidentKind

SHANGHAI = ZoneInfo("Asia/Shanghai")
T0 = dt.datetime(2026, 11, 25, 2, 30, tzinfo=dt.UTC)  # 10:30 in Shanghai
ERRMSG = "config; errcode 60020: not allow to access from your ip, from ip: 203.0.113.7, more"


@pytest.mark.parametrize(
    ("state", "event", "expected"),
    [
        (State.NONE, Event.SEEN, Step(State.ALERTED, Action.ALERT)),
        (State.OPEN, Event.SEEN, Step(State.ALERTED, Action.ALERT)),
        (State.ALERTED, Event.SEEN, Step(State.ALERTED, Action.REFRESH)),
        (State.OPEN, Event.HEALED, Step(State.CLOSED, Action.NONE)),
        (State.ALERTED, Event.HEALED, Step(State.RECOVERED, Action.TELL_RECOVERY)),
        (State.RECOVERED, Event.SEEN, Step(State.ALERTED, Action.ALERT)),
        (State.CLOSED, Event.SEEN, Step(State.ALERTED, Action.ALERT)),
        (State.RECOVERED, Event.HEALED, Step(State.RECOVERED, Action.NONE)),
        (State.CLOSED, Event.HEALED, Step(State.CLOSED, Action.NONE)),
        (State.NONE, Event.HEALED, Step(State.NONE, Action.NONE)),
    ],
)
def test_each_transition(state: State, event: Event, expected: Step) -> None:
    assert step(state, event) == expected


def test_the_table_is_total() -> None:
    assert set(TRANSITIONS) == set(itertools.product(State, Event))


def test_within_one_incident_only_the_first_sighting_alerts_and_only_healing_tells() -> None:
    state, actions = State.NONE, []
    for event in (Event.SEEN, Event.SEEN, Event.SEEN, Event.HEALED, Event.HEALED):
        taken = step(state, event)
        state = taken.state
        actions.append(taken.action)
    assert actions == [
        Action.ALERT,
        Action.REFRESH,
        Action.REFRESH,
        Action.TELL_RECOVERY,
        Action.NONE,
    ]


@pytest.mark.parametrize(
    ("alerted", "resolved", "told", "state"),
    [
        (None, None, None, State.OPEN),
        (T0, None, None, State.ALERTED),
        (T0, T0, T0, State.RECOVERED),
        (None, T0, None, State.CLOSED),
    ],
)
def test_a_rows_state_comes_from_its_timestamps(
    alerted: dt.datetime | None,
    resolved: dt.datetime | None,
    told: dt.datetime | None,
    state: State,
) -> None:
    assert state_of(alerted_at=alerted, resolved_at=resolved, told=told) == state


def test_a_60020_alert_names_the_ip_to_add_to_the_trusted_ips_and_since_when() -> None:
    text = alert_text(
        IncidentKind.CHANNEL_HOLD, "wecom_app", code=60020, detail=ERRMSG, since=T0, tz=SHANGHAI
    )
    assert "企业可信 IP" in text
    assert "把 203.0.113.7 加到" in text
    assert "10:30" in text
    assert text.count("\n") == 1  # what broke, then the fix


@pytest.mark.parametrize(
    ("kind", "subject", "code", "words"),
    [
        (IncidentKind.CHANNEL_HOLD, "wecom_app", 40001, "WECOM_SECRET"),
        (IncidentKind.CHANNEL_HOLD, "wecom_app", 48002, "权限"),
        (IncidentKind.CHANNEL_HOLD, "wecom_robot", 93000, "KEEPER_ROBOT_KEY"),
        (IncidentKind.CHANNEL_HOLD, "wxpusher", 1002, "keeper doctor"),
        (IncidentKind.CHANNEL_HOLD, "mp_subscribe", 47003, "thing1"),
        (IncidentKind.CHANNEL_HOLD, "mp_subscribe", 40037, "KEEPER_MP_TEMPLATE_ID"),
        (IncidentKind.CHANNEL_HOLD, "mp_subscribe", 41030, "pages/water/water"),
        (IncidentKind.CHANNEL_HOLD, "mp_subscribe", 40001, "KEEPER_MP_SECRET"),
        (IncidentKind.SCHEDULER_STOPPED, "scheduler", None, "keeper worker"),
        (IncidentKind.BACKUP_OVERDUE, "backup", None, "keeper backup"),
    ],
)
def test_every_alert_says_how_to_fix_it(
    kind: IncidentKind, subject: str, code: int | None, words: str
) -> None:
    text = alert_text(kind, subject, code=code, detail="", since=T0, tz=SHANGHAI)
    assert text.startswith("⚠ keeper：")
    assert words in text.splitlines()[1]


def test_a_mini_program_hold_names_the_channel_and_its_own_reason() -> None:
    text = alert_text(
        IncidentKind.CHANNEL_HOLD, "mp_subscribe", code=47003, detail="", since=T0, tz=SHANGHAI
    )
    assert "小程序订阅消息暂停发送：模板参数不对（47003）" in text


def test_the_all_clear_says_how_long_it_was_broken() -> None:
    text = recovery_text(
        IncidentKind.CHANNEL_HOLD,
        "wecom_app",
        since=T0,
        healed=T0 + dt.timedelta(minutes=40),
        tz=SHANGHAI,
    )
    assert text == "✅ keeper：企业微信应用恢复发送了（11-25 10:30 起中断，11-25 11:10 恢复）。"
