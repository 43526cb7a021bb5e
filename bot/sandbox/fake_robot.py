"""A fake of the WeCom group robot webhook, for tests and the sandbox.

`POST /cgi-bin/webhook/send?key=KEY` as the official robot page describes it
(PROVIDERS.md section 3): a JSON body of msgtype `text` (content at most 2048
bytes, `mentioned_list`) or `markdown` (at most 4096 bytes); the answer is
`{"errcode", "errmsg"}` with HTTP 200 for errors too, and no message id. Each
robot may send 20 messages a minute (sliding, on the fake's clock); more get 45009.

It serves from the same host as the WeCom API: mount it into the WeCom fake with
`add_robot_routes(create_fake_wecom_app(...), robot)`, or run it alone with
`run_fake_robot`. The fault switches are `WebhookFaults`' (route "send").

Where the documentation is silent we assumed: an unknown key and a robot removed
from its group both get 93000 (the documented text names both); a body that is
not a JSON object gets WeCom's 47001; a msgtype other than text or markdown gets
40008 (the real robot has more types; keeper sends only these two).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from aiohttp import web

from bot.sandbox.fake_protocol import Clock, Json, json_object
from bot.sandbox.fake_webhook import WebhookFaults, act_out, serve

__all__ = [
    "FAKE_ROBOT_KEY",
    "ROBOT_LIMITS",
    "FakeRobot",
    "RobotMessage",
    "add_robot_routes",
    "run_fake_robot",
]

ROBOT_LIMITS = {"text": 2048, "markdown": 4096}  # content bytes, UTF-8
PER_MINUTE = 20
ERRMSGS = {
    -1: "system busy",
    40008: "invalid message type",
    44004: "empty content",
    45002: "content size out of limit",
    45009: "api freq out of limit",
    45033: "api concurrent out of limit",
    47001: "data format error",
    93000: "invalid webhook url",
    93004: "robot is disabled",
    93008: "robot is not in the group",
}


def robot_error(errcode: int) -> Json:
    """The robot's error answer: errcode and an errmsg with a hint and a query link."""
    text = ERRMSGS.get(errcode, "fake error")
    errmsg = (
        f"{text}, hint: [{secrets.token_hex(8)}], "
        f"more info at https://open.work.weixin.qq.com/devtool/query?e={errcode}"
    )
    return {"errcode": errcode, "errmsg": errmsg}


@dataclass(frozen=True, kw_only=True, slots=True)
class RobotMessage:
    """One message a robot posted into its group."""

    key: str
    msgtype: str
    content: str
    mentioned: tuple[str, ...]
    received_at: datetime


def _utc_now() -> datetime:
    return datetime.now(UTC)


class FakeRobot(WebhookFaults):
    """Robots by key, what they posted, and how webhook/send answers.

    `disable(key)` (93004), `leave_group(key)` (93008) and `remove(key)` (93000) put a
    robot in the states the console can put it in.
    """

    def __init__(self, *, keys: Iterable[str] = ("sandbox-robot-key",), clock: Clock = _utc_now):
        super().__init__()
        self.keys = set(keys)
        self.clock = clock
        self.messages: list[RobotMessage] = []
        self.send_calls = 0
        self._states: dict[str, int] = {}  # key -> the errcode every send now gets

    def disable(self, key: str) -> None:
        self._states[key] = 93004

    def leave_group(self, key: str) -> None:
        self._states[key] = 93008

    def remove(self, key: str) -> None:
        self.keys.discard(key)

    def send(self, key: str, raw_body: bytes) -> Json:
        """Documented webhook/send: check the robot, its rate, the body; post it."""
        code = self._robot_error(key)
        payload = json_object(raw_body) if not code else None
        if not code:
            code = _payload_error(payload)
        if code or payload is None:
            return robot_error(code or 47001)
        self._post(key, payload)
        return {"errcode": 0, "errmsg": "ok"}

    def _robot_error(self, key: str) -> int:
        if key not in self.keys:
            return 93000
        if key in self._states:
            return self._states[key]
        now = self.clock()
        recent = [m for m in self.messages if m.key == key and now - m.received_at < _MINUTE]
        return 45009 if len(recent) >= PER_MINUTE else 0

    def _post(self, key: str, payload: Json) -> None:
        msgtype = str(payload["msgtype"])
        section = payload[msgtype]
        mentioned = section.get("mentioned_list") if msgtype == "text" else None
        self.messages.append(
            RobotMessage(
                key=key,
                msgtype=msgtype,
                content=section["content"],
                mentioned=tuple(str(m) for m in mentioned or ()),
                received_at=self.clock(),
            )
        )


_MINUTE = timedelta(minutes=1)


def _payload_error(payload: Json | None) -> int:
    """0, or the errcode for a body that is not JSON, of a wrong type, empty or too long."""
    if payload is None:
        return 47001
    msgtype = payload.get("msgtype")
    if msgtype not in ROBOT_LIMITS:
        return 40008
    section = payload.get(str(msgtype))
    content = section.get("content") if isinstance(section, dict) else None
    if not isinstance(content, str) or not content:
        return 44004
    return 45002 if len(content.encode()) > ROBOT_LIMITS[str(msgtype)] else 0


FAKE_ROBOT_KEY = web.AppKey("fake_robot", FakeRobot)


async def _send(request: web.Request) -> web.StreamResponse:
    robot = request.app[FAKE_ROBOT_KEY]
    robot.send_calls += 1
    raw_body, key = await request.read(), request.query.get("key", "")
    fault = robot.take_fault("send")
    if fault is None:
        return web.json_response(robot.send(key, raw_body))
    if fault.delivered:
        robot.send(key, raw_body)
    return await act_out(request, robot, fault, lambda code: web.json_response(robot_error(code)))


async def _release_on_shutdown(app: web.Application) -> None:
    app[FAKE_ROBOT_KEY].release_hung()


def add_robot_routes(app: web.Application, robot: FakeRobot) -> web.Application:
    """Serve `robot` from `app` (the WeCom fake's, as the robot shares WeCom's host)."""
    app[FAKE_ROBOT_KEY] = robot
    app.router.add_post("/cgi-bin/webhook/send", _send)
    app.on_shutdown.append(_release_on_shutdown)
    return app


def run_fake_robot(robot: FakeRobot) -> AbstractAsyncContextManager[str]:
    """Serve the robot alone on 127.0.0.1, a free port; `async with` it for its base URL."""
    return serve(add_robot_routes(web.Application(), robot), robot)
