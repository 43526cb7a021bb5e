"""The fake WeCom API's app endpoints: agent/get and menu/create, and the app's state.

One role: what the console shows about the one app (enabled or not, its visible range,
whether it reports 进入应用 events, its menu) and the two documented endpoints that read
and write it:

- `GET /cgi-bin/agent/get?access_token=&agentid=` ("获取指定的应用详情",
  https://developer.work.weixin.qq.com/document/path/90227): `close` 0/1,
  `allow_userinfos.user[].userid`, `allow_partys.partyid[]`, `allow_tags.tagid[]`,
  `isreportenter` 0/1, with name, description and the other documented fields;
- `POST /cgi-bin/menu/create?access_token=&agentid=` ("创建菜单",
  https://developer.work.weixin.qq.com/document/path/90231): 1-3 buttons, each with
  1-5 sub_buttons or a type; names at most 16 bytes (top level) or 40 (sub menu);
  click keys at most 128 bytes. The documentation names no errcode per rule; we use
  WeCom's global table (40016 button count, 40017 type, 40018 name, 40019 key).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.sandbox.fake_protocol import Json, json_object

__all__ = ["AppConsole", "menu_error"]

BUTTON_TYPES = frozenset(
    {
        "click",
        "view",
        "scancode_push",
        "scancode_waitmsg",
        "pic_sysphoto",
        "pic_photo_or_album",
        "pic_weixin",
        "location_select",
        "view_miniprogram",
    }
)
TOP_NAME_MAX_BYTES, SUB_NAME_MAX_BYTES, KEY_MAX_BYTES = 16, 40, 128


@dataclass(kw_only=True, slots=True)
class AppConsole:
    """The app as configured in WeCom's admin console (what a test can misconfigure).

    `visible_users` None means "the whole company" (the root department, partyid 1):
    no member is listed by name, as when 可见范围 is set to a department.
    """

    name: str = "keeper"
    closed: bool = False
    visible_users: set[str] | None = None
    report_enter: bool = True
    menu: Json | None = None
    menu_calls: int = field(default=0)

    def agent_info(self, agent_id: int) -> Json:
        """agent/get's documented answer for our app."""
        users = sorted(self.visible_users or ())
        return {
            "errcode": 0,
            "errmsg": "ok",
            "agentid": agent_id,
            "name": self.name,
            "square_logo_url": "https://p.qlogo.cn/bizmail/fake/0",
            "description": "fake app",
            "allow_userinfos": {"user": [{"userid": u} for u in users]},
            "allow_partys": {"partyid": [1] if self.visible_users is None else []},
            "allow_tags": {"tagid": []},
            "close": 1 if self.closed else 0,
            "redirect_domain": "",
            "report_location_flag": 0,
            "isreportenter": 1 if self.report_enter else 0,
            "home_url": "",
            "customized_publish_status": 1,
        }


def menu_error(raw_body: bytes) -> tuple[int, Json | None]:
    """(errcode, the menu) for a menu/create body: 0 and the menu when it is valid."""
    menu = json_object(raw_body)
    if menu is None:
        return 47001, None
    buttons = menu.get("button")
    if not isinstance(buttons, list) or not 1 <= len(buttons) <= 3:
        return 40016, None
    for button in buttons:
        code = _button_error(button, top=True)
        if code:
            return code, None
    return 0, menu


def _button_error(button: Any, *, top: bool) -> int:
    if not isinstance(button, dict):
        return 47001
    name = button.get("name")
    limit = TOP_NAME_MAX_BYTES if top else SUB_NAME_MAX_BYTES
    if not isinstance(name, str) or not 0 < len(name.encode()) <= limit:
        return 40018
    subs = button.get("sub_button")
    if top and subs is not None:
        if not isinstance(subs, list) or not 1 <= len(subs) <= 5:
            return 40016
        return next((c for c in (_button_error(s, top=False) for s in subs) if c), 0)
    if button.get("type") not in BUTTON_TYPES:
        return 40017
    key = button.get("key")
    if button["type"] == "click" and (
        not isinstance(key, str) or not 0 < len(key.encode()) <= KEY_MAX_BYTES
    ):
        return 40019
    return 0
