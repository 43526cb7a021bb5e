"""Admin incidents: the pure state machine, and what the admins are told.

An incident is one thing that broke (a channel held after a configuration error, the
scheduler stopped, a verified backup overdue), stored in the `incidents` table with
its kind and subject (the channel's name, "scheduler", "backup"). The admins are told
once when it opens and once when it heals, never on every failure in between:

| state | event | next | action |
|---|---|---|---|
| (none) | seen | open | alert |
| open | seen | open | alert (the first alert found no road: try again) |
| alerted | seen | alerted | refresh (last_seen_at, detail) |
| open | healed | closed | none (nobody was told, nobody needs the all-clear) |
| alerted | healed | recovered | tell_recovery |
| recovered / closed | seen | (a new incident) | alert |
| recovered / closed | healed | same | none |

`open` means the alert is not queued yet (no road to the admins: the only road is
the broken one); `alerted` means the alert job was queued (the job then has its own
fate, recorded like any other); `recovered` means the all-clear was queued.
The shell (`services.alerts`) applies a step under the incident's row lock, with a
conditional UPDATE, so two workers seeing the same failure queue one alert.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Final
from zoneinfo import ZoneInfo

from scheduler.core.failure_words import BY_CODE
from scheduler.core.times import stamp
from storage.vocabulary import IncidentKind

__all__ = [
    "Action",
    "AlertRoute",
    "Event",
    "State",
    "Step",
    "alert_text",
    "outbound_ip",
    "recovery_text",
    "state_of",
    "step",
]


class State(StrEnum):
    NONE = "none"
    OPEN = "open"
    ALERTED = "alerted"
    RECOVERED = "recovered"
    CLOSED = "closed"


class Event(StrEnum):
    SEEN = "seen"
    HEALED = "healed"


class Action(StrEnum):
    ALERT = "alert"
    REFRESH = "refresh"
    TELL_RECOVERY = "tell_recovery"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class Step:
    state: State
    action: Action


TRANSITIONS: Final[dict[tuple[State, Event], Step]] = {
    (State.NONE, Event.SEEN): Step(State.ALERTED, Action.ALERT),
    (State.OPEN, Event.SEEN): Step(State.ALERTED, Action.ALERT),
    (State.ALERTED, Event.SEEN): Step(State.ALERTED, Action.REFRESH),
    (State.OPEN, Event.HEALED): Step(State.CLOSED, Action.NONE),
    (State.ALERTED, Event.HEALED): Step(State.RECOVERED, Action.TELL_RECOVERY),
    (State.RECOVERED, Event.SEEN): Step(State.ALERTED, Action.ALERT),
    (State.CLOSED, Event.SEEN): Step(State.ALERTED, Action.ALERT),
    (State.RECOVERED, Event.HEALED): Step(State.RECOVERED, Action.NONE),
    (State.CLOSED, Event.HEALED): Step(State.CLOSED, Action.NONE),
    (State.NONE, Event.HEALED): Step(State.NONE, Action.NONE),
}
"""Every transition, in one place (the module table). An ALERT whose queueing finds
no road leaves the incident `open` (the shell does not stamp `alerted_at`)."""


def step(state: State, event: Event) -> Step:
    """The next state and what to do; total over `State` x `Event`."""
    return TRANSITIONS[(state, event)]


def state_of(
    *, alerted_at: dt.datetime | None, resolved_at: dt.datetime | None, told: dt.datetime | None
) -> State:
    """An incident row's state from its timestamps (None row: `State.NONE`)."""
    if resolved_at is None:
        return State.OPEN if alerted_at is None else State.ALERTED
    return State.RECOVERED if told is not None else State.CLOSED


_FROM_IP = re.compile(r"from ip:\s*([0-9A-Fa-f.:]+)")


def outbound_ip(errmsg: str) -> str | None:
    """The caller's address WeCom reports in an errmsg ("..., from ip: 1.2.3.4, ...")."""
    match = _FROM_IP.search(errmsg)
    return match.group(1).rstrip(".,") if match else None


APP_PAGE = "应用管理 → 自建 → 本应用"

FIXES: Final[dict[int, str]] = {
    40001: f"WECOM_SECRET 不对或被重置了：{APP_PAGE} → Secret → 查看，改好后重启 keeper。",
    48002: f"应用没有发消息的权限：{APP_PAGE} → 权限，打开后等几分钟。",
    50003: f"应用已停用：{APP_PAGE} → 启用。",
    93000: "群机器人的 key 失效了（机器人被移出群？）：重新添加机器人，更新 KEEPER_ROBOT_KEY。",
    93004: "群机器人被停用了：在群设置里启用它。",
}
"""The console fix per provider code (60020 is composed with the IP)."""

CHANNEL_WORDS: Final[dict[str, str]] = {
    "wecom_app": "企业微信应用",
    "wecom_robot": "群机器人",
    "wxpusher": "WxPusher",
    "serverchan": "Server酱",
    "wecomchan": "wecomchan",
    "mp_subscribe": "小程序订阅消息",
}
"""Channels by the names admins read (管理 状态 uses these too)."""


MP_FIXES: Final[dict[int, tuple[str, str]]] = {
    47003: (
        "模板参数不对",
        "订阅消息模板的字段要有 thing1 和 time2：检查模板，或换 KEEPER_MP_TEMPLATE_ID。",
    ),
    40037: ("模板 ID 不对", "检查 KEEPER_MP_TEMPLATE_ID 是否是小程序后台 → 订阅消息里的模板 ID。"),
    41030: ("跳转页面不存在", "小程序的线上版本里要有 pages/water/water：发布后再试。"),
    40001: ("AppSecret 不对", "小程序后台 → 开发管理 → AppSecret，更新 KEEPER_MP_SECRET 后重启。"),
    40125: ("AppSecret 不对", "小程序后台 → 开发管理 → AppSecret，更新 KEEPER_MP_SECRET 后重启。"),
    40013: ("AppID 不对", "检查 KEEPER_MP_APPID（小程序后台 → 开发管理）。"),
}
"""The mini-program channel's own reasons and fixes: its codes are WeChat's, not WeCom's."""


def _fix(code: int | None, detail: str, subject: str = "") -> str:
    if subject == "mp_subscribe" and code in MP_FIXES:
        return MP_FIXES[code][1]
    if code == 60020:
        ip = outbound_ip(detail) or "服务器的出口 IP"
        return f"把 {ip} 加到 企业可信 IP：{APP_PAGE} → 开发者接口 → 企业可信IP → 配置。"
    return FIXES.get(code or 0, "运行 keeper doctor 看具体原因和改法。")


def alert_text(
    kind: IncidentKind,
    subject: str,
    *,
    code: int | None,
    detail: str,
    since: dt.datetime,
    tz: ZoneInfo,
) -> str:
    """The admins' alert: what broke, since when, and the fix. `detail` is already
    redacted (it is a channel's error text)."""
    if kind is IncidentKind.CHANNEL_HOLD:
        reason = BY_CODE.get(code or 0, "配置有误")
        if subject == "mp_subscribe":
            reason = MP_FIXES.get(code or 0, ("配置有误", ""))[0]
        what = f"{CHANNEL_WORDS.get(subject, subject)}暂停发送：{reason}"
        if code is not None:
            what += f"（{code}）"
        fix = _fix(code, detail, subject)
    elif kind is IncidentKind.SCHEDULER_STOPPED:
        what, fix = "提醒没有在发：调度器停了", "检查 keeper worker 是否在运行。"
    else:
        what, fix = "备份超期了：最近没有验证过的备份", "运行 keeper backup --verify。"
    return f"⚠ keeper：{what}，从 {stamp(since, tz)} 起。\n处理：{fix}"


def recovery_text(
    kind: IncidentKind, subject: str, *, since: dt.datetime, healed: dt.datetime, tz: ZoneInfo
) -> str:
    """The all-clear, once per incident that was alerted."""
    if kind is IncidentKind.CHANNEL_HOLD:
        what = f"{CHANNEL_WORDS.get(subject, subject)}恢复发送了"
    elif kind is IncidentKind.SCHEDULER_STOPPED:
        what = "调度器恢复了"
    else:
        what = "备份恢复正常了"
    return f"✅ keeper：{what}（{stamp(since, tz)} 起中断，{stamp(healed, tz)} 恢复）。"


@dataclass(frozen=True, kw_only=True, slots=True)
class AlertRoute:
    """How the admins are told: through `channel`, as jobs of the admin `owner`'s
    (a WeCom UserID: the users row the jobs belong to), to each of `recipients` (the
    channel's own target: the robot's @-mention, a WxPusher UID, the admins' UserIDs
    for the WeCom app). `fallback`: no `KEEPER_ALERT_CHANNEL` was set, so this is the
    WeCom app, which cannot tell about its own hold (管理 状态 says so)."""

    channel: str
    owner: str
    recipients: tuple[str, ...]
    timezone: str
    fallback: bool = False

    def reaches_around(self, subject: str) -> bool:
        """Whether this road is not the broken one."""
        return self.channel != subject
