"""Every notification keeper sends on its own, in one module (replies live in
`handlers.texts`). Notifications never carry journal text or amounts."""

from __future__ import annotations

WATER_REMINDER = "该喝水了 💧\n喝完回复「喝水」，我按你的节奏安排下一次。"
ADMIN_TEST = "keeper 测试消息：消息通道正常。"
