"""`测试 渠道` and its `收到`: the end-to-end check that a channel reaches the phone.

What is queued and how `收到` is read while tests and nags wait is
`services.evidence` (its module note gives the rule); this module reads the command
and answers. A bare `收到` comes here through `handlers.nag` (`confirm_bare`).
"""

from __future__ import annotations

import services.evidence
from handlers.channel_commands import ConfirmChannelTest, SendChannelTest, Target
from handlers.context import Context, Outcome
from handlers.router import Router
from handlers.texts import channel_tests as t
from handlers.texts.channels import NAMES
from scheduler.core.fallback import SERVERCHAN_USER, WXPUSHER
from scheduler.core.texts.channel_test import answer_word
from storage.database import Session
from storage.repos import user_channels

router = Router("channel_tests")

PERSONAL = (WXPUSHER, SERVERCHAN_USER)
"""The channels "微信" (my personal WeChat) may mean."""


def name(channel: str) -> str:
    return NAMES.get(channel, channel)


def _means(target: Target, channel: str) -> bool:
    return channel in PERSONAL if target == "wechat" else channel == target


@router.handles(SendChannelTest)
async def test_channels(session: Session, ctx: Context, command: SendChannelTest) -> Outcome:
    found = await user_channels.receivers(session, ctx.user.id)
    configured = ctx.deployment.channels.user_channels
    chosen = services.evidence.targets(ctx.user.id, ctx.user.wecom_user_id, found, configured)
    if command.target is not None:
        chosen = [c for c in chosen if _means(command.target, c.channel)]
        if not chosen:
            wanted = name(WXPUSHER if command.target == "wechat" else command.target)
            return Outcome(reply=t.not_bound(wanted))
    await services.evidence.queue_tests(session, ctx.user.id, chosen, now=ctx.now)
    channels = [c.channel for c in chosen]
    named = len(channels) > 1
    words = [answer_word(c if named else None) for c in channels]
    return Outcome(reply=t.tests_queued([name(c) for c in channels], words))


@router.handles(ConfirmChannelTest)
async def confirm_test(session: Session, ctx: Context, command: ConfirmChannelTest) -> Outcome:
    channels = [
        check.channel
        for check in await services.evidence.waiting(session, ctx.user.id, ctx.now)
        if _means(command.target, check.channel)
    ]
    confirmed: list[str] = []
    for channel in dict.fromkeys(channels):
        done = await services.evidence.confirm(session, ctx.user.id, channel, ctx.now)
        confirmed += done.confirmed
    if not confirmed:
        return Outcome(reply=t.NO_TEST_WAITING)
    return Outcome(reply=t.checks_confirmed([name(c) for c in confirmed]))


async def confirm_bare(session: Session, ctx: Context) -> Outcome | None:
    """A bare `收到` with no nag nagging: the one waiting test confirmed, or the
    question which; None when no test waits (the word keeps its other meanings)."""
    done = await services.evidence.confirm(session, ctx.user.id, None, ctx.now)
    if done.ask:
        return Outcome(reply=t.which_test([name(c) for c in done.ask], list(done.ask)))
    if done.confirmed:
        return Outcome(reply=t.checks_confirmed([name(c) for c in done.confirmed]))
    return None


async def still_waiting_note(session: Session, ctx: Context) -> str | None:
    """After a `收到` that answered a nag: how to confirm the tests still waiting."""
    channels = list(
        dict.fromkeys(
            c.channel for c in await services.evidence.waiting(session, ctx.user.id, ctx.now)
        )
    )
    if not channels:
        return None
    return t.tests_still_waiting([answer_word(c) for c in channels])
