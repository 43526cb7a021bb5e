"""The vocabulary: every status and kind keeper stores, each an enum, in one module.

A word that is written to a column, or that one layer hands another to say what
something is or how it ended, has its one home here, at the bottom of the layers,
and everyone else imports it (`tests/unit/test_vocabulary.py` fails on a status or
kind written out as a string elsewhere). The enums are `StrEnum`s: a member *is* its
string, so the database and JSON hold the same values as before and no migration was
needed.

What each word means in motion lives with its machine, named on each class: which
job statuses may follow which (`scheduler.job_state`), a rule's life
(`scheduler.rule_state`), the water plan's (`scheduler.water_plan`), an incident's
(`scheduler.incidents`), and what each rule kind promises (`scheduler.rule_kinds`).
Words a pure machine uses only inside itself (the water plan's events, an incident's
derived state) stay with that machine: nothing stores them.
"""

from __future__ import annotations

from enum import StrEnum


class RuleKind(StrEnum):
    """What a reminder rule is: `reminder_rules.kind`, and a job's `payload_kind`.

    Every per-kind fact (policy, priority, quiet time, whether a miss is told ...) is
    one row in `scheduler.core.rule_kinds.ROWS`; the kind sets storage's own queries
    filter by follow it below.
    """

    WATER = "water"
    DIGEST_MORNING = "digest_morning"
    DIGEST_EVENING = "digest_evening"
    EVENT_REMINDER = "event_reminder"
    TASK_DUE = "task_due"
    CUSTOM = "custom"
    CARD_UPDATE = "card_update"
    WEEKLY_REVIEW = "weekly_review"
    ADMIN_ALERT = "admin_alert"
    NAG = "nag"
    CHANNEL_TEST = "channel_test"


# The kind sets storage's SQL filters by. Storage is the bottom layer and cannot read
# `scheduler.core.rule_kinds.ROWS`, so they are spelled out here, and
# tests/unit/test_rule_kind_rows.py holds each equal to what the rows say.

UNTOLD_EXPIRED: tuple[RuleKind, ...] = (
    RuleKind.WATER,
    RuleKind.DIGEST_MORNING,
    RuleKind.DIGEST_EVENING,
    RuleKind.CARD_UPDATE,
    RuleKind.WEEKLY_REVIEW,
    RuleKind.ADMIN_ALERT,
    RuleKind.NAG,
    RuleKind.CHANNEL_TEST,
)
"""Kinds whose expiry the user is not told about (rows' `told_expired`): a late water
reminder just moves the plan, a card update is not a reminder, a digest may well have
had nothing to say (its content is one 「今天」 away), the same for the weekly review
(「周报」), and an admin alert is the admin's, not a reminder (its incident stays in
管理 状态); a nag's expired repeat is covered by its next one (`scheduler.core.nag`),
unless none of its messages ever went out (`sent_or_missed.missed_since` tells that
nag once); a channel test's device check shows it expired."""

UNTOLD_FAILED: tuple[RuleKind, ...] = (
    RuleKind.WATER,
    RuleKind.CARD_UPDATE,
    RuleKind.ADMIN_ALERT,
    RuleKind.CHANNEL_TEST,
)
"""Kinds whose failed or unknown send the user is not told about (rows' `told_failed`):
water has its own notice (the plan pauses and says why), a card update is not a
reminder, an admin alert's failure shows in 管理 状态, and a channel test's device
check never turns confirmed. A digest that failed did have something to say, so it
is told."""

NEVER_EARLY: tuple[RuleKind, ...] = (RuleKind.NAG,)
"""Kinds whose jobs are never claimed early as another job's companion (rows'
`early_companion`): a nag's repeat leaving with the reminder before it would be two
repeats in one message."""

RUNS_OUT: tuple[RuleKind, ...] = (
    RuleKind.EVENT_REMINDER,
    RuleKind.TASK_DUE,
    RuleKind.CUSTOM,
    RuleKind.NAG,
)
"""Kinds whose rules can run out of occurrences and are then retired (rows'
`runs_out`; water waits for the plan instead)."""

UNBUDGETED: tuple[RuleKind, ...] = (RuleKind.CARD_UPDATE,)
"""Kinds whose sends do not count toward a channel's hourly budget (rows'
`budgeted`): a card update is not a message."""


class RuleStatus(StrEnum):
    """A reminder rule's status (`reminder_rules.status`); its life and what each
    status means is `scheduler.rule_state`."""

    ACTIVE = "active"
    PAUSED = "paused"
    OFF = "off"
    DONE = "done"
    DELETED = "deleted"
    INTERNAL = "internal"
    ERROR = "error"


class JobStatus(StrEnum):
    """A notification job's status (`notification_jobs.status`); which may follow
    which is `scheduler.job_state.TRANSITIONS`."""

    PENDING = "pending"
    PROCESSING = "processing"
    ACCEPTED = "accepted"
    RETRY_WAIT = "retry_wait"
    FAILED = "failed"
    UNKNOWN = "unknown"
    SUPPRESSED = "suppressed"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


CLAIMABLE: tuple[JobStatus, ...] = (JobStatus.PENDING, JobStatus.RETRY_WAIT)
"""The statuses of a job still waiting to be sent: a claim takes only these."""


class DeliveryPolicy(StrEnum):
    """What an uncertain send means; data on the rule and its jobs, shown to the admin.

    `at_most_once` (water, digests): never risk a duplicate; an uncertain send stays
    `unknown`. `at_least_once` (events, reminders marked important): never risk a
    loss; an uncertain send is sent again, with WeCom's `enable_duplicate_check` so the
    platform drops an exact repeat (`scheduler.job_state.after_unknown`).
    """

    AT_MOST_ONCE = "at_most_once"
    AT_LEAST_ONCE = "at_least_once"


class Priority(StrEnum):
    """How late a due job may still go out after downtime
    (`scheduler.job_state.CATCH_UP_WINDOWS`)."""

    HIGH = "high"
    NORMAL = "normal"
    LOW = "low"


class AttemptOutcome(StrEnum):
    """What one channel call came to (`delivery_attempts.outcome`).

    accepted: the provider took it (not "delivered": there is no receipt).
    failed: it was not sent and will not be by retrying (see the error class).
    unknown: it may or may not have been sent; the rule's delivery policy decides.
    retry: it was not sent; try again later (after `retry_after` or a backoff).
    """

    ACCEPTED = "accepted"
    FAILED = "failed"
    UNKNOWN = "unknown"
    RETRY = "retry"


class ErrorClass(StrEnum):
    """Why a channel call did not succeed (`delivery_attempts.error_class`).

    none: accepted. transient: retry later. config: the channel is misconfigured
    (credentials, trusted IP, permissions): fail, hold the channel, tell the admins.
    permanent: this recipient or this message can never succeed. uncertain: we cannot
    know whether the provider delivered it.
    """

    NONE = "none"
    TRANSIENT = "transient"
    CONFIG = "config"
    PERMANENT = "permanent"
    UNCERTAIN = "uncertain"


class Evidence(StrEnum):
    """An admin's word on an `unknown` send (管理 对账): `delivery_attempts.settled`.

    Not to be confused with `DeliveryEvidence`, what keeper itself knows of a sent
    message."""

    RECEIVED = "received"
    MISSING = "missing"


class DeliveryEvidence(StrEnum):
    """The strongest evidence keeper has that a reminder reached the person
    (`notification_jobs.evidence`); only ever raised (`scheduler.core.evidence`).

    accepted: the provider took it, nothing more (never shown as "delivered").
    received: the person answered or clicked something about that message.
    read: the provider reported it read (no channel keeper has reports that today).
    """

    ACCEPTED = "accepted"
    RECEIVED = "received"
    READ = "read"


class EffectKind(StrEnum):
    """The record a message made (`inbound_messages.effect_kind`): what 撤销 reverses."""

    WEIGHT = "weight"
    WATER = "water"
    LEDGER = "ledger"
    JOURNAL = "journal"
    EVENT = "event"
    TASK_ADD = "task_add"
    TASK_DONE = "task_done"
    TASK_CANCEL = "task_cancel"


class MeasurementKind(StrEnum):
    """What a body measurement measures (`measurements.kind`): the weight, in kg."""

    WEIGHT = "weight"


class LedgerDirection(StrEnum):
    """Which way money went (`ledger_entries.direction`); the amount is positive."""

    EXPENSE = "expense"
    INCOME = "income"


class TaskStatus(StrEnum):
    """A task's status (`tasks.status`): open until done or cancelled."""

    OPEN = "open"
    DONE = "done"
    CANCELLED = "cancelled"


class EventStatus(StrEnum):
    """A calendar event's status (`calendar_events.status`)."""

    SCHEDULED = "scheduled"
    CANCELLED = "cancelled"


class PlanState(StrEnum):
    """A water plan's state (`water_plans.state`); its machine is
    `scheduler.water_plan`."""

    DISABLED = "disabled"
    SCHEDULED = "scheduled"
    SENDING = "sending"
    AWAITING_CHECKIN = "awaiting_checkin"
    PAUSED = "paused"


class GrantStatus(StrEnum):
    """A water grant's status (`water_grants.state`):
    `available -> reserved -> consumed | invalid`."""

    AVAILABLE = "available"
    RESERVED = "reserved"
    CONSUMED = "consumed"
    INVALID = "invalid"


class GrantResult(StrEnum):
    """A mini-program subscribe answer (`mp_grant_answers.result`), as WeChat gives it."""

    ACCEPT = "accept"
    REJECT = "reject"
    BAN = "ban"
    FILTER = "filter"


class CardKind(StrEnum):
    """What a template card is about: the word after `keeper:` in its button keys
    (`keeper:water:done`), read back when a button is clicked (`scheduler.cards`)."""

    WATER = "water"
    TASK = "task"
    NAG = "nag"


class IncidentKind(StrEnum):
    """What broke (`incidents.kind`); an incident's life is `scheduler.incidents`."""

    CHANNEL_HOLD = "channel_hold"
    SCHEDULER_STOPPED = "scheduler_stopped"
    BACKUP_OVERDUE = "backup_overdue"


class ChannelRole(StrEnum):
    """What a user's bound receiver is for (`user_channels.role`)."""

    PRIMARY = "primary"
    FALLBACK = "fallback"
    NONE = "none"


class SealKey(StrEnum):
    """Which key a sealed value names (`storage.secret_box.sealed_under`): what
    `keeper rekey` moves and `keeper doctor` counts."""

    CURRENT = "current"
    PREVIOUS = "previous"
    LEGACY = "legacy"
    UNKNOWN = "unknown"


class LinkPurpose(StrEnum):
    """What a one-time link opens (`web_links.purpose`)."""

    PAGE = "page"
    ADMIN = "admin"
    EXPORT = "export"


class LinkRefusal(StrEnum):
    """Why a one-time link was not honoured."""

    UNKNOWN = "unknown"
    USED = "used"
    EXPIRED = "expired"


class CountSubject(StrEnum):
    """What a row of pruned delivery counts counts (`delivery_day_counts.subject`)."""

    JOB = "job"
    ATTEMPT = "attempt"
