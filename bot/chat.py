"""`keeper chat`: the newcomer's demo, the whole bot in one terminal.

It runs the real server in-process on a SQLite file, a fake WeCom message API, and
a WeCom-side client that encrypts and signs each line exactly as WeCom would, then
decrypts the passive reply. Nothing is mocked between the line you type and the row
in the database. The clock is a `FakeClock` so `/time +2h` can move the day along.

With a terminal it is interactive; otherwise it reads a script from standard input
and prints each line it sent followed by the reply.
"""

from __future__ import annotations

import asyncio
import base64
import datetime as dt
import re
import secrets
import socket
import sys
from typing import TextIO
from zoneinfo import ZoneInfo

from aiohttp import web

from bot.app import create_app
from bot.sandbox.fake_wecom import FakeWeCom, run_fake_wecom
from bot.sandbox.wecom_side import WeComSide
from bot.scheduling import scheduler_for
from bot.settings import (
    DatabaseSettings,
    DataSettings,
    OperationsSettings,
    Settings,
    WebSettings,
    WeComSettings,
)
from handlers import texts
from scheduler.clock import FakeClock, SystemClock
from scheduler.tick import Scheduler, tick
from storage.database import Database
from storage.engine import create_engine
from storage.migrate import upgrade
from storage.repos import job_claims, rules

DEMO_CORP_ID = "wwkeeperdemo00001"
DEMO_AGENT_ID = 1000002
DEMO_TZ = ZoneInfo("Asia/Shanghai")
CLOCK_TIME = re.compile(r"(?P<h>[01]?[0-9]|2[0-3]):(?P<m>[0-5][0-9])")
STEP = re.compile(r"^\+?(\d{1,4})\s*([mhd])$")
UNITS = {"m": "minutes", "h": "hours", "d": "days"}


DEMO_DATA_KEY = "keeper-demo-data-key-not-a-secret-000000"
"""The demo's data key: fixed, so a SendKey bound in one demo run still opens in the
next (the demo's database is a file that stays); never a real deployment's key."""


def demo_settings(db_path: str, public_url: str = "") -> Settings:
    """Fresh random secrets each run, but a fixed data key (`DEMO_DATA_KEY`): the demo
    never needs real credentials, and no setup."""
    return Settings(
        database=DatabaseSettings(url=f"sqlite+aiosqlite:///{db_path}"),
        operations=OperationsSettings(timezone=DEMO_TZ),
        web=WebSettings(public_url=public_url, secret=secrets.token_hex(32)),
        data=DataSettings(key=DEMO_DATA_KEY),
        wecom=WeComSettings(
            corp_id=DEMO_CORP_ID,
            agent_id=DEMO_AGENT_ID,
            secret=secrets.token_urlsafe(24),
            token=secrets.token_hex(16),
            aes_key=base64.b64encode(secrets.token_bytes(32)).decode()[:43],
        ),
    )


async def run_chat(
    *,
    db_path: str,
    user: str,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
    start: dt.datetime | None = None,
) -> int:
    """Run the demo until end of input or `/quit`. Returns the exit status.

    `start` (local wall clock, or aware) sets the demo clock, so a script replays the
    same day every time; by default the clock starts now.
    """
    if start is not None and start.tzinfo is None:
        start = start.replace(tzinfo=DEMO_TZ)
    clock = FakeClock(start or SystemClock().now().replace(second=0, microsecond=0))
    # The server's port is chosen before the app is built, so `网页` can answer links
    # to this very server (http://127.0.0.1:<port>, loopback only).
    listener = socket.create_server(("127.0.0.1", 0))
    settings = demo_settings(db_path, f"http://127.0.0.1:{listener.getsockname()[1]}")
    fake = FakeWeCom(
        corp_id=settings.wecom.corp_id,
        secret=settings.wecom.secret,
        agent_id=DEMO_AGENT_ID,
        clock=clock.now,
    )
    async with run_fake_wecom(fake) as api_base:
        settings = _with_api(settings, api_base)
        engine = create_engine(settings.database.url)
        await upgrade(engine)
        app = create_app(settings, clock=clock, engine=engine, ticks_itself=True)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        try:
            site = web.SockSite(runner, listener)
            await site.start()
            base = "http://{}:{}".format(*runner.addresses[0][:2])
            async with (
                WeComSide(
                    base,
                    settings.wecom.token,
                    settings.wecom.aes_key,
                    settings.wecom.corp_id,
                    DEMO_AGENT_ID,
                    clock.now,
                ) as wecom,
                scheduler_for(settings, Database(engine), clock) as scheduler,
            ):
                session = _Session(wecom, clock, user, stdout, _Reminders(scheduler, fake, user))
                _banner(stdout, db_path, clock)
                await session.loop(stdin, interactive=stdin.isatty())
        finally:
            await runner.cleanup()
            await engine.dispose()
    return 0


def _with_api(settings: Settings, api_base: str) -> Settings:
    import dataclasses

    return dataclasses.replace(
        settings, wecom=dataclasses.replace(settings.wecom, api_base=api_base)
    )


def _banner(out: TextIO, db_path: str, clock: FakeClock) -> None:
    now = clock.now().astimezone(DEMO_TZ)
    print(texts.demo_banner(db_path), file=out)
    print(texts.demo_now(f"{now:%Y-%m-%d %H:%M}", DEMO_TZ.key), file=out)


class _Reminders:
    """Runs the scheduler as time passes and shows what the fake WeCom received."""

    def __init__(self, scheduler: Scheduler, fake: FakeWeCom, user: str) -> None:
        self.scheduler, self.fake, self.user = scheduler, fake, user
        self.shown = 0

    async def run_until(
        self, clock: FakeClock, target: dt.datetime
    ) -> list[tuple[dt.datetime, str]]:
        """Move `clock` to `target`, stopping at every due time on the way to tick."""
        while (due := await self._next_due()) is not None and due <= target:
            clock.set(max(clock.now(), due))
            await tick(self.scheduler)
        clock.set(target)
        await tick(self.scheduler)
        return self.new_messages()

    def new_messages(self) -> list[tuple[dt.datetime, str]]:
        received = self.fake.messages_to(self.user)
        fresh, self.shown = received[self.shown :], len(received)
        return [(m.received_at, _readable(m.msgtype, m.payload, m.content)) for m in fresh]

    async def _next_due(self) -> dt.datetime | None:
        async with self.scheduler.database.transaction() as session:
            times = [await rules.next_fire_min(session), await job_claims.next_waiting_at(session)]
        return min((t for t in times if t is not None), default=None)


def _readable(msgtype: str, payload: dict[str, object], content: str) -> str:
    """A card as a phone would show it: its text and its buttons."""
    card = payload.get("template_card")
    if msgtype != "template_card" or not isinstance(card, dict):
        return content
    main = card.get("main_title", {})
    title = main.get("desc", "") or main.get("title", "")
    sub = card.get("sub_title_text", "")
    buttons = " ".join(f"[{b.get('text', '')}]" for b in card.get("button_list", []))
    return "\n".join(part for part in (title, sub, buttons) if part)


class _Session:
    def __init__(
        self, wecom: WeComSide, clock: FakeClock, user: str, out: TextIO, reminders: _Reminders
    ) -> None:
        self.wecom, self.clock, self.user, self.out = wecom, clock, user, out
        self.reminders = reminders
        self.next_msg_id = secrets.randbits(40) << 20  # unique across runs on the same file

    async def loop(self, stdin: TextIO, *, interactive: bool) -> None:
        while True:
            line = await self._read(stdin, interactive)
            if line is None or line.strip() in ("/quit", "/exit"):
                return
            if not line.strip():
                continue
            if not interactive:
                print(f"\n{texts.DEMO_PROMPT}{line}", file=self.out)
            await self.handle(line.strip())

    async def _read(self, stdin: TextIO, interactive: bool) -> str | None:
        if interactive:
            try:
                return await asyncio.to_thread(input, texts.DEMO_PROMPT)
            except EOFError:
                return None
        line = await asyncio.to_thread(stdin.readline)
        return line.rstrip("\n") if line else None

    async def handle(self, line: str) -> None:
        if line.startswith("/"):
            await self._command(line)
            return
        self.next_msg_id += 1
        reply = await self.wecom.send_text(self.user, line, msg_id=self.next_msg_id)
        if reply.status != 200:
            self._say(texts.demo_http_status(reply.status))
        elif reply.text:
            self._say(reply.text)
        else:
            self._say(texts.DEMO_NO_REPLY)

    async def _command(self, line: str) -> None:
        name, _, arg = line.partition(" ")
        if name == "/time" and arg.strip():
            await self._move_clock(arg.strip())
        elif name == "/now":
            self._say(texts.demo_clock(f"{self.clock.now().astimezone(DEMO_TZ):%Y-%m-%d %H:%M}"))
        else:
            self._say(texts.DEMO_HELP)

    async def _move_clock(self, arg: str) -> None:
        step = STEP.match(arg)
        if step:
            target = self.clock.now() + dt.timedelta(**{UNITS[step.group(2)]: int(step.group(1))})
        elif clock := CLOCK_TIME.fullmatch(arg):
            target = self._next_local(int(clock["h"]), int(clock["m"]))
        else:
            try:
                when = dt.datetime.fromisoformat(arg)
            except ValueError:
                self._say(texts.DEMO_BAD_TIME)
                return
            target = when if when.tzinfo else when.replace(tzinfo=DEMO_TZ)
        if target < self.clock.now():
            self._say(texts.DEMO_NOT_BACKWARDS)
            return
        for at, text in await self.reminders.run_until(self.clock, target):
            self._notify(at, text)
        self._say(texts.demo_clock_moved(f"{self.clock.now().astimezone(DEMO_TZ):%Y-%m-%d %H:%M}"))

    def _next_local(self, hour: int, minute: int) -> dt.datetime:
        """`/time 14:10`: the next time the local clock shows 14:10 (today or tomorrow)."""
        now = self.clock.now().astimezone(DEMO_TZ)
        target = now.replace(hour=hour % 24, minute=minute % 60, second=0, microsecond=0)
        return target if target > now else target + dt.timedelta(days=1)

    def _notify(self, at: dt.datetime, text: str) -> None:
        indented = text.replace("\n", "\n        ")
        print(texts.demo_reminder(f"{at.astimezone(DEMO_TZ):%H:%M}", indented), file=self.out)

    def _say(self, text: str) -> None:
        indented = text.replace("\n", "\n        ")
        print(f"keeper> {indented}", file=self.out)
