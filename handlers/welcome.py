"""What a newcomer asks first: the greeting, the help pages, and 我是谁."""

from __future__ import annotations

from handlers import texts
from handlers.commands import Help, Welcome, WhoAmI
from handlers.context import Context, Outcome
from handlers.router import Router
from storage.database import Session

router = Router("welcome")


@router.handles(Help)
async def show_help(session: Session, ctx: Context, cmd: Help) -> Outcome:
    return Outcome(reply=texts.ABOUT if cmd.about else texts.help_page(cmd.topic))


@router.handles(WhoAmI)
async def who_am_i(session: Session, ctx: Context, cmd: WhoAmI) -> Outcome:
    """The member's own UserID, for the admin who sets KEEPER_ADMINS (only ever told
    to the member it belongs to; never logged)."""
    return Outcome(reply=texts.who_am_i(ctx.user.wecom_user_id, ctx.is_admin))


@router.handles(Welcome)
async def welcome(session: Session, ctx: Context, cmd: Welcome) -> Outcome:
    return Outcome(reply=texts.WELCOME)
