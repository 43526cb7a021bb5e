"""The demo's own words (`keeper chat`, `bot/chat.py`): its commands, its banner, the
prompt and what it says about the clock. What keeper answers is keeper's own."""

from __future__ import annotations

DEMO_HELP = """演示命令：
  /time +2h   时间往后拨（m 分钟、h 小时、d 天）
  /time 14:10   拨到下一个 14:10（今天或明天）
  /time 2026-12-01T08:00   跳到某个时刻（本地时间）
  /now        现在几点
  /quit       退出（或 Ctrl-D）
其余输入都会当作企业微信消息发给 keeper。"""
DEMO_PROMPT = "你> "
DEMO_NO_REPLY = "（没有回复）"
DEMO_BAD_TIME = "看不懂这个时间。例：/time +2h 或 /time 2026-12-01T08:00"
DEMO_NOT_BACKWARDS = "时间只能往后拨。"


def demo_banner(db_path: str) -> str:
    return f"keeper 演示 · 数据存在 {db_path} · 企业微信是本机模拟的"


def demo_now(now: str, zone: str) -> str:
    return f"现在是 {now}（{zone}）。/help 看演示命令。"


def demo_clock(now: str) -> str:
    return f"现在是 {now}"


def demo_clock_moved(now: str) -> str:
    return f"时间拨到 {now}"


def demo_http_status(status: int) -> str:
    return f"（服务器回答了 HTTP {status}）"


def demo_reminder(at: str, text: str) -> str:
    """A reminder the fake WeCom received, as the terminal shows it."""
    return f"📨 {at} 提醒> {text}"
