"""A refused `绑定` keeps no key in clear in `inbound_messages` (issue 20 item 5)."""

from __future__ import annotations

from sqlalchemy import select

from storage.channel_models import USER_CHANNELS
from storage.models import INBOUND
from tests.acceptance.conftest import Keeper

NEAR_MISSES = (
    "绑定 Server酱 SCT12345 TabcdEFGH6789",
    "绑定 Server酱 SCT12345-TabcdEFGH6789",
    "绑定 Server酱 SCT12345\u200bTabcdEFGH6789",
    "绑定 Server酱 SCT12345\nTabcdEFGH6789",
    "绑定 Server酱 S C T 1 2 3 4 5 T a b c d E F G H 6 7 8 9",
    "绑定 WxPusher SPT_12345TabcdEFGH6789",
)


async def test_a_refused_bind_with_a_broken_up_key_is_stored_masked(keeper: Keeper) -> None:
    for text in NEAR_MISSES:
        reply = await keeper.say(text)
        assert "Tabcd" not in reply  # refused, without echoing the key
    async with keeper.scheduler.database.transaction() as session:
        stored = list((await session.execute(select(INBOUND.c.content))).scalars())
        bound = (await session.execute(select(USER_CHANNELS.c.id))).all()
    assert bound == []  # every one was refused
    assert len(stored) == len(NEAR_MISSES)
    compact = ["".join(c for c in text if c.isalnum()) for text in stored]
    assert [text for text in compact if "345Tab" in text or "EFGH67" in text] == []
    assert all("…" in text for text in stored)
