"""The dispatcher: one handler per command type, wiring mistakes caught at start-up."""

from __future__ import annotations

import pytest

from bot.app import ROUTERS
from handlers import commands
from handlers.context import Context, Outcome
from handlers.router import Dispatcher, Router


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
