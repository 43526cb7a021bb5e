"""What each rule kind promises: one frozen row per kind (`ROWS`), read by every place
that decides something per kind.

| kind | policy | priority | catch-up | quiet time | why |
|---|---|---|---|---|---|
| water | at_most_once | low | 10 min | moved | a late glass reminder is stale; a repeat is noise |
| digest_morning, digest_evening | at_most_once | normal | 15 min | dropped | a snapshot; the next one is due anyway |
| event_reminder | at_least_once | high | 30 min | sent | an appointment must not be missed (DESIGN §6) |
| weekly_review | at_most_once | normal | 15 min | moved | a digest of the week; quiet time moves it (it is not stale an hour later) |
| task_due | at_most_once | high | 30 min | sent | may go out as a card, and a card cannot be repeated exactly (WeCom wants a new card id per send), so a resend could not be deduplicated |
| custom | at_most_once | normal | 15 min | moved | the user's own words, plain |
| custom, marked 重要 | at_least_once | high | 30 min | sent | the user said it must arrive (quiet time lets it through too) |
| card_update | at_most_once | high | 30 min | sent | greys out a clicked card: soon or never |
| admin_alert | at_least_once | high | 30 min | sent | an admin must hear that a road broke (`scheduler.core.incidents`); resent with the duplicate check |
| nag (直到完成) | at_most_once | normal | 15 min | dropped | repetition is the point: a lost repeat is covered by the next (`scheduler.core.nag`) |
| nag, marked 重要 | at_most_once | high | 30 min | sent | passes quiet time like every important reminder, yet each repeat still at most once |
| channel_test | at_most_once | high | 30 min | sent | a test the person is waiting for (`测试 渠道`); a double would say nothing, and its check expires after 30 minutes anyway |

The catch-up window follows from the priority (`job_state.CATCH_UP_WINDOWS`): the
tick expires a waiting job by the priority copied onto it. `services.rules.create`
is the one way a rule is made, and it takes policy and priority from here.

The rest of a row, and who reads it:

| fact | field | read by |
|---|---|---|
| the kind's name (提醒, 管理 状态, a default rule's label) | `label` | `services.rules.ensure_defaults`; the words live in `scheduler.core.texts.rules` |
| quiet time | `quiet`, `high_sends_in_quiet` | `scheduler.core.quiet.during_quiet` |
| merging: claimed early to leave with a job due sooner | `early_companion` | `storage.repos.job_claims.claim_companions` (via `vocabulary.NEVER_EARLY`) |
| an expiry is told on the next message | `told_expired` | `scheduler.tick`, `storage.repos.sent_or_missed` (via `vocabulary.UNTOLD_EXPIRED`) |
| a failed or unknown send is told | `told_failed` | `scheduler.delivery.tell_later`, `storage.repos.sent_or_missed` (via `vocabulary.UNTOLD_FAILED`) |
| a told miss shows its time | `missed_at_time` | `bot.conversation` (a digest's label alone) |
| follows the user's primary channel | `routed` | `scheduler.core.fallback` (`NOT_ROUTED`), `services.channels`, `scheduler.routing` |
| counts toward a channel's hourly budget | `budgeted` | `storage.repos.attempts` (via `vocabulary.UNBUDGETED`) |
| retired when it has no next time | `runs_out` | `storage.repos.rules.retire_spent` (via `vocabulary.RUNS_OUT`), the 提醒 list |
| 删除 提醒 N deletes it | `deletable` | `handlers.reminders` |
| 关闭 提醒 / 开启 提醒 switches it | `switched_by_all` | `handlers.reminders.switch_all` |
| how the tick runs it | `runs_as` | `bot.scheduling.all_kinds` |

Merging otherwise follows the job, not the kind: an at-least-once job (an important
custom reminder too) and a card update always leave alone (`scheduler.delivery`).
Storage cannot import this module (it is the bottom layer), so the kind sets its SQL
needs are spelled out in `storage.vocabulary`; tests/unit/test_rule_kind_rows.py
holds them equal to what the rows say.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Literal

from scheduler.core.job_state import CATCH_UP_WINDOWS
from scheduler.core.texts.rules import RULE_KIND_NAMES
from storage.vocabulary import DeliveryPolicy, Priority, RuleKind


@dataclass(frozen=True, kw_only=True, slots=True)
class Terms:
    """A kind's delivery policy and priority (the catch-up window follows from the
    priority: `job_state.CATCH_UP_WINDOWS`)."""

    policy: DeliveryPolicy
    priority: Priority

    @property
    def catch_up(self) -> dt.timedelta:
        """How long a waiting job of these terms may still go out late."""
        return CATCH_UP_WINDOWS[self.priority]


QuietWay = Literal["move", "suppress"]
"""What quiet time does to a job: `move` it to the end of quiet time, or `suppress` it."""

RunsAs = Literal["recurring", "one_off", "own"]
"""How the tick runs a kind: `scheduler.reminder_kinds.RecurringKind` or `OneOffKind`,
or a class of the kind's own (water, card updates, admin alerts, nags)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class KindRow:
    """Every per-kind fact of one rule kind (the module docstring says who reads which)."""

    kind: RuleKind | None
    """None: `UNLISTED` (and the template the rows are made from)."""
    terms: Terms
    important: Terms | None
    """The terms when marked 重要; None: the kind cannot be."""
    quiet: QuietWay
    high_sends_in_quiet: bool
    """Whether a high-priority job of the kind goes out during quiet time anyway (water
    and digests follow `quiet` even if a rule row were marked high)."""
    early_companion: bool
    told_expired: bool
    told_failed: bool
    missed_at_time: bool
    routed: bool
    budgeted: bool
    runs_out: bool
    deletable: bool
    switched_by_all: bool
    runs_as: RunsAs

    @property
    def label(self) -> str:
        """The kind's name people read (`scheduler.core.texts.rules`); the stored name
        for a kind that has none (a card update is not a reminder), as 管理 状态 shows it."""
        return "" if self.kind is None else RULE_KIND_NAMES.get(self.kind, self.kind)

    @property
    def catch_up(self) -> dt.timedelta:
        """The catch-up window of the kind's own terms."""
        return self.terms.catch_up


_ONCE, _SURE = DeliveryPolicy.AT_MOST_ONCE, DeliveryPolicy.AT_LEAST_ONCE

IMPORTANT = Terms(policy=_SURE, priority=Priority.HIGH)
"""A custom reminder marked 重要."""

IMPORTANT_NAG = Terms(policy=_ONCE, priority=Priority.HIGH)
"""A nag marked 重要: high priority, each repeat still at most once."""


_REMINDER = KindRow(
    kind=None,
    terms=Terms(policy=_ONCE, priority=Priority.NORMAL),
    important=None,
    quiet="move",
    high_sends_in_quiet=True,
    early_companion=True,
    told_expired=True,
    told_failed=True,
    missed_at_time=True,
    routed=True,
    budgeted=True,
    runs_out=False,
    deletable=True,
    switched_by_all=True,
    runs_as="recurring",
)
"""What most kinds share (a reminder of the user's); each row says how it differs."""

_DIGEST = replace(
    _REMINDER,
    # A snapshot of a moment: stale hours later, and it may have had nothing to say.
    quiet="suppress",
    high_sends_in_quiet=False,
    told_expired=False,
    missed_at_time=False,  # its name (晨报) says when
    deletable=False,  # switched off instead
)


def _by_kind(*rows: KindRow) -> Mapping[RuleKind, KindRow]:
    """The rows by their kind; a row without a kind, or a second row of one, is a
    mistake in the table and stops the import."""
    table: dict[RuleKind, KindRow] = {}
    for found in rows:
        if found.kind is None or found.kind in table:
            raise ValueError(f"one row per rule kind: {found.kind} again, or no kind")
        table[found.kind] = found
    return MappingProxyType(table)


ROWS: Mapping[RuleKind, KindRow] = _by_kind(
    replace(
        _REMINDER,
        kind=RuleKind.WATER,
        terms=Terms(policy=_ONCE, priority=Priority.LOW),
        high_sends_in_quiet=False,  # the plan expects its reminder eventually
        told_expired=False,  # a late one just moves the plan
        told_failed=False,  # the plan pauses and says why
        deletable=False,  # the plan is switched off instead
        switched_by_all=False,  # 关闭 提醒 pauses the plan itself
        runs_as="own",
    ),
    replace(_DIGEST, kind=RuleKind.DIGEST_MORNING),
    replace(_DIGEST, kind=RuleKind.DIGEST_EVENING),
    replace(
        _REMINDER,
        kind=RuleKind.WEEKLY_REVIEW,
        told_expired=False,  # its content is one 「周报」 away
        deletable=False,  # switched off instead
    ),
    replace(
        _REMINDER,
        kind=RuleKind.EVENT_REMINDER,
        terms=Terms(policy=_SURE, priority=Priority.HIGH),
        runs_out=True,
        runs_as="one_off",
    ),
    replace(
        _REMINDER,
        kind=RuleKind.TASK_DUE,
        terms=Terms(policy=_ONCE, priority=Priority.HIGH),
        runs_out=True,
        runs_as="one_off",
    ),
    replace(
        _REMINDER,
        kind=RuleKind.CUSTOM,
        important=IMPORTANT,
        runs_out=True,  # a schedule can end
    ),
    replace(
        _REMINDER,
        kind=RuleKind.CARD_UPDATE,  # not a reminder: a clicked card greyed out
        terms=Terms(policy=_ONCE, priority=Priority.HIGH),
        told_expired=False,
        told_failed=False,
        routed=False,  # a card lives in WeCom
        budgeted=False,  # not a message
        switched_by_all=False,
        runs_as="own",
    ),
    replace(
        _REMINDER,
        kind=RuleKind.ADMIN_ALERT,  # the admin's, not a reminder: 管理 状态 shows it
        terms=Terms(policy=_SURE, priority=Priority.HIGH),
        told_expired=False,
        told_failed=False,
        routed=False,  # an alert has its own road
        runs_as="own",
    ),
    replace(
        _REMINDER,
        kind=RuleKind.NAG,  # 直到完成 (`scheduler.core.nag`)
        important=IMPORTANT_NAG,
        # A dropped repeat is covered by the next; moved, every dropped repeat
        # would land at the end of quiet time together.
        quiet="suppress",
        early_companion=False,  # two repeats in one message otherwise
        # An expired repeat is covered by the next one, unless none of the
        # run's messages went out (`sent_or_missed.missed_since` tells that once).
        told_expired=False,
        runs_out=True,
        runs_as="own",
    ),
    replace(
        _REMINDER,
        kind=RuleKind.CHANNEL_TEST,  # `测试 渠道`: the person waits for it (`services.evidence`)
        terms=Terms(policy=_ONCE, priority=Priority.HIGH),
        told_expired=False,  # its device check shows it expired instead
        told_failed=False,  # likewise: the check never turns confirmed
        routed=False,  # it tests its own channel, never the primary or a fallback
        switched_by_all=False,  # an internal rule, never listed
        runs_as="own",
    ),
)
"""Every kind's row (see the module tables)."""

UNLISTED = _REMINDER
"""What a kind not in the table is taken for (a test's own kind): a plain reminder of
the user's, as the kind sets in `storage.vocabulary` treat every kind they do not
name."""

TERMS: Mapping[RuleKind, Terms] = MappingProxyType({k: r.terms for k, r in ROWS.items()})
"""Every kind's own terms (`ROWS[kind].terms`)."""


def row(kind: str) -> KindRow:
    """The row of `kind` as stored on a rule or a job (`UNLISTED` when it is none)."""
    try:
        return ROWS[RuleKind(kind)]
    except ValueError:
        return UNLISTED


def kinds_where(fact: str, value: object = True) -> frozenset[RuleKind]:
    """The kinds whose row has `fact` equal to `value` (for a set a query filters by)."""
    return frozenset(k for k, r in ROWS.items() if getattr(r, fact) == value)


def terms(kind: RuleKind, *, important: bool = False) -> Terms:
    """The terms of a rule of `kind`; `important` only for custom reminders and nags.

    Raises:
        ValueError: `important` for a kind that cannot be marked important.
    """
    found = ROWS[kind]
    if not important:
        return found.terms
    if found.important is None:
        raise ValueError(f"only custom reminders can be marked important, not {kind}")
    return found.important
