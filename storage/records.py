"""Every record type: the plain, frozen values repositories take and hand out.

No ORM objects leak out of storage; handlers, services and the scheduler import these
from here (never from a repository module), and the pure scheduler core may import
this module and no other part of storage.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from storage.vocabulary import JobStatus


@dataclass(frozen=True, kw_only=True, slots=True)
class UserRecord:
    id: int
    wecom_user_id: str
    timezone: str
    quiet_until: dt.datetime | None = None
    cards: bool = False
    defaults_version: int = 0
    missed_since: dt.datetime | None = None
    pending_guess: str | None = None
    pending_guess_at: dt.datetime | None = None
    water_notice_owed: bool = False  # the water plan paused itself and has not said so
    water_plan_on: bool = False  # the water plan exists and is not disabled (read unlocked)


@dataclass(frozen=True, kw_only=True, slots=True)
class StoredReply:
    """What an earlier delivery of the same message was answered."""

    reply_text: str | None


@dataclass(frozen=True, kw_only=True, slots=True)
class Effect:
    """The record a message made: what `撤销` would reverse."""

    kind: str
    record_id: int


@dataclass(frozen=True, kw_only=True, slots=True)
class UndoableMessage:
    message_id: int
    kind: str
    content: str
    effect: Effect


@dataclass(frozen=True, kw_only=True, slots=True)
class TaskRecord:
    id: int
    number: int | None
    title: str
    due_date: dt.date | None
    due_time: dt.time | None
    status: str


@dataclass(frozen=True, kw_only=True, slots=True)
class EventRecord:
    id: int
    title: str
    day: dt.date
    starts_at: dt.datetime | None
    ends_at: dt.datetime | None
    status: str
    number: int | None = None
    remind_minutes_before: int | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class WeightPoint:
    value: Decimal
    occurred_at: dt.datetime


@dataclass(frozen=True, kw_only=True, slots=True)
class LedgerRow:
    direction: str
    amount: Decimal
    category: str
    occurred_at: dt.datetime


@dataclass(frozen=True, kw_only=True, slots=True)
class Prefs:
    """What the scheduler needs to know about a recipient at send time."""

    timezone: str
    quiet_until: dt.datetime | None
    cards: bool


@dataclass(frozen=True, kw_only=True, slots=True)
class Addressee:
    """A user as the scheduler addresses them: WeCom UserID and preferences."""

    user_id: int
    wecom_user_id: str
    prefs: Prefs


@dataclass(frozen=True, kw_only=True, slots=True)
class PlanRecord:
    id: int
    user_id: int
    rule_id: int
    state: str
    parked_request_key: str | None
    parked_next_at: dt.datetime | None
    pause_notice: str | None


@dataclass(frozen=True, kw_only=True, slots=True)
class Habit:
    """The user's day window and water habit, as stored on the user."""

    timezone: str
    wake_at: dt.time
    sleep_at: dt.time
    interval_minutes: int
    goal: int


@dataclass(frozen=True, kw_only=True, slots=True)
class AttemptRecord:
    job_id: int
    attempt_no: int
    channel: str
    started_at: dt.datetime
    duration_ms: int
    outcome: str
    error_class: str
    provider_code: int | None
    provider_message_id: str | None
    error: str


@dataclass(frozen=True, kw_only=True, slots=True)
class TokenRow:
    access_token: str
    expires_at: dt.datetime | None
    refreshed_at: dt.datetime | None


@dataclass(frozen=True, kw_only=True, slots=True)
class NewInbound:
    dedup_key: str
    wecom_user_id: str
    user_id: int
    kind: str
    content: str
    sent_at: dt.datetime
    received_at: dt.datetime


@dataclass(frozen=True, kw_only=True, slots=True)
class NewJob:
    user_id: int
    rule_id: int
    slot: dt.datetime
    policy: str
    priority: str
    channel: str
    recipient: str
    payload_kind: str
    payload_ref: int | None = None
    payload: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class JobRecord:
    id: int
    user_id: int
    rule_id: int
    slot: dt.datetime
    status: str
    policy: str
    priority: str
    channel: str
    recipient: str
    payload_kind: str
    payload_ref: int | None
    attempts: int
    lease_owner: str | None
    payload: str = ""
    send_started_at: dt.datetime | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class JobEnd:
    """How one claimed job ends (what `finalise` takes, for `finalise_claimed`)."""

    job: JobRecord
    status: str
    next_attempt_at: dt.datetime | None = None
    note: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class Missed:
    """A job that expired unsent: what to tell the user about it."""

    kind: str
    slot: dt.datetime
    label: str
    status: str = JobStatus.EXPIRED
    note: str = ""  # for failed / unknown: the job's outcome note ("config: 60020")


@dataclass(frozen=True, kw_only=True, slots=True)
class RuleRecord:
    id: int
    user_id: int
    kind: str
    status: str
    policy: str
    priority: str
    channel: str
    next_fire_at: dt.datetime | None
    spec: str
    number: int | None = None
    ref_id: int | None = None
    label: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class Broken:
    """A rule set aside (status `error`), for the admin."""

    rule_id: int
    kind: str
    reason: str


@dataclass(frozen=True, kw_only=True, slots=True)
class ChannelStats:
    channel: str
    accepted: int
    failed: int
    unknown: int
    retries: int
    not_sent: int
    last_success: dt.datetime | None
    consecutive_failures: int
    waiting: int
    oldest_waiting: dt.datetime | None


@dataclass(frozen=True, kw_only=True, slots=True)
class FailureCause:
    """Failed or retried attempts of one channel with one cause."""

    channel: str
    error_class: str
    provider_code: int | None
    count: int


@dataclass(frozen=True, kw_only=True, slots=True)
class BudgetRecord:
    """A monthly budget; `nudged_*`: the threshold a digest last told, and its month."""

    category: str
    amount: Decimal
    nudged_month: str | None = None
    nudged_level: int = 0


@dataclass(frozen=True, kw_only=True, slots=True)
class BackupRunRecord:
    """One scheduled backup (`backup_runs`); `finished_at` None: running or interrupted."""

    id: int
    run_day: dt.date
    started_at: dt.datetime
    finished_at: dt.datetime | None
    path: str | None
    verified: bool
    revision: str
    rows: int
    size_bytes: int
    problem: str
    claimed_by: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Receiver:
    """A receiver a user bound for their reminders (`user_channels`).

    `channel` is the scheduler's channel name (`wxpusher`, `serverchan_user`,
    `wecom_app`); `receiver` the address (a WxPusher UID), a Server酱 SendKey's
    ciphertext, or empty for the WeCom app; `hint` the masked form shown to the user;
    `role` primary, fallback or none.
    """

    channel: str
    receiver: str
    hint: str
    role: str


@dataclass(frozen=True, kw_only=True, slots=True)
class DeviceCheckRecord:
    """A channel test (`device_checks`): asked for at `sent_at`, seen on the phone at
    `confirmed_at` (None: not confirmed, `scheduler.core.evidence.check_state`)."""

    id: int
    user_id: int
    channel: str
    sent_at: dt.datetime
    confirmed_at: dt.datetime | None
