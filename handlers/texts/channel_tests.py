"""Every sentence of the channel tests (`测试 渠道`, `收到`) and of what keeper knows
of a channel reaching the phone (a device check, the answered share).

A message the provider only accepted is 已发出 (sent), nothing more: that is all
keeper knows of it (`scheduler.core.evidence`; a unit test scans every text). The test's own words are the scheduler's
(`scheduler.core.texts.channel_test`).
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from scheduler.core.texts import times
from scheduler.core.texts.channel_test import answer_word

TEST_HOW = "发「测试 渠道」，手机上看到测试消息后回复「收到」"


def tests_queued(names: list[str], words: list[str]) -> str:
    """The tests are on their way; what to answer, and by when."""
    where = "、".join(names)
    answer = "」或「".join(words)
    return f"测试消息马上发到：{where}。手机上看到后，30 分钟内回复「{answer}」。"


def not_bound(name: str) -> str:
    return f"还没绑定 {name}，没法测试。发「设置 渠道」看看有哪些通道。"


def checks_confirmed(names: list[str]) -> str:
    return f"好的，记下了：{'、'.join(names)} 的消息能到你手机上。"


def which_test(names: list[str], channels: list[str]) -> str:
    """Several tests wait and a bare 收到 cannot tell which was seen."""
    words = "」或「".join(answer_word(channel) for channel in channels)
    return f"测试发到了 {'、'.join(names)}。在手机上看到哪条，就回复「{words}」。"


def tests_still_waiting(words: list[str]) -> str:
    """After a 收到 that answered a nag while channel tests wait."""
    return f"（渠道测试还在等确认：看到了就回复「{'」或「'.join(words)}」。）"


NO_TEST_WAITING = "没有在等确认的渠道测试（测试 30 分钟内有效）。" + TEST_HOW + "。"


# --- per channel, in 设置 渠道, 管理 状态, the admin page and the doctor ---
NEVER_CHECKED = "还没在手机上确认过，" + TEST_HOW
NEVER_CHECKED_ADMIN = "还没在手机上确认过：让用户发「测试 渠道」再回复「收到」"
DOCTOR_NONE_CONFIRMED = (
    "no channel confirmed on a phone yet: keeper doctor --send-test, then answer 收到"
)
NEVER_CHECKED_DOCTOR = "还没在手机上确认过：运行 keeper doctor --send-test，看到后回复「收到」"


def checked_at(when: dt.datetime, tz: ZoneInfo) -> str:
    """The last confirmed device check, in `tz`."""
    return f"{times.stamp(when, tz)} 在手机上确认收到过测试"


def check_waiting(when: dt.datetime, tz: ZoneInfo) -> str:
    return f"{times.stamp(when, tz)} 发了测试，等回复「收到」（30 分钟内有效）"


def unconfirmed(when: dt.datetime, tz: ZoneInfo) -> str:
    return f"{times.stamp(when, tz)} 测试过，没有确认收到；" + TEST_HOW


def answered_share(percent: int | None, sent: int) -> str:
    """The share of reminders answered in 30 days (None: none went out)."""
    if percent is None:
        return "近 30 天没有要回复的提醒"
    return f"近 30 天回复了 {percent}% 的提醒（共 {sent} 条已发出）"


EVIDENCE_HEAD = "手机上能否收到（渠道测试，和提醒的回复）："


def evidence_line(name: str, check: str, share: str) -> str:
    return f"· {name}：{check}；{share}"
