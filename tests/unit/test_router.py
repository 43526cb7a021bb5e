"""The dispatcher: one handler per command type, wiring mistakes caught at start-up."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from bot.app import ROUTERS, deployment_of
from handlers import admin, commands
from handlers.context import Context, Outcome
from handlers.deployment import Deployment
from handlers.router import Dispatcher, Router
from storage.records import UserRecord
from tests.conftest import TEST_SETTINGS


async def _noop(session: object, ctx: Context, cmd: object) -> Outcome:
    return Outcome(reply="")


def test_every_command_type_has_exactly_one_handler() -> None:
    dispatcher = Dispatcher(ROUTERS)
    command_types = set(commands.Command.__args__)  # type: ignore[attr-defined]
    assert set(dispatcher.routes) == command_types


def test_a_command_registered_twice_in_a_router_is_refused() -> None:
    router = Router("r")
    router.handles(commands.Help)(_noop)
    with pytest.raises(ValueError, match="registered twice"):
        router.handles(commands.Help)(_noop)


def test_a_command_handled_by_two_routers_is_refused() -> None:
    first, second = Router("a"), Router("b")
    first.handles(commands.Help)(_noop)
    second.handles(commands.Help)(_noop)
    with pytest.raises(ValueError, match="two routers"):
        Dispatcher([first, second])


def _ctx(*, is_admin: bool) -> Context:
    now = dt.datetime(2026, 11, 30, 8, tzinfo=dt.UTC)
    user = UserRecord(id=1, wecom_user_id="zhangsan", timezone="Asia/Shanghai")
    return Context(
        user=user,
        tz=ZoneInfo("Asia/Shanghai"),
        now=now,
        occurred_at=now,
        source_key="k",
        deployment=deployment_of(TEST_SETTINGS),
        is_admin=is_admin,
    )


def test_a_context_needs_its_keys_and_the_channels_on() -> None:
    """No empty default that would only fail inside AES at the first 绑定, or store
    link codes under an empty key."""
    s = TEST_SETTINGS
    with pytest.raises(TypeError, match="'data_keys' and 'mp_link_key'"):
        Deployment(  # type: ignore[call-arg]
            operations=s.operations, web=s.web, channels=s.channels, mp=s.mp, backup=s.backup
        )


async def test_a_routers_guard_answers_instead_of_its_handlers_when_it_refuses() -> None:
    ran: list[str] = []

    async def handler(session: object, ctx: Context, cmd: object) -> Outcome:
        ran.append("handler")
        return Outcome(reply="done")

    def guard(ctx: Context, cmd: commands.Command) -> Outcome | None:
        return None if ctx.is_admin else Outcome(reply="no")

    router = Router("guarded", guard=guard)
    router.handles(commands.AdminStatus)(handler)
    dispatcher = Dispatcher([router])
    refused = await dispatcher.dispatch(None, _ctx(is_admin=False), commands.AdminStatus())  # type: ignore[arg-type]
    allowed = await dispatcher.dispatch(None, _ctx(is_admin=True), commands.AdminStatus())  # type: ignore[arg-type]
    assert (refused.reply, allowed.reply, ran) == ("no", "done", ["handler"])


def test_every_admin_command_is_behind_the_admin_guard() -> None:
    dispatcher = Dispatcher(ROUTERS)
    guarded = {t for t, guard in dispatcher.guards.items() if guard is admin.admins_only}
    assert guarded == {commands.AdminStatus, commands.AdminHoldAll, commands.AdminSettle}
