"""What the daily retention run may delete, and when it runs. Pure.

Data that only serves a while (DESIGN §5) is pruned after a stated period, each a
setting (`bot.settings`, KEEPER_RETAIN_*_DAYS):

- inbound messages and their stored replies (`messages`, 30 days);
- finished notification jobs with their delivery attempts (`jobs`, 180 days), whose
  counts are kept per day first (`storage.repos.day_counts`), so every total the admin
  reads stays what it was;
- used or expired one-time links and mini-program link codes (`links`, 7 days).

The decisions below are the whole policy: the storage layer only pre-selects rows that
might qualify (a superset, cheap to find), and the run deletes exactly those these
functions accept (`scheduler.retention_job`). Decisions where the issue was silent:

- A job is finished when its status is final (`job_state.TERMINAL`), and `unknown`
  counts as finished only once an admin settled it (管理 对账): until then it is an
  open question and stays, however old. Its age is taken from `finished_at` (set by
  every final transition), or `updated_at` for a row that has none.
- The jobs of a user who has not yet been told about missed reminders (their
  `missed_since` is set: they have not written since) stay when they ended at or after
  `missed_since - UNTOLD_MARGIN`: the next message lists them (`sent_or_missed.missed_since`) and
  looks a nag's run up for a message already seen; a run spans at most 20 repeats 2 h
  apart, restarted after at most 7 days of quiet time, so 9 days cover it.
- Nothing breaks when an inbound message goes: no table has a foreign key to it. The
  records a message made carry its dedup key as their own `source_key` (unique, so a
  copy of the message still cannot record twice), a water grant carries it as its
  `request_key`, and a pending guess or suggestion (`是` / `好`) lives on the user's
  row for ten minutes or a day. What a pruned message takes with it is only its
  stored reply and `撤销` reaching back to it.
- A link or code is over when used or expired, whichever came first; it is pruned
  once that is older than the period (one never used expires ten minutes after it was
  made). Opened after that, a link is refused as unknown instead of as used.
- Minimums (below them a setting is refused): messages 7 days: `撤销` walks back
  through the stored messages, and a retried callback must find its MsgId (WeCom
  retries within seconds; the callback refuses any request signed more than
  KEEPER_CALLBACK_WINDOW_SECONDS ago, at most one day, before the store is read).
  Jobs 14 days: the longest window anything reads finished jobs or attempts in is 7
  days (提醒's failures, 设置 渠道's health, the admin page's week), and a nag's
  current run (under 9 days). Links 1 day: they live ten minutes.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from enum import StrEnum

from scheduler.core.job_state import TERMINAL
from storage.vocabulary import JobStatus


class Family(StrEnum):
    """What is kept for one period: one setting each."""

    MESSAGES = "messages"
    JOBS = "jobs"
    LINKS = "links"


DEFAULT_DAYS: dict[Family, int] = {Family.MESSAGES: 30, Family.JOBS: 180, Family.LINKS: 7}
MINIMUM_DAYS: dict[Family, int] = {Family.MESSAGES: 7, Family.JOBS: 14, Family.LINKS: 1}
"""Below these the data is still read (see the module docstring for each reason)."""
MAXIMUM_DAYS = 3650
"""Ten years: longer is "keep", and a typo of extra digits is caught."""

RUN_AT = dt.time(4, 30)
"""The daily run's local time (KEEPER_TIMEZONE): after the default backup at 03:30, so
the night's backup still holds what the run deletes, and before the morning's sends."""
OVERDUE_AFTER = dt.timedelta(hours=50)
"""Two daily slots missed: `keeper doctor` fails its retention line."""
UNTOLD_MARGIN = dt.timedelta(days=9)
"""How far before a user's `missed_since` their ended jobs are still kept (see above)."""
PRUNABLE_STATUSES: tuple[str, ...] = tuple(sorted(TERMINAL))
"""Job statuses that can be pruned at all (the storage layer's pre-selection)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Periods:
    """Days each family is kept (validated by the settings)."""

    messages: int = DEFAULT_DAYS[Family.MESSAGES]
    jobs: int = DEFAULT_DAYS[Family.JOBS]
    links: int = DEFAULT_DAYS[Family.LINKS]

    def days(self, family: Family) -> int:
        return int(getattr(self, family.value))


def cutoff(days: int, at: dt.datetime) -> dt.datetime:
    """The instant before which rows of a `days` period are old, as of `at` (aware).

    Raises:
        ValueError: `at` is naive, or `days` is not positive.
    """
    if at.tzinfo is None:
        raise ValueError("naive datetime; pass an aware one")
    if days < 1:
        raise ValueError("a retention period is at least one day")
    return at - dt.timedelta(days=days)


@dataclass(frozen=True, kw_only=True, slots=True)
class JobFacts:
    """What the decision needs of one notification job."""

    status: str
    finished_at: dt.datetime | None
    updated_at: dt.datetime
    settled: bool
    """An admin settled its unknown send (管理 对账): its last attempt carries the word."""
    owner_missed_since: dt.datetime | None
    """The owner's `users.missed_since`: set while they have not been told."""


def job_prunable(job: JobFacts, before: dt.datetime) -> bool:
    """Whether a notification job (with its attempts) may go at a run with this cutoff.

    Never a job still claimable, waiting, being sent, or unknown and unsettled; never
    one that ended at or after `before`; never one its owner is still to be told about.
    """
    if job.status not in TERMINAL:
        return False
    if job.status == JobStatus.UNKNOWN and not job.settled:
        return False
    ended = job.finished_at or job.updated_at
    if ended >= before:
        return False
    missed = job.owner_missed_since
    return missed is None or ended < missed - UNTOLD_MARGIN


def message_prunable(received_at: dt.datetime, before: dt.datetime) -> bool:
    """Whether an inbound message (and its stored reply) may go."""
    return received_at < before


def link_prunable(
    expires_at: dt.datetime, used_at: dt.datetime | None, before: dt.datetime
) -> bool:
    """Whether a one-time link or link code may go: over (used or expired) before `before`."""
    over = expires_at if used_at is None else min(used_at, expires_at)
    return over < before


def overdue(last_started: dt.datetime | None, now: dt.datetime) -> bool:
    """Whether the daily run has been missing for two slots. Never run is not overdue:
    a new installation runs at its first tick, and the doctor's scheduler line is the
    one that says no scheduler ticks."""
    return last_started is not None and now - last_started > OVERDUE_AFTER
