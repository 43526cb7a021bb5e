"""A fake of WeCom's server-side message API, for tests and `keeper chat`.

It serves the endpoints keeper calls, on loopback, the way the WeCom
documentation describes them:

- `GET /cgi-bin/gettoken?corpid=&corpsecret=` ("获取access_token"),
- `POST /cgi-bin/message/send?access_token=` ("发送应用消息"),
- `POST /cgi-bin/message/update_template_card?access_token=` ("更新模版卡片消息",
  https://developer.work.weixin.qq.com/document/path/94888),
- `GET /cgi-bin/agent/get?access_token=&agentid=` ("获取指定的应用详情") and
  `POST /cgi-bin/menu/create?access_token=&agentid=` ("创建菜单"), over the app's
  console settings (enabled, 可见范围, 上报进入应用事件, menu),

records what it received, and can be told to misbehave (an errcode, a hang, a
reset connection, an HTTP error page) so that delivery code can be tested
against every outcome the design classifies. Where WeCom's documentation is
silent, the docstring of the branch says what we assumed.

This module is the fake's one import point; each role lives in its own module:

- `fake_protocol`: errcodes, the error body, checks shared by every endpoint;
- `fake_messages`: message/send's rules and `ReceivedMessage`;
- `fake_cards`: response_codes, update_template_card and `CardUpdate`;
- `fake_agent`: the app's console state, agent/get and menu/create's rules;
- `fake_faults`: the fault switches (`fail_next`, `hang_next`, ...);
- `fake_api`: `FakeWeCom`, the state, gettoken and message/send;
- `fake_wecom_app`: the aiohttp shell (`create_fake_wecom_app`, `run_fake_wecom`).
"""

from __future__ import annotations

from bot.sandbox.fake_agent import AppConsole
from bot.sandbox.fake_api import ISSUED_TOKENS, TOKEN_TTL, FakeWeCom
from bot.sandbox.fake_cards import INTERACTIVE_CARDS, RESPONSE_CODE_TTL, CardUpdate
from bot.sandbox.fake_faults import Route
from bot.sandbox.fake_messages import (
    CONTENT_MAX_BYTES,
    DUPLICATE_WINDOW_DEFAULT_S,
    DUPLICATE_WINDOW_MAX_S,
    ReceivedMessage,
)
from bot.sandbox.fake_protocol import ERRMSGS, Clock, Json, error_body
from bot.sandbox.fake_wecom_app import (
    ERROR_PAGE,
    FAKE_WECOM_KEY,
    create_fake_wecom_app,
    run_fake_wecom,
)

__all__ = [
    "CONTENT_MAX_BYTES",
    "DUPLICATE_WINDOW_DEFAULT_S",
    "DUPLICATE_WINDOW_MAX_S",
    "ERRMSGS",
    "ERROR_PAGE",
    "FAKE_WECOM_KEY",
    "INTERACTIVE_CARDS",
    "ISSUED_TOKENS",
    "RESPONSE_CODE_TTL",
    "TOKEN_TTL",
    "AppConsole",
    "CardUpdate",
    "Clock",
    "FakeWeCom",
    "Json",
    "ReceivedMessage",
    "Route",
    "create_fake_wecom_app",
    "error_body",
    "run_fake_wecom",
]
