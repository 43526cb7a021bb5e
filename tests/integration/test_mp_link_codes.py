"""A link code is kept as an HMAC under a server key, never as a plain hash that a
copy of the table gives back in a second (issue 20 item 7)."""

from __future__ import annotations

import hashlib
import re

from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from services import mp_link
from tests.conftest import TEST_SETTINGS, wecom_side
from tests.integration.mp_support import MiniProgram, make_fake, rows, serve_api


async def test_a_code_from_chat_is_stored_keyed_and_still_links_the_phone(
    clock: FakeClock, engine: AsyncEngine
) -> None:
    fake = make_fake(clock)
    async with serve_api(fake, clock, engine) as (api, settings):
        reply = await wecom_side(api, settings, clock).send_text("zhangsan", "绑定 小程序")
        assert reply.text is not None
        code = re.search(r"\d{6}", reply.text)
        assert code is not None
        [(stored,)] = await rows(engine, "SELECT code_hash FROM mp_link_codes")
        assert stored != hashlib.sha256(code[0].encode()).hexdigest()
        assert len(stored) == 64  # hex, as the column was sized for
        phone = MiniProgram(api, fake)
        await phone.login()
        linked = await phone.call("POST", "/link", {"code": code[0]})
        assert linked["today_count"] == 0


def test_the_stored_form_depends_on_the_key() -> None:
    one, other = b"k" * 32, b"l" * 32
    assert mp_link.code_hash(one, "123456") == mp_link.code_hash(one, "123456")
    assert mp_link.code_hash(one, "123456") != mp_link.code_hash(other, "123456")
    assert mp_link.code_hash(one, "123456") != mp_link.code_hash(one, "123457")


async def test_a_code_and_a_token_from_before_a_web_key_rotation_still_work(
    clock: FakeClock, engine: AsyncEngine
) -> None:
    """Issue 22: KEEPER_WEB_SECRET rotates with the old one as _PREVIOUS; the phone's
    token and the code asked for just before the restart still work after it."""
    fake = make_fake(clock)
    old = TEST_SETTINGS.web.secret
    async with serve_api(fake, clock, engine) as (api, settings):
        reply = await wecom_side(api, settings, clock).send_text("zhangsan", "绑定 小程序")
        code = re.search(r"\d{6}", reply.text or "")
        assert code is not None
        phone = MiniProgram(api, fake)
        await phone.login()
    rotated = {"secret": "a-rotated-web-signing-key-0123456789abcd", "secret_previous": old}
    async with serve_api(fake, clock, engine, web=rotated) as (api, _):
        phone.api = api  # the same token, against keeper restarted with the new key
        linked = await phone.call("POST", "/link", {"code": code[0]})
        assert linked["today_count"] == 0
