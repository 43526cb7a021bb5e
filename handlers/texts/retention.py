"""Retention (管理 状态): what the daily run keeps and prunes, per table
(`handlers/retention_status.py`)."""

from __future__ import annotations

RETENTION_HEAD = "数据保留（每天清理一次）："
RETENTION_TABLE_NAMES = {
    "inbound_messages": "收到的消息",
    "notification_jobs": "发送任务",
    "delivery_attempts": "发送记录",
    "web_links": "网页链接",
    "mp_link_codes": "小程序绑定码",
}


def retention_table(
    name: str, *, keep_days: int | None, kept: int, oldest_days: int | None, last_run: str | None
) -> str:
    keep = f"（保留 {keep_days} 天）" if keep_days is not None else ""
    oldest = ""
    if oldest_days is not None:
        oldest = f"，最早 {oldest_days} 天前" if oldest_days >= 1 else "，最早不到 1 天"
    return f"· {name}{keep}：{kept:,} 条{oldest}；{last_run or '还没清理过'}"


def retention_done(at: str, pruned: int) -> str:
    return f"{at} 清理删了 {pruned:,} 条"


def retention_running(since: str, pruned: int) -> str:
    return f"清理中（{since} 起，已删 {pruned:,} 条）"


def retention_interrupted(since: str, pruned: int) -> str:
    return f"{since} 起的清理没有做完（删了 {pruned:,} 条），下一次接着清"
