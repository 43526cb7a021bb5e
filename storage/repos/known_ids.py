"""Every address of a person the database holds, for masking them in error texts.

Read whole (no paging): one short indexed column per table, read by a worker at
most once a minute (`scheduler.core.user_ids.KNOWN_IDS_REREAD`) and by the admin page.
"""

from __future__ import annotations

from sqlalchemy import select, union

from storage.channel_models import USER_CHANNELS
from storage.database import Session
from storage.models import USERS
from storage.mp_models import MP_IDENTITIES


async def user_ids(session: Session) -> set[str]:
    """The members' WeCom UserIDs, the receivers they bound (WxPusher UIDs; a sealed
    SendKey is among them, but too long for an ID's form, so the index drops it)
    and the mini-program openids."""
    stmt = union(
        select(USERS.c.wecom_user_id),
        select(USER_CHANNELS.c.receiver).where(USER_CHANNELS.c.receiver != ""),
        select(MP_IDENTITIES.c.openid),
    )
    return {str(value) for value in (await session.execute(stmt)).scalars()}
