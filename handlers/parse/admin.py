"""`管理 ...`: the admin commands (whether the user may is the handler's call)."""

from __future__ import annotations

import re

from handlers import texts
from handlers.commands import (
    AdminHoldAll,
    AdminSettle,
    AdminStatus,
    Command,
    OpenPages,
    ParseError,
)
from handlers.parse.body import Body
from handlers.parse.patterns import (
    ADMIN_BACKEND,
    ADMIN_HOLD_PATTERN,
    ADMIN_HOLD_WORD,
    ADMIN_LEAD_PATTERN,
    ADMIN_LOOK_WORDS,
    ADMIN_OPEN_WORDS,
    ADMIN_PAGE_WORDS,
    ADMIN_RECEIVED_WORDS,
    ADMIN_SETTLE_PATTERN,
    ADMIN_STATUS,
    ADMIN_STATUS_ASKED_PATTERN,
    ADMIN_SYSTEM,
    ADMIN_TAILS,
)

_HOLD = re.compile(ADMIN_HOLD_PATTERN)
_STATUS_ASKED = re.compile(ADMIN_STATUS_ASKED_PATTERN)
_LEAD = re.compile(ADMIN_LEAD_PATTERN)
_SETTLE = re.compile(ADMIN_SETTLE_PATTERN)


def parse_admin(body: Body) -> Command:
    """`管理 状态` / `管理 对账 12 已收到` / `管理 暂停 全部` / `管理 恢复 全部` /
    `管理 网页` (whether the user may is the handler's call)."""
    text = _LEAD.sub("", " ".join(body.text.split()))  # 管理员 查看状态, 管理：先把所有发送都暂停
    text = _STATUS_ASKED.sub("", text)  # 管理：现在系统状态怎么样
    for look in ADMIN_LOOK_WORDS:
        text = text.removesuffix(look).removeprefix(look).strip()  # 管理 状态看一下
    if text.removeprefix(ADMIN_SYSTEM) == ADMIN_STATUS:
        return AdminStatus()  # 管理 系统状态
    for lead in ADMIN_OPEN_WORDS:
        text = text.removeprefix(lead)
    text = text.strip()
    text = text.removeprefix(ADMIN_BACKEND).strip()  # 管理 后台网页
    text = text.removeprefix(ADMIN_SYSTEM).strip()  # 管理 看一下系统状态
    if text.startswith(ADMIN_PAGE_WORDS):
        return OpenPages(admin=True)  # 管理 网页链接发我一个
    said = text
    for tail in ADMIN_TAILS:
        said = said.removesuffix(tail)
    said = said.strip()
    hold = _HOLD.fullmatch(said) or _HOLD.match(said)  # 管理 暂停 全部 先别发了
    if hold is not None:
        return AdminHoldAll(hold=(hold["a"] or hold["b"]) == ADMIN_HOLD_WORD)
    if match := _SETTLE.fullmatch(text):
        return AdminSettle(
            job_id=int(match["job"]),
            received=match["word"] in ADMIN_RECEIVED_WORDS,
        )
    raise ParseError(texts.ADMIN_HINT)
