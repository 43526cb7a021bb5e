"""The user's own channels: bind and unbind receivers, choose the roads, and move the
jobs already made, all in the caller's transaction. The conversation (`设置 渠道`,
`handlers/channels.py`) reads the command and chooses the reply; what changes is here.

Defaults: the WeCom app is the primary and there is no fallback. Binding a receiver
while no fallback is set makes it the fallback (the reply says so). Making a channel
primary hands the old primary the fallback role when there was none (or when the new
primary was the fallback: they swap), so a change never silently loses the road the
user had. Unbinding the primary brings reminders back to the WeCom app.

Jobs already made (routing looks a few minutes ahead; a fallback waits in
`retry_wait`) follow the change in the same transaction (`_move_waiting`): unbinding
a channel points every waiting job on it at the user's primary, so nothing more goes
to a receiver the user took away; a change of primary moves the waiting jobs not
tried yet (a resend after an uncertain try stays on its road, for its duplicate
check); a replaced receiver (换绑) takes every waiting job on its channel, since a
WxPusher job carries the UID itself. Card updates and admin alerts never move.

A Server酱 SendKey is sealed (`storage.secret_box`) before it is stored. Routing and
the fallback itself are the scheduler's (`scheduler.core.fallback`,
`scheduler.routing`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection
from dataclasses import dataclass

from scheduler.core.fallback import (
    NOT_ROUTED,
    SERVERCHAN_USER,
    WECOM_APP,
    Route,
    primary_route,
    route_of,
)
from storage.database import Session
from storage.records import Receiver, UserRecord
from storage.repos import job_claims, user_channels
from storage.secret_box import KeyRing, Unreadable, open_secret, seal_secret
from storage.vocabulary import ChannelRole, RuleKind

__all__ = [
    "Bound",
    "bind",
    "key_opens",
    "primary_of",
    "role_of",
    "set_fallback",
    "set_primary",
    "unbind",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class Bound:
    """What a bind did: the user's primary after it, whether the new receiver took
    the fallback role, and whether it replaced one already bound (换绑)."""

    primary: str
    became_fallback: bool
    replaced: bool


def role_of(found: list[Receiver], role: str) -> str | None:
    """The channel holding `role` among the user's receivers; None: nobody."""
    return next((r.channel for r in found if r.role == role), None)


def primary_of(found: list[Receiver]) -> str:
    """The user's primary channel: the WeCom app unless they chose another."""
    return role_of(found, ChannelRole.PRIMARY) or WECOM_APP


def key_opens(keys: KeyRing, user_id: int, receiver: Receiver) -> bool:
    """Whether a bound Server酱 SendKey still opens with `keys` (a data key removed
    before `keeper rekey` moved it makes it unreadable until the user binds again)."""
    try:
        open_secret(keys, receiver.receiver, user_id=user_id, channel=SERVERCHAN_USER)
    except Unreadable:
        return False
    return True


async def bind(
    session: Session,
    user: UserRecord,
    channel: str,
    value: str,
    *,
    hint: str,
    keys: KeyRing,
    now: dt.datetime,
) -> Bound:
    """Bind (or replace) the user's receiver `value` on `channel`, sealed under the
    current data key when it is a SendKey; it takes the fallback role when nobody has
    it and it is not the primary. A replaced receiver takes every waiting job on its
    channel.

    Raises:
        secret_box.NoDataKey: a SendKey, and KEEPER_DATA_KEY is not set (nothing written;
            the handler answers before it gets here).
    """
    stored = value
    if channel == SERVERCHAN_USER:
        stored = seal_secret(keys, value, user_id=user.id, channel=SERVERCHAN_USER)
    new = await user_channels.bind(session, user.id, channel, receiver=stored, hint=hint, now=now)
    if not new:  # 换绑: a WxPusher job carries the UID itself; all follow the new one
        route = route_of(user.id, channel, stored)
        await _move_to(session, user.id, channel, route, untried_only=False, now=now)
    found = await user_channels.receivers(session, user.id)
    takes_fallback = role_of(found, ChannelRole.FALLBACK) is None and primary_of(found) != channel
    if takes_fallback:
        await user_channels.set_role(session, user.id, channel, ChannelRole.FALLBACK, now=now)
    return Bound(primary=primary_of(found), became_fallback=takes_fallback, replaced=not new)


async def unbind(
    session: Session,
    user: UserRecord,
    channel: str,
    *,
    configured: Collection[str],
    now: dt.datetime,
) -> Receiver | None:
    """Unbind the user's receiver on `channel` and point its waiting jobs at the
    primary; the receiver it was (None: nothing was bound there)."""
    gone = await user_channels.unbind(session, user.id, channel)
    if gone is None:
        return None
    if gone.role == ChannelRole.PRIMARY:  # back to the WeCom app, which cannot also be the fallback
        found = await user_channels.receivers(session, user.id)
        if role_of(found, ChannelRole.FALLBACK) == WECOM_APP:
            await user_channels.set_role(session, user.id, None, ChannelRole.FALLBACK, now=now)
    await _move_waiting(session, user, channel, configured, untried_only=False, now=now)
    return gone


async def set_primary(
    session: Session,
    user: UserRecord,
    channel: str,
    *,
    configured: Collection[str],
    now: dt.datetime,
) -> str:
    """Make `channel` (not the primary now) the user's primary; the old primary
    becomes the fallback when there was none or when `channel` was it. Waiting jobs
    not tried yet follow. The fallback after the change."""
    found = await user_channels.receivers(session, user.id)
    old, fallback = primary_of(found), role_of(found, ChannelRole.FALLBACK)
    if fallback is None or fallback == channel:  # the old road becomes the fallback
        fallback = old
    await user_channels.set_role(session, user.id, None, ChannelRole.FALLBACK, now=now)
    primary = None if channel == WECOM_APP else channel
    await user_channels.set_role(session, user.id, primary, ChannelRole.PRIMARY, now=now)
    await user_channels.set_role(session, user.id, fallback, ChannelRole.FALLBACK, now=now)
    await _move_waiting(session, user, old, configured, untried_only=True, now=now)
    return fallback


async def set_fallback(
    session: Session, user_id: int, channel: str | None, *, now: dt.datetime
) -> None:
    """Give the fallback role to `channel` (not the primary); None: no fallback."""
    await user_channels.set_role(session, user_id, channel, ChannelRole.FALLBACK, now=now)


async def _move_waiting(
    session: Session,
    user: UserRecord,
    from_channel: str,
    configured: Collection[str],
    *,
    untried_only: bool,
    now: dt.datetime,
) -> None:
    """Point the user's waiting jobs on `from_channel` at their primary as it is now,
    by the rule that routes new jobs (`fallback.primary_route`: a primary keeper
    cannot use here means the WeCom app; see the module note)."""
    found = await user_channels.receivers(session, user.id)
    chosen = next(
        (r for r in found if r.role == ChannelRole.PRIMARY and r.channel != WECOM_APP), None
    )
    route = primary_route(
        kind=RuleKind.CUSTOM,  # any reminder that follows the user (the rest are kept)
        made=Route(channel=WECOM_APP, recipient=user.wecom_user_id),
        primary=None if chosen is None else route_of(user.id, chosen.channel, chosen.receiver),
        configured=configured,
    )
    if route.channel != from_channel:
        await _move_to(session, user.id, from_channel, route, untried_only=untried_only, now=now)


async def _move_to(
    session: Session,
    user_id: int,
    from_channel: str,
    route: Route,
    *,
    untried_only: bool,
    now: dt.datetime,
) -> None:
    await job_claims.move_waiting(
        session,
        user_id,
        from_channel=from_channel,
        channel=route.channel,
        recipient=route.recipient,
        keep_kinds=NOT_ROUTED,
        untried_only=untried_only,
        now=now,
    )
