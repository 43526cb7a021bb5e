"""A fake of WxPusher's standard push, for tests and the sandbox.

`POST /api/send/message` as WxPusher's docs and openapi.yaml describe it
(PROVIDERS.md section 1): a JSON body with `appToken`, `content` (at most 40000
characters), `summary`, `contentType` and `uids` (or `topicIds`); the answer is
`{"code", "msg", "data", "success"}`, with one `data` item per uid, each with its
own `code`, `status`, `sendRecordId` and the call's shared `messageContentId`.
Code 1000 means a send task was created, nothing more. Sends are limited to 20 per
10 seconds per app (on the fake's clock).

Where the documentation is silent we assumed, and say so here:

- a wrong appToken gets code 1002 (the official enum's UNAUTHORIZED, openapi's
  "未登录"); a body that is not JSON, empty content, too long content, no target,
  or a call over the rate limit get the generic 1001 with a reason in `msg`;
- a uid that does not follow the app is refused in its own `data` item (code 1001,
  status "用户不存在或者已取消关注") while the call's code stays 1000.

The fault switches are `WebhookFaults'` (route "send"); `fail_next(code)` answers
that top-level code with `success: false`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from aiohttp import web

from bot.sandbox.fake_protocol import Clock, Json, json_object
from bot.sandbox.fake_webhook import WebhookFaults, act_out, serve

__all__ = ["FAKE_WXPUSHER_KEY", "FakeWxPusher", "WxMessage", "run_fake_wxpusher", "wx_error"]

SUCCESS = 1000
CONTENT_MAX_CHARS = 40000
PER_10_SECONDS = 20
NOT_FOLLOWING = "用户不存在或者已取消关注"


def wx_error(code: int, msg: str = "") -> Json:
    """WxPusher's failed answer."""
    return {"code": code, "msg": msg or f"fake error {code}", "data": None, "success": False}


@dataclass(frozen=True, kw_only=True, slots=True)
class WxMessage:
    """One send task the fake created for one uid."""

    uid: str
    content: str
    summary: str | None
    content_type: int
    send_record_id: int
    message_content_id: int
    received_at: datetime


def _utc_now() -> datetime:
    return datetime.now(UTC)


class FakeWxPusher(WebhookFaults):
    """One app (its appToken), the uids following it, and the send tasks created."""

    def __init__(
        self,
        *,
        app_token: str = "AT_sandboxAppToken0001",
        uids: Iterable[str] = ("UID_sandbox0001",),
        clock: Clock = _utc_now,
    ) -> None:
        super().__init__()
        self.app_token, self.uids, self.clock = app_token, set(uids), clock
        self.messages: list[WxMessage] = []
        self.send_calls = 0
        self._calls: list[datetime] = []
        self._ids = itertools.count(90001)

    def send(self, raw_body: bytes) -> Json:
        """Documented send/message: check the call, then one item per uid."""
        payload = json_object(raw_body)
        if payload is not None and payload.get("appToken") != self.app_token:
            return wx_error(1002, "appToken不正确或者未登录")
        if (reason := self._refusal(payload)) or payload is None:
            return wx_error(1001, reason or "参数错误")
        content_id = next(self._ids)
        items = [self._task(payload, str(uid), content_id) for uid in payload.get("uids") or []]
        return {"code": SUCCESS, "msg": "处理成功", "data": items, "success": True}

    def _refusal(self, payload: Json | None) -> str:
        now = self.clock()
        self._calls = [t for t in self._calls if now - t < timedelta(seconds=10)]
        if len(self._calls) >= PER_10_SECONDS:
            return "请求频率过快，请稍后再试"
        self._calls.append(now)
        if payload is None:
            return "请求体不是JSON"
        content = payload.get("content")
        if not isinstance(content, str) or not content:
            return "内容不能为空"
        if len(content) > CONTENT_MAX_CHARS:
            return "内容过长"
        return (
            "" if payload.get("uids") or payload.get("topicIds") else "uids和topicIds不能同时为空"
        )

    def _task(self, payload: Json, uid: str, content_id: int) -> Json:
        item: Json = {"uid": uid, "topicId": None, "messageContentId": content_id}
        if uid not in self.uids:
            return item | {"code": 1001, "status": NOT_FOLLOWING, "sendRecordId": None}
        record = next(self._ids)
        summary = payload.get("summary")
        self.messages.append(
            WxMessage(
                uid=uid,
                content=str(payload["content"]),
                summary=str(summary) if summary is not None else None,
                content_type=int(payload.get("contentType") or 1),
                send_record_id=record,
                message_content_id=content_id,
                received_at=self.clock(),
            )
        )
        return item | {"code": SUCCESS, "status": "创建发送任务成功", "sendRecordId": record}


FAKE_WXPUSHER_KEY = web.AppKey("fake_wxpusher", FakeWxPusher)


async def _send(request: web.Request) -> web.StreamResponse:
    fake = request.app[FAKE_WXPUSHER_KEY]
    fake.send_calls += 1
    raw_body = await request.read()
    fault = fake.take_fault("send")
    if fault is None:
        return web.json_response(fake.send(raw_body))
    if fault.delivered:
        fake.send(raw_body)
    return await act_out(request, fake, fault, lambda code: web.json_response(wx_error(code)))


async def _release_on_shutdown(app: web.Application) -> None:
    app[FAKE_WXPUSHER_KEY].release_hung()


def create_fake_wxpusher_app(fake: FakeWxPusher) -> web.Application:
    app = web.Application()
    app[FAKE_WXPUSHER_KEY] = fake
    app.router.add_post("/api/send/message", _send)
    app.on_shutdown.append(_release_on_shutdown)
    return app


def run_fake_wxpusher(fake: FakeWxPusher) -> AbstractAsyncContextManager[str]:
    """Serve the fake on 127.0.0.1, a free port; `async with` it for its base URL."""
    return serve(create_fake_wxpusher_app(fake), fake)
