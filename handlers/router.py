"""Routing commands to handlers.

Each command module owns a `Router` and registers its handlers with `@router.handles`.
The composition root lists the routers once (`bot.app.ROUTERS`), so the whole command
set is visible in one place; `Dispatcher` refuses a command type handled twice.
A router may have a guard (`admins_only` for 管理): it runs before every handler of
the router, and an answer from it replaces the handler's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

from handlers.commands import Command
from handlers.context import Context, Outcome
from storage.database import Session

C = TypeVar("C")
Handler = Callable[[Session, Context, Any], Awaitable[Outcome]]
Guard = Callable[[Context, Command], Outcome | None]
"""None lets the command through; an `Outcome` is the answer instead (a refusal)."""


class Router:
    """A named group of handlers, one per command type."""

    def __init__(self, name: str, *, guard: Guard | None = None) -> None:
        self.name = name
        self.guard = guard
        self.routes: dict[type, Handler] = {}

    def handles(
        self, command_type: type[C]
    ) -> Callable[[Callable[[Session, Context, C], Awaitable[Outcome]]], Handler]:
        def register(func: Callable[[Session, Context, C], Awaitable[Outcome]]) -> Handler:
            if command_type in self.routes:
                raise ValueError(f"{command_type.__name__} registered twice in {self.name}")
            self.routes[command_type] = func
            return func

        return register


class Dispatcher:
    """Calls the one handler registered for a command's type."""

    def __init__(self, routers: Iterable[Router]) -> None:
        self.routes: dict[type, Handler] = {}
        self.guards: dict[type, Guard] = {}
        for router in routers:
            for command_type, handler in router.routes.items():
                if command_type in self.routes:
                    raise ValueError(f"{command_type.__name__} handled by two routers")
                self.routes[command_type] = handler
                if router.guard is not None:
                    self.guards[command_type] = router.guard

    async def dispatch(self, session: Session, ctx: Context, command: Command) -> Outcome:
        """Run the handler inside the caller's transaction, unless its router's guard
        answers instead.

        Raises:
            LookupError: no router handles this command type (a wiring bug).
        """
        handler = self.routes.get(type(command))
        if handler is None:
            raise LookupError(f"no handler for {type(command).__name__}")
        guard = self.guards.get(type(command))
        refused = None if guard is None else guard(ctx, command)
        return refused if refused is not None else await handler(session, ctx, command)
