"""Where a user's reminder goes: its primary route, and the one fallback (pure).

A job is routed once, when it is materialised (`scheduler.routing`): a job made for
the WeCom app goes to the user's primary receiver instead when they chose one and
keeper has that channel configured. Card updates and admin alerts are never routed
(a card lives in WeCom; an alert has its own road). A job made earlier is moved by
the channel commands themselves (`services.channels`) when the user changes roads.

The fallback rule (issue 12): an at-least-once job that would end `failed` on its
channel leaves once more through the user's fallback, as the next attempt of the same
job. It would end failed when its send failed for good (outcome `failed`, error class
`permanent` or `config`, which includes a channel held after 60020) or when its
transient retries ran out (outcome `retry` on the last attempt): a channel down for
a quarter of an hour must not lose an important reminder either. Exactly once: never
for at-most-once jobs (water, digests: they accept a loss rather than a double),
never after an uncertain or accepted result, now or in any earlier attempt (it may
have arrived: a second road would double it; at-least-once jobs resend on their own
channel with the duplicate check), never while a transient error is still retried
where it is, never when the job already left its first channel (no fallback after a
fallback, so never a third road), never onto the channel that just failed or one
keeper has not configured, never for card updates or admin alerts (they are not the
user's reminders).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from scheduler.core import rule_kinds
from storage.vocabulary import AttemptOutcome, DeliveryPolicy, ErrorClass, JobStatus

WECOM_APP = "wecom_app"
WXPUSHER = "wxpusher"
SERVERCHAN_USER = "serverchan_user"
"""The channel name of Server酱 with the user's own SendKey (the operator's
KEEPER_SERVERCHAN_SENDKEY channel, `serverchan`, is for admin alerts)."""

FOR_GOOD = frozenset({ErrorClass.PERMANENT, ErrorClass.CONFIG})
NOT_ROUTED = rule_kinds.kinds_where("routed", False)
"""The kinds that never follow the user's channels (rows' `routed`)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Route:
    """A channel and the recipient on it, as stored on a job."""

    channel: str
    recipient: str


def route_of(user_id: int, channel: str, receiver: str) -> Route:
    """The job route of a bound receiver. A SendKey never goes on a job (its
    `recipient` column is plain text): the job names the user, and the channel reads
    and opens the key just before the send."""
    if channel == SERVERCHAN_USER:
        return Route(channel=channel, recipient=sendkey_ref(user_id))
    return Route(channel=channel, recipient=receiver)


def sendkey_ref(user_id: int) -> str:
    """The recipient a personal Server酱 job carries: a reference, not the key."""
    return f"user:{user_id}"


def user_of_ref(recipient: str) -> int | None:
    """The user id of a `sendkey_ref`; None for anything else."""
    prefix, _, rest = recipient.partition(":")
    return int(rest) if prefix == "user" and rest.isdigit() else None


def primary_route(
    *, kind: str, made: Route, primary: Route | None, configured: Collection[str]
) -> Route:
    """The route a new job takes: `made` (as its rule said) unless the user chose a
    primary that keeper can use and the job is one that follows the user."""
    if kind in NOT_ROUTED or made.channel != WECOM_APP or primary is None:
        return made
    return primary if primary.channel in configured else made


def fallback_for(
    *,
    kind: str,
    policy: str,
    outcome: str,
    error_class: str,
    ends: str,
    uncertain_before: bool,
    channel: str,
    tried: Collection[str],
    fallback: Route | None,
    configured: Collection[str],
) -> Route | None:
    """The route of the job's one fallback send, or None (see the module note).

    `ends` is the status the result would give the job (`outcomes.decide`),
    `uncertain_before` whether any earlier attempt was `unknown` or `accepted`,
    `channel` the job's current channel, `tried` every channel its attempts used
    (this one included), `configured` the channels keeper can send on.
    """
    if kind in NOT_ROUTED:
        return None  # a card update cannot leave WeCom; an alert has its own road
    if policy != DeliveryPolicy.AT_LEAST_ONCE or ends != JobStatus.FAILED or uncertain_before:
        return None  # it may have arrived: a second road could double it
    failed_for_good = outcome == AttemptOutcome.FAILED and error_class in FOR_GOOD
    # and yet it ends failed: the last transient try
    retries_spent = outcome == AttemptOutcome.RETRY
    if not (failed_for_good or retries_spent):
        return None
    if fallback is None or fallback.channel == channel or fallback.channel not in configured:
        return None
    if set(tried) - {channel}:
        return None  # the job already left its first road: never a second fallback
    return fallback
