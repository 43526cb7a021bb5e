"""The user's own channels in the conversation: show them, bind and unbind receivers,
choose the roads (`设置 渠道`).

Each command is read here and answered here; what it changes (the roles, the sealed
SendKey, the jobs already made that follow the change) is `services.channels`, one
call per command, whose module note gives the rules. A SendKey is never repeated
whole: replies carry the masked hint only.
"""

from __future__ import annotations

import datetime as dt

import services.channels
from handlers import evidence_status
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
from handlers.texts import channel_tests as ct
from handlers.texts import channels as t
from scheduler.core.fallback import SERVERCHAN_USER, WECOM_APP, WXPUSHER
from services.channels import primary_of, role_of
from storage.database import Session
from storage.records import Receiver
from storage.repos import incidents, user_channels
from storage.vocabulary import AttemptOutcome, ChannelRole, IncidentKind

router = Router("channels")

HEALTH_WINDOW = dt.timedelta(days=7)


def _name(channel: str) -> str:
    return t.NAMES.get(channel, channel)


@router.handles(ShowChannels)
async def show_channels(session: Session, ctx: Context, command: ShowChannels) -> Outcome:
    found = await user_channels.receivers(session, ctx.user.id)
    recent = await user_channels.recent_outcomes(session, ctx.user.id, ctx.now - HEALTH_WINDOW)
    holds = [i for i in await incidents.open_all(session) if i.kind == IncidentKind.CHANNEL_HOLD]
    held = {i.subject for i in holds}
    told = {i.subject for i in holds if i.alerted_at is not None}
    primary, fallback = primary_of(found), role_of(found, ChannelRole.FALLBACK)
    lines = [t.SHOW_HEAD]
    bound = {r.channel: r for r in found if r.channel != WECOM_APP}
    evidence = {
        row.channel: row
        for row in await evidence_status.rows(
            session, ctx.now, (WECOM_APP, *bound), user_id=ctx.user.id
        )
    }
    for channel in (WECOM_APP, *sorted(bound)):
        role = (
            ChannelRole.PRIMARY
            if channel == primary
            else ChannelRole.FALLBACK
            if channel == fallback
            else ChannelRole.NONE
        )
        hint = bound[channel].hint if channel in bound else ""
        state = health(
            configured=channel in ctx.deployment.channels.user_channels,
            held=channel in held,
            unreadable=channel == SERVERCHAN_USER and not _opens(ctx, bound[channel]),
            recent=recent.get(channel, []),
        )
        if state == "held" and channel in told:  # say the admins know only when they do
            state = "held_told"
        lines.append(t.show_line(_name(channel), hint, role, state))
        lines.append(t.evidence_under(evidence_status.check_words(evidence[channel], ctx.tz)))
        lines.append(t.evidence_under(_share(evidence[channel])))
    if fallback is None:
        lines.append(t.NO_FALLBACK)
    lines.append(t.SHOW_FOOT)
    return Outcome(reply="\n".join(lines))


def _share(row: evidence_status.ChannelEvidence) -> str:
    return ct.answered_share(row.share.percent, row.share.sent)


def health(*, configured: bool, held: bool, unreadable: bool, recent: list[str]) -> str:
    """One channel's health word (`texts.channels.HEALTH_WORDS`): what stops it first
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
    return services.channels.key_opens(ctx.deployment.data_keys, ctx.user.id, receiver)


@router.handles(BindReceiver)
async def bind_receiver(session: Session, ctx: Context, command: BindReceiver) -> Outcome:
    if command.channel not in ctx.deployment.channels.user_channels:
        return Outcome(reply=t.WXPUSHER_OFF)
    if command.channel == SERVERCHAN_USER and ctx.deployment.data_keys.current is None:
        return Outcome(reply=t.NO_DATA_KEY)  # never sealed under a key a rotation would lose
    hint = mask(command.value)
    bound = await services.channels.bind(
        session,
        ctx.user,
        command.channel,
        command.value,
        hint=hint,
        keys=ctx.deployment.data_keys,
        now=ctx.now,
    )
    reply = t.bound(
        _name(command.channel),
        hint,
        primary=_name(bound.primary),
        became_fallback=bound.became_fallback,
        replaced=bound.replaced,
    )
    return Outcome(reply=reply)


@router.handles(UnbindReceiver)
async def unbind_receiver(session: Session, ctx: Context, command: UnbindReceiver) -> Outcome:
    gone = await services.channels.unbind(
        session,
        ctx.user,
        command.channel,
        configured=ctx.deployment.channels.user_channels,
        now=ctx.now,
    )
    if gone is None:
        return Outcome(reply=t.NOTHING_TO_UNBIND.format(name=_name(command.channel)))
    return Outcome(reply=t.unbound(_name(command.channel), gone.role))


def _resolve(ctx: Context, target: Target, found: list[Receiver]) -> str | None:
    """The channel a target means for this user; None: "微信" with nothing bound.
    "微信" prefers a bound channel keeper can use (WxPusher first)."""
    if target != "wechat":
        return target
    bound = [c for c in (WXPUSHER, SERVERCHAN_USER) if c in {r.channel for r in found}]
    return next(
        (c for c in bound if c in ctx.deployment.channels.user_channels),
        bound[0] if bound else None,
    )


def _pick(ctx: Context, target: Target, found: list[Receiver]) -> str | Outcome:
    """The channel `target` means if the user may choose it now, else the refusal."""
    channel = _resolve(ctx, target, found)
    if channel is None or (channel != WECOM_APP and channel not in {r.channel for r in found}):
        return Outcome(reply=t.NEED_WECHAT)
    if channel not in ctx.deployment.channels.user_channels:
        return Outcome(reply=t.NOT_USABLE.format(name=_name(channel), why=t.HEALTH_WORDS["off"]))
    return channel


@router.handles(SetPrimaryChannel)
async def set_primary(session: Session, ctx: Context, command: SetPrimaryChannel) -> Outcome:
    found = await user_channels.receivers(session, ctx.user.id)
    channel = _pick(ctx, command.target, found)
    if isinstance(channel, Outcome):
        return channel
    if channel == primary_of(found):
        return Outcome(reply=t.ALREADY_PRIMARY.format(name=_name(channel)))
    fallback = await services.channels.set_primary(
        session, ctx.user, channel, configured=ctx.deployment.channels.user_channels, now=ctx.now
    )
    return Outcome(reply=t.primary_set(_name(channel), _name(fallback)))


@router.handles(SetFallbackChannel)
async def set_fallback(session: Session, ctx: Context, command: SetFallbackChannel) -> Outcome:
    if command.target is None:
        await services.channels.set_fallback(session, ctx.user.id, None, now=ctx.now)
        return Outcome(reply=t.fallback_set(None))
    found = await user_channels.receivers(session, ctx.user.id)
    channel = _pick(ctx, command.target, found)
    if isinstance(channel, Outcome):
        return channel
    if channel == primary_of(found):
        return Outcome(reply=t.SAME_AS_PRIMARY.format(name=_name(channel)))
    await services.channels.set_fallback(session, ctx.user.id, channel, now=ctx.now)
    return Outcome(reply=t.fallback_set(_name(channel)))
