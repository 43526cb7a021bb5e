"""Why a send failed, in plain Chinese words for the person it was meant for.

A job's outcome note says what the channel answered ("config: 60020", "permanent:
81013", "transient errors; attempts exhausted"); the user and the admin read the
reason, never a code. One table, pure, shared by the missed-reminder line and
管理 状态.
"""

from __future__ import annotations

import re
from typing import Final

from storage.vocabulary import ErrorClass

BY_CODE: Final[dict[int, str]] = {
    60020: "服务器 IP 不在企业可信 IP 中",
    40001: "应用的 Secret 不对",
    40013: "企业 ID（CorpID）不对",
    40056: "应用的 AgentId 不对",
    41004: "没有配置应用的 Secret",
    301002: "应用的凭证不匹配",
    48002: "应用没有发消息的权限",
    50003: "应用已停用",
    60011: "你不在应用的可见范围内",
    81013: "企业微信找不到你的账号",
    46004: "企业微信找不到你的账号",
    60111: "企业微信找不到你的账号",
    45002: "内容太长",
    45009: "发得太频繁，被企业微信限流",
    45033: "发得太频繁，被企业微信限流",
    -1: "企业微信系统繁忙",
}
"""Provider codes whose meaning a person can act on (or tell their admin)."""

BY_CLASS: Final[dict[str, str]] = {
    ErrorClass.CONFIG: "服务器配置有误",
    ErrorClass.PERMANENT: "企业微信拒收",
    ErrorClass.TRANSIENT: "企业微信一直忙，重试几次都没成功",
    ErrorClass.UNCERTAIN: "发出后没等到回应",
}
"""The error class's words, when the code says nothing more."""

_CODE = re.compile(r"(-?\d+)\s*$")


def failure_words(note: str) -> str:
    """The reason in a job's outcome note as a short plain phrase ("" if none known).

    >>> failure_words("config: 60020")
    '服务器 IP 不在企业可信 IP 中'
    """
    error_class, _, rest = note.partition(":")
    code = _CODE.search(rest)
    if code and int(code.group(1)) in BY_CODE:
        return BY_CODE[int(code.group(1))]
    if "attempts exhausted" in note:
        return BY_CLASS[ErrorClass.TRANSIENT]
    return BY_CLASS.get(error_class.strip(), "")
