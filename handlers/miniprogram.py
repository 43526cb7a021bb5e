"""`绑定 小程序`: the code that links a member's water mini-program to them.

The code is good once and for ten minutes (`services.mp_link`); the mini-program
posts it to `/api/mp/v1/link`. Like a page link, the reply is not kept for a retried
callback (a retry gets a pointer to the first reply), so no live code rests in
`inbound_messages`.
"""

from __future__ import annotations

import services.mp_link
from handlers import texts
from handlers.commands import LinkMiniProgram
from handlers.context import Context, Outcome
from handlers.router import Router
from storage.database import Session

router = Router("miniprogram")


@router.handles(LinkMiniProgram)
async def link_code(session: Session, ctx: Context, cmd: LinkMiniProgram) -> Outcome:
    if not ctx.deployment.mp.configured:
        return Outcome(reply=texts.MP_OFF)
    code = await services.mp_link.new_link_code(
        session, ctx.user.id, ctx.now, key=ctx.deployment.mp_link_key
    )
    return Outcome(reply=texts.mp_link_code(code), retry_reply=texts.MP_CODE_SENT_BEFORE)
