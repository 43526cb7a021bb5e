"""The user's own channels: show them, bind and unbind receivers, choose the roads.

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

A Server酱 SendKey is sealed (`services.secret_box`) before it is stored and never
repeated whole: replies carry the masked hint only. Routing and the fallback itself
are the scheduler's (`scheduler.fallback`, `scheduler.routing`).
"""

from __future__ import annotations

import datetime as dt

from handlers import channel_texts as t
from handlers.channel_commands import (
    BindReceiver,
    SetFallbackChannel,
    SetPrimaryChannel,
    ShowChannels,
    Target,
    UnbindReceiver,
)
from handlers.context import Context, Outcome
from handlers.parse.channels import mask
from handlers.router import Router
from scheduler.fallback import NOT_ROUTED, Route, primary_route, route_of
from services.secret_box import Unreadable, open_secret, seal_secret
from storage.database import Session
from storage.records import Receiver
from storage.repos import incidents, job_claims, user_channels
from storage.vocabulary import AttemptOutcome, ChannelRole, IncidentKind, RuleKind

router = Router("channels")

WECOM, WXPUSHER, SERVERCHAN = "wecom_app", "wxpusher", "serverchan_user"
HEALTH_WINDOW = dt.timedelta(days=7)


def _name(channel: str) -> str:
    return t.NAMES.get(channel, channel)


def _role_of(found: list[Receiver], role: str) -> str | None:
    return next((r.channel for r in found if r.role == role), None)


def _primary(found: list[Receiver]) -> str:
    return _role_of(found, ChannelRole.PRIMARY) or WECOM


@router.handles(ShowChannels)
async def show_channels(session: Session, ctx: Context, command: ShowChannels) -> Outcome:
    found = await user_channels.receivers(session, ctx.user.id)
    recent = await user_channels.recent_outcomes(session, ctx.user.id, ctx.now - HEALTH_WINDOW)
    holds = [i for i in await incidents.open_all(session) if i.kind == IncidentKind.CHANNEL_HOLD]
    held = {i.subject for i in holds}
    told = {i.subject for i in holds if i.alerted_at is not None}
    primary, fallback = _primary(found), _role_of(found, ChannelRole.FALLBACK)
    lines = [t.SHOW_HEAD]
    bound = {r.channel: r for r in found if r.channel != WECOM}
    for channel in (WECOM, *sorted(bound)):
        role = (
            ChannelRole.PRIMARY
            if channel == primary
            else ChannelRole.FALLBACK
            if channel == fallback
            else ChannelRole.NONE
        )
        hint = bound[channel].hint if channel in bound else ""
        state = health(
            configured=channel in ctx.channels_on,
            held=channel in held,
            unreadable=channel == SERVERCHAN and not _opens(ctx, bound[channel]),
            recent=recent.get(channel, []),
        )
        if state == "held" and channel in told:  # say the admins know only when they do
            state = "held_told"
        lines.append(t.show_line(_name(channel), hint, role, state))
    if fallback is None:
        lines.append(t.NO_FALLBACK)
    lines.append(t.SHOW_FOOT)
    return Outcome(reply="\n".join(lines))


def health(*, configured: bool, held: bool, unreadable: bool, recent: list[str]) -> str:
    """One channel's health word (`channel_texts.HEALTH_WORDS`): what stops it first
    (not configured, unreadable key, on hold), else its latest attempt's outcome."""
    if not configured:
        return "off"
    if unreadable:
        return "unreadable"
    if held:
        return "held"
    if not recent:
        return "idle"
    latest = recent[0]
    if latest == AttemptOutcome.ACCEPTED:
        return "ok"
    return "failed" if latest.startswith("failed") else latest


def _opens(ctx: Context, receiver: Receiver) -> bool:
    try:
        open_secret(ctx.channel_key, receiver.receiver, user_id=ctx.user.id, channel=SERVERCHAN)
    except Unreadable:
        return False
    return True


@router.handles(BindReceiver)
async def bind_receiver(session: Session, ctx: Context, command: BindReceiver) -> Outcome:
    if command.channel not in ctx.channels_on:
        return Outcome(reply=t.WXPUSHER_OFF)
    stored = command.value
    if command.channel == SERVERCHAN:
        stored = seal_secret(
            ctx.channel_key, command.value, user_id=ctx.user.id, channel=SERVERCHAN
        )
    hint = mask(command.value)
    new = await user_channels.bind(
        session, ctx.user.id, command.channel, receiver=stored, hint=hint, now=ctx.now
    )
    if not new:  # 换绑: a WxPusher job carries the UID itself; all follow the new one
        route = route_of(ctx.user.id, command.channel, stored)
        await job_claims.move_waiting(
            session,
            ctx.user.id,
            from_channel=command.channel,
            channel=route.channel,
            recipient=route.recipient,
            keep_kinds=NOT_ROUTED,
            untried_only=False,
            now=ctx.now,
        )
    found = await user_channels.receivers(session, ctx.user.id)
    takes_fallback = (
        _role_of(found, ChannelRole.FALLBACK) is None and _primary(found) != command.channel
    )
    if takes_fallback:
        await user_channels.set_role(
            session, ctx.user.id, command.channel, ChannelRole.FALLBACK, now=ctx.now
        )
    reply = t.bound(
        _name(command.channel),
        hint,
        primary=_name(_primary(found)),
        became_fallback=takes_fallback,
        replaced=not new,
    )
    return Outcome(reply=reply)


@router.handles(UnbindReceiver)
async def unbind_receiver(session: Session, ctx: Context, command: UnbindReceiver) -> Outcome:
    gone = await user_channels.unbind(session, ctx.user.id, command.channel)
    if gone is None:
        return Outcome(reply=t.NOTHING_TO_UNBIND.format(name=_name(command.channel)))
    if gone.role == ChannelRole.PRIMARY:  # back to the WeCom app, which cannot also be the fallback
        found = await user_channels.receivers(session, ctx.user.id)
        if _role_of(found, ChannelRole.FALLBACK) == WECOM:
            await user_channels.set_role(
                session, ctx.user.id, None, ChannelRole.FALLBACK, now=ctx.now
            )
    await _move_waiting(session, ctx, command.channel, untried_only=False)
    return Outcome(reply=t.unbound(_name(command.channel), gone.role))


async def _move_waiting(
    session: Session, ctx: Context, from_channel: str, *, untried_only: bool
) -> None:
    """Point the user's waiting jobs on `from_channel` at their primary as it is now,
    by the rule that routes new jobs (`fallback.primary_route`: a primary keeper
    cannot use here means the WeCom app; see the module note)."""
    found = await user_channels.receivers(session, ctx.user.id)
    chosen = next((r for r in found if r.role == ChannelRole.PRIMARY and r.channel != WECOM), None)
    route = primary_route(
        kind=RuleKind.CUSTOM,  # any reminder that follows the user (the rest are kept)
        made=Route(channel=WECOM, recipient=ctx.user.wecom_user_id),
        primary=None if chosen is None else route_of(ctx.user.id, chosen.channel, chosen.receiver),
        configured=ctx.channels_on,
    )
    if route.channel == from_channel:
        return
    await job_claims.move_waiting(
        session,
        ctx.user.id,
        from_channel=from_channel,
        channel=route.channel,
        recipient=route.recipient,
        keep_kinds=NOT_ROUTED,
        untried_only=untried_only,
        now=ctx.now,
    )


def _resolve(ctx: Context, target: Target, found: list[Receiver]) -> str | None:
    """The channel a target means for this user; None: "微信" with nothing bound.
    "微信" prefers a bound channel keeper can use (WxPusher first)."""
    if target != "wechat":
        return target
    bound = [c for c in (WXPUSHER, SERVERCHAN) if c in {r.channel for r in found}]
    return next((c for c in bound if c in ctx.channels_on), bound[0] if bound else None)


def _pick(ctx: Context, target: Target, found: list[Receiver]) -> str | Outcome:
    """The channel `target` means if the user may choose it now, else the refusal."""
    channel = _resolve(ctx, target, found)
    if channel is None or (channel != WECOM and channel not in {r.channel for r in found}):
        return Outcome(reply=t.NEED_WECHAT)
    if channel not in ctx.channels_on:
        return Outcome(reply=t.NOT_USABLE.format(name=_name(channel), why=t.HEALTH_WORDS["off"]))
    return channel


@router.handles(SetPrimaryChannel)
async def set_primary(session: Session, ctx: Context, command: SetPrimaryChannel) -> Outcome:
    found = await user_channels.receivers(session, ctx.user.id)
    channel = _pick(ctx, command.target, found)
    if isinstance(channel, Outcome):
        return channel
    old, fallback = _primary(found), _role_of(found, ChannelRole.FALLBACK)
    if channel == old:
        return Outcome(reply=t.ALREADY_PRIMARY.format(name=_name(channel)))
    if fallback is None or fallback == channel:  # the old road becomes the fallback
        fallback = old
    await user_channels.set_role(session, ctx.user.id, None, ChannelRole.FALLBACK, now=ctx.now)
    await user_channels.set_role(
        session,
        ctx.user.id,
        None if channel == WECOM else channel,
        ChannelRole.PRIMARY,
        now=ctx.now,
    )
    await user_channels.set_role(session, ctx.user.id, fallback, ChannelRole.FALLBACK, now=ctx.now)
    await _move_waiting(session, ctx, old, untried_only=True)
    return Outcome(reply=t.primary_set(_name(channel), _name(fallback)))


@router.handles(SetFallbackChannel)
async def set_fallback(session: Session, ctx: Context, command: SetFallbackChannel) -> Outcome:
    if command.target is None:
        await user_channels.set_role(session, ctx.user.id, None, ChannelRole.FALLBACK, now=ctx.now)
        return Outcome(reply=t.fallback_set(None))
    found = await user_channels.receivers(session, ctx.user.id)
    channel = _pick(ctx, command.target, found)
    if isinstance(channel, Outcome):
        return channel
    if channel == _primary(found):
        return Outcome(reply=t.SAME_AS_PRIMARY.format(name=_name(channel)))
    await user_channels.set_role(session, ctx.user.id, channel, ChannelRole.FALLBACK, now=ctx.now)
    return Outcome(reply=t.fallback_set(_name(channel)))
