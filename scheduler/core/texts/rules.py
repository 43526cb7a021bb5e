"""The rule kinds by the names people read: the 提醒 list, 管理 状态, and the labels
the default digest and review rules are stored with. Each kind's row in
`scheduler.core.rule_kinds` takes its `label` from here."""

from __future__ import annotations

from typing import Final

from storage.vocabulary import RuleKind

RULE_KIND_NAMES: Final[dict[str, str]] = {
    RuleKind.WATER: "喝水",
    RuleKind.DIGEST_MORNING: "晨报",
    RuleKind.DIGEST_EVENING: "晚报",
    RuleKind.EVENT_REMINDER: "日程",
    RuleKind.TASK_DUE: "待办",
    RuleKind.CUSTOM: "提醒",
    RuleKind.WEEKLY_REVIEW: "周报",
    RuleKind.ADMIN_ALERT: "管理告警",
    RuleKind.NAG: "催办",  # 直到完成: apart from plain 提醒 in 管理 状态
    RuleKind.CHANNEL_TEST: "渠道测试",
}
