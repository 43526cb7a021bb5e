"""A reminder rule's life, in one table (pure).

`active` fires on its schedule; `paused` (暂停 提醒 N, 关闭 晨报) and `off` (关闭 提醒,
which 开启 提醒 undoes, leaving individually paused rules paused) do not; `done`
(a one-off that fired, or whose moment passed) and `deleted` are final and release
the rule's short number. `internal` rules (the card-update carrier) are never listed
and never change. The water rule stays `active`: its on/off is the water plan's.
`error`: the tick could not compute the rule's occurrences (a malformed schedule, a
bug); it is set aside with the reason so it cannot stall the others, stays in the
user's list marked as such (keeping its number; the user is told once), and is shown
to the admin (管理 状态); only deleting it is left.
"""

from __future__ import annotations

from storage.vocabulary import RuleStatus

_ON, _PAUSED, _OFF = RuleStatus.ACTIVE, RuleStatus.PAUSED, RuleStatus.OFF
_DONE, _DELETED = RuleStatus.DONE, RuleStatus.DELETED

TRANSITIONS: dict[RuleStatus, frozenset[RuleStatus]] = {
    _ON: frozenset({_PAUSED, _OFF, _DONE, _DELETED, RuleStatus.ERROR}),
    _PAUSED: frozenset({_ON, _DONE, _DELETED}),  # resumed; done when nothing is left
    _OFF: frozenset({_ON, _PAUSED, _DONE, _DELETED}),  # 开启 提醒, or 关闭 晨报 meanwhile
    _DONE: frozenset(),
    _DELETED: frozenset(),
    RuleStatus.INTERNAL: frozenset(),
    RuleStatus.ERROR: frozenset({_DELETED}),
}
"""Every allowed status change (a status never "moves" to itself)."""

LISTED: frozenset[RuleStatus] = frozenset({_ON, _PAUSED, _OFF})
"""Statuses of the rules the user switches on and off; an `error` rule is listed too
(`storage.repos.rules.SHOWN`), but can only be deleted."""

FIRES: frozenset[RuleStatus] = frozenset({_ON})
"""Only these are scanned by the tick."""


def can_transition(current: str, new: str) -> bool:
    """Whether a rule may go from `current` to `new`.

    Raises:
        ValueError: either is not a rule status.
    """
    return RuleStatus(new) in TRANSITIONS[RuleStatus(current)]
