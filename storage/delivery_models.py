"""Tables of the delivery pipeline: rules -> jobs -> attempts, the water plan, tokens.

Same conventions as `storage.models` (UTC instants, binary collation, Core handles
at the bottom). The states stored here are the ones the pure state machines in
`scheduler/` define; the database only keeps them.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from storage.models import CACHE, KEY_LENGTH, TABLE_OPTIONS, Base, UTCDateTime, _table, _user_fk


class ReminderRule(Base):
    """Something that fires: water, a digest, an event or task reminder, a custom one.

    `next_fire_at` is the only thing the tick scans (indexed with `status`), so a tick
    costs O(due rules). `policy` says what an uncertain send becomes, as data the
    admin can see: `at_most_once` (never resent) or `at_least_once` (resent, with the
    provider's duplicate check).
    """

    __tablename__ = "reminder_rules"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = _user_fk()
    kind: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))  # active | paused | disabled
    policy: Mapped[str] = mapped_column(String(16))  # at_most_once | at_least_once
    priority: Mapped[str] = mapped_column(String(8))  # high | normal | low
    channel: Mapped[str] = mapped_column(String(32))
    next_fire_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    spec: Mapped[str] = mapped_column(Text, default="")  # the schedule, per kind
    # The user's short number for the rule while it is listed (删除 提醒 3).
    number: Mapped[int | None] = mapped_column(Integer)
    # The task or calendar event an event_reminder / task_due rule belongs to.
    ref_id: Mapped[int | None] = mapped_column(Integer)
    # What the reminder says (a custom reminder's words); never journal text or amounts.
    label: Mapped[str] = mapped_column(String(200), default="")
    # Why the tick set the rule aside (status `error`), for 管理 状态.
    error_note: Mapped[str] = mapped_column(String(200), default="", server_default="")
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())

    __table_args__ = (
        Index("ix_reminder_rules_due", "status", "next_fire_at"),
        Index("ix_reminder_rules_user_kind", "user_id", "kind"),
        Index("ix_reminder_rules_ref", "kind", "ref_id"),
        TABLE_OPTIONS,
    )


class WaterPlan(Base):
    """One user's water reminders: the state machine of `scheduler.core.water_plan`."""

    __tablename__ = "water_plans"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), unique=True, nullable=False
    )
    rule_id: Mapped[int] = mapped_column(ForeignKey("reminder_rules.id", ondelete="CASCADE"))
    state: Mapped[str] = mapped_column(String(24))
    # A check-in that came while a reminder was being sent, replayed when it settles.
    parked_request_key: Mapped[str | None] = mapped_column(String(KEY_LENGTH))
    parked_next_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    # Why the plan paused itself (failed / unknown), until the user has been told.
    pause_notice: Mapped[str | None] = mapped_column(String(16))
    updated_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())

    __table_args__ = (TABLE_OPTIONS,)


class WaterGrant(Base):
    """Permission for one reminder, created by one check-in (its message key)."""

    __tablename__ = "water_grants"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    plan_id: Mapped[int] = mapped_column(ForeignKey("water_plans.id", ondelete="CASCADE"))
    request_key: Mapped[str] = mapped_column(String(KEY_LENGTH), unique=True)
    state: Mapped[str] = mapped_column(String(16))  # available | reserved | consumed | invalid
    job_id: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_water_grants_plan_state", "plan_id", "state"), TABLE_OPTIONS)


class NotificationJob(Base):
    """One occurrence of a rule for one user: the unit that is claimed and sent.

    The unique `(user_id, rule_id, scheduled_slot_utc)` makes materialising an
    occurrence idempotent: three ticks racing for the same slot make one job.
    """

    __tablename__ = "notification_jobs"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = _user_fk()
    rule_id: Mapped[int] = mapped_column(ForeignKey("reminder_rules.id", ondelete="CASCADE"))
    scheduled_slot_utc: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    status: Mapped[str] = mapped_column(String(16))
    policy: Mapped[str] = mapped_column(String(16))
    priority: Mapped[str] = mapped_column(String(8))
    channel: Mapped[str] = mapped_column(String(32))
    recipient: Mapped[str] = mapped_column(String(64))
    payload_kind: Mapped[str] = mapped_column(String(32))
    payload_ref: Mapped[int | None] = mapped_column(Integer)
    # Small per-job data a kind needs at send time (a card update's response code).
    payload: Mapped[str] = mapped_column(String(2048), default="")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    lease_owner: Mapped[str | None] = mapped_column(String(64))
    lease_expires_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    # Set just before the channel call (a wave at a time): a lost lease without it
    # means the send never began, so the job is released, not written off `unknown`.
    send_started_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    finished_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    outcome_note: Mapped[str] = mapped_column(String(200), default="")
    # The strongest evidence that the message reached the person (`DeliveryEvidence`):
    # `accepted` when the provider took it, raised to `received` when they answered
    # it, and when; NULL while nothing went out. Only ever raised.
    evidence: Mapped[str | None] = mapped_column(String(16))
    evidence_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())

    __table_args__ = (
        UniqueConstraint(
            "user_id", "rule_id", "scheduled_slot_utc", name="uq_notification_jobs_slot"
        ),
        Index("ix_notification_jobs_claim", "status", "next_attempt_at"),
        Index("ix_notification_jobs_lease", "status", "lease_expires_at"),
        Index("ix_notification_jobs_recipient", "recipient", "channel"),
        TABLE_OPTIONS,
    )


class DeliveryAttempt(Base):
    """One call to a channel for one job: what was tried and what came back."""

    __tablename__ = "delivery_attempts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    job_id: Mapped[int] = mapped_column(ForeignKey("notification_jobs.id", ondelete="CASCADE"))
    attempt_no: Mapped[int] = mapped_column(Integer)
    channel: Mapped[str] = mapped_column(String(32))
    started_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    duration_ms: Mapped[int] = mapped_column(Integer)
    outcome: Mapped[str] = mapped_column(String(16))  # accepted | failed | unknown | retry
    error_class: Mapped[str] = mapped_column(String(16))
    provider_code: Mapped[int | None] = mapped_column(Integer)
    provider_message_id: Mapped[str | None] = mapped_column(String(128))
    error: Mapped[str] = mapped_column(String(500), default="")
    settled: Mapped[str | None] = mapped_column(String(16))  # 管理 对账: received | missing

    __table_args__ = (Index("ix_delivery_attempts_job", "job_id", "attempt_no"), TABLE_OPTIONS)


class WeComToken(Base):
    """The cached access token per (CorpID, AgentID), and the mini-program's (`mp:`
    AppID, 0); a secret, never logged, and never in a backup (a `CACHE`: the first
    send after a restore fetches a new one)."""

    __tablename__ = "wecom_tokens"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    corp_id: Mapped[str] = mapped_column(String(64))
    agent_id: Mapped[int] = mapped_column(Integer)
    access_token: Mapped[str] = mapped_column(String(512), default="")
    expires_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    refreshed_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())

    __table_args__ = (
        UniqueConstraint("corp_id", "agent_id", name="uq_wecom_tokens_app"),
        {**TABLE_OPTIONS, "info": {CACHE: True}},
    )


class WeComApiBudget(Base):
    """Calls to one WeCom API counted per bucket of a window (minute, hour, day), so
    every worker spends one enterprise budget (`scheduler.channels.enterprise_budget`).
    Old buckets are deleted as new ones are made."""

    __tablename__ = "wecom_api_budget"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    api: Mapped[str] = mapped_column(String(64))
    span: Mapped[str] = mapped_column(String(8))  # the window: minute | hour | day
    bucket_start: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    used: Mapped[int] = mapped_column(Integer, default=0)

    __table_args__ = (
        UniqueConstraint("api", "span", "bucket_start", name="uq_wecom_api_budget_bucket"),
        TABLE_OPTIONS,
    )


class SchedulerTick(Base):
    """When each scheduler process last completed a tick (for /healthz)."""

    __tablename__ = "scheduler_ticks"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    worker: Mapped[str] = mapped_column(String(64), unique=True)
    last_tick_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    last_duration_ms: Mapped[int] = mapped_column(Integer)

    __table_args__ = (TABLE_OPTIONS,)


class SystemFlag(Base):
    """A switch for the whole installation, e.g. 管理 暂停 全部 (`sends_paused`)."""

    __tablename__ = "system_flags"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    value: Mapped[str] = mapped_column(String(64))
    updated_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())

    __table_args__ = (TABLE_OPTIONS,)


class Incident(Base):
    """Something broken that the admins are told about once (`scheduler.core.incidents`):
    a channel on hold, the scheduler stopped, a backup overdue.

    `open_key` ("kind:subject") is set while the incident is unresolved and cleared
    when it resolves; its unique constraint lets several workers "open" the same
    incident at once and get one row (NULLs never collide, so history is kept).
    """

    __tablename__ = "incidents"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    subject: Mapped[str] = mapped_column(String(64))
    open_key: Mapped[str | None] = mapped_column(String(100), unique=True)
    opened_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    last_seen_at: Mapped[dt.datetime] = mapped_column(UTCDateTime())
    resolved_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    detail: Mapped[str] = mapped_column(String(500), default="")
    alerted_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())
    recovery_alerted_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime())

    __table_args__ = (Index("ix_incidents_kind_opened", "kind", "opened_at"), TABLE_OPTIONS)


RULES = _table(ReminderRule)
FLAGS = _table(SystemFlag)
WATER_PLANS = _table(WaterPlan)
WATER_GRANTS = _table(WaterGrant)
JOBS = _table(NotificationJob)
ATTEMPTS = _table(DeliveryAttempt)
TOKENS = _table(WeComToken)
TICKS = _table(SchedulerTick)
API_BUDGET = _table(WeComApiBudget)
INCIDENTS = _table(Incident)
