"""Admin commands (管理 状态, 管理 对账, 管理 暂停/恢复 全部) and 我是谁
(`handlers/admin.py`). 管理 状态 speaks Chinese: channels, incidents and job statuses
as the admin reads them."""

from __future__ import annotations

from collections.abc import Iterable

from scheduler.core.texts.channels import CHANNEL_WORDS
from scheduler.core.texts.messages import Lost, lost_line
from storage.vocabulary import IncidentKind, JobStatus

ADMIN_COMMAND = "管理"
"""The admin commands' word, as the operator is told it."""
ADMIN_HINT = (
    "管理命令：管理 状态 / 管理 对账 <任务号> 已收到|未收到 / 管理 暂停 全部 / 管理 恢复 全部"
    " / 管理 网页"
)
ADMIN_ONLY = "这是管理员命令，你没有权限。"


def who_am_i(user_id: str, is_admin: bool) -> str:
    role = (
        "你是管理员，可以用「管理 状态」。"
        if is_admin
        else "要当管理员，请把它加到 KEEPER_ADMINS 里。"
    )
    return f"你的企业微信账号（UserID）是：{user_id}\n{role}"


def admin_channel(
    channel: str,
    accepted: int,
    failed: int,
    unknown: int,
    retries: int,
    not_sent: int,
    last_success: str,
    consecutive: int,
    waiting: int,
    oldest_age: str,
    causes: list[tuple[str, int]] | None = None,
) -> str:
    lines = [
        f"{channel}：已发出 {accepted}，失败 {failed}，未知 {unknown}，重试 {retries}，未发 {not_sent}",
        f"  最近成功 {last_success}，连续失败 {consecutive}，排队 {waiting}（最早等了 {oldest_age}）",
    ]
    if causes:
        lines.append("  失败原因：" + "；".join(f"{words} {n} 次" for words, n in causes))
    return "\n".join(lines)


CHANNEL_NAMES = CHANNEL_WORDS
INCIDENT_NAMES: dict[str, str] = {
    IncidentKind.CHANNEL_HOLD: "暂停发送",
    IncidentKind.SCHEDULER_STOPPED: "调度器停了",
    IncidentKind.BACKUP_OVERDUE: "备份超期",
}


def admin_alert_road(channel: str) -> str:
    """Where admin alerts go (KEEPER_ALERT_CHANNEL), or that the WeCom app stands in."""
    if channel:
        return f"告警通道：{CHANNEL_NAMES.get(channel, channel)}"
    return "告警通道：未设置（KEEPER_ALERT_CHANNEL），暂由企业微信应用告诉管理员；应用自身出问题时发不出告警"


def admin_incident(kind: str, subject: str, since: str, alerted: bool) -> str:
    what = INCIDENT_NAMES.get(kind, kind)
    if kind == IncidentKind.CHANNEL_HOLD:
        what = f"{CHANNEL_NAMES.get(subject, subject)}{what}"
    return f"⚠ 未解决：{what}，从 {since} 起（{'已告警' if alerted else '还没告警'}）"


def failed_reminder_line(item: Lost) -> str:
    return f"⚠ 没送到：{lost_line(item)}"


JOB_STATUS_NAMES: dict[str, str] = {
    JobStatus.PENDING: "排队",
    JobStatus.PROCESSING: "发送中",
    JobStatus.ACCEPTED: "已发出",
    JobStatus.RETRY_WAIT: "等重试",
    JobStatus.FAILED: "失败",
    JobStatus.UNKNOWN: "未知",
    JobStatus.SUPPRESSED: "免发",
    JobStatus.CANCELLED: "已取消",
    JobStatus.EXPIRED: "过期",
}
"""管理 状态 speaks Chinese: job statuses as the admin reads them."""
ADMIN_NO_JOBS = "还没有任何发送记录。"


def admin_settled(job_id: int, received: bool) -> str:
    return f"已记录：任务 {job_id} {'已收到' if received else '未收到'}。"


def admin_not_unknown(job_id: int) -> str:
    return f"任务 {job_id} 不是「未知」状态，不需要对账。"


def admin_hold(hold: bool) -> str:
    if hold:
        return "已暂停全部发送：提醒先排队，超过补发时限的会过期。发「管理 恢复 全部」恢复。"
    return "已恢复发送。"


def admin_overview(users: int, rules: str, next_job: str | None, held: bool) -> str:
    lines = [f"用户 {users}；规则 {rules or '无'}"]
    lines.append(f"下一条待发：{next_job}" if next_job else "没有排队的发送。")
    if held:
        lines.append("⏸ 全部发送已暂停（管理 恢复 全部）")
    return "\n".join(lines)


def admin_broken_rules(count: int, latest: list[tuple[int, str, str]]) -> str:
    shown = "；".join(f"#{rule_id} {kind}：{reason}" for rule_id, kind, reason in latest)
    return f"⚠ 出错停用的规则 {count} 条（算不出下次时间）：{shown}"


ADMIN_NEVER = "无"
"""An instant that has not happened (no success yet, nothing waiting)."""


def admin_rule_counts(counts: Iterable[tuple[str, int, int]]) -> str:
    """Rules per kind as (name, active, all): `喝水 1/1，提醒 2/3`."""
    return "，".join(f"{name} {active}/{total}" for name, active, total in counts)


def admin_job_counts(counts: Iterable[tuple[str, str, int]]) -> str:
    """Sends per kind and status as (kind, status, count): `喝水 已发出 3；晨报 过期 1`."""
    return "；".join(f"{kind} {status} {n}" for kind, status, n in counts)


def admin_cause(words: str, code: int | None) -> str:
    """A failure's cause in words an admin acts on; the code stays visible for searching."""
    words = words or "原因不明"
    return f"{words}（{code}）" if code is not None else words


def admin_age(minutes: int) -> str:
    return f"{minutes} 分钟"


def admin_jobs(counts: str) -> str:
    return f"按类型：{counts}" if counts else ""
