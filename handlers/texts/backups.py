"""Scheduled backups, as 管理 状态 and the admin page show them (`handlers/backup_status.py`)."""

from __future__ import annotations

BACKUP_OFF = "备份：未开启（设置 KEEPER_BACKUP_DIR 后每天自动备份）"
BACKUP_NONE_YET = "备份：已开启，还没有完成的备份"


def backup_verified(at: str, rows: int) -> str:
    return f"备份：最近一次已验证 {at}（{rows:,} 行）"


def backup_failed(at: str, problem: str) -> str:
    return f"备份：最近一次失败（{at}）：{problem}"


def backup_running(since: str) -> str:
    return f"备份：进行中（{since} 开始）"


def backup_interrupted(since: str) -> str:
    return f"备份：最近一次没有完成（{since} 开始，进程中途停止了）"


def backup_last_good(at: str | None) -> str:
    return f"上一次已验证：{at}" if at else "还没有已验证的备份"


BACKUP_OVERDUE = "⚠ 超过 26 小时没有已验证的备份"
