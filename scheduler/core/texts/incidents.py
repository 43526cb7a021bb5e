"""The admins' alerts and all-clears (`scheduler.core.incidents` decides when): what
broke, since when, and the console fix, in the words an admin acts on."""

from __future__ import annotations

import datetime as dt
from typing import Final
from zoneinfo import ZoneInfo

from scheduler.core.incidents import outbound_ip
from scheduler.core.texts.channels import CHANNEL_WORDS
from scheduler.core.texts.failure_words import BY_CODE
from scheduler.core.texts.times import stamp
from storage.vocabulary import IncidentKind

APP_PAGE = "应用管理 → 自建 → 本应用"

FIXES: Final[dict[int, str]] = {
    40001: f"WECOM_SECRET 不对或被重置了：{APP_PAGE} → Secret → 查看，改好后重启 keeper。",
    48002: f"应用没有发消息的权限：{APP_PAGE} → 权限，打开后等几分钟。",
    50003: f"应用已停用：{APP_PAGE} → 启用。",
    93000: "群机器人的 key 失效了（机器人被移出群？）：重新添加机器人，更新 KEEPER_ROBOT_KEY。",
    93004: "群机器人被停用了：在群设置里启用它。",
}
"""The console fix per provider code (60020 is composed with the IP)."""

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
