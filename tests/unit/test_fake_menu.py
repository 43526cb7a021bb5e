"""The fake WeCom's menu/create rules, as WeCom documents them (创建菜单)."""

from __future__ import annotations

import json

import pytest

from bot.menu import MENU
from bot.sandbox.fake_agent import menu_error
from scheduler.core.incidents import outbound_ip


def _click(name: str, key: str = "k") -> dict[str, str]:
    return {"type": "click", "name": name, "key": key}


@pytest.mark.parametrize(
    ("menu", "errcode"),
    [
        (MENU, 0),
        ({"button": []}, 40016),
        ({"button": [_click("a")] * 4}, 40016),
        ({"button": [{"name": "a", "sub_button": [_click("b")] * 6}]}, 40016),
        ({"button": [_click("一二三四五六")]}, 40018),  # 18 bytes > 16 at the top
        ({"button": [{"name": "a", "sub_button": [_click("一二三四五六")]}]}, 0),  # <= 40
        ({"button": [{"type": "tap", "name": "a", "key": "k"}]}, 40017),
        ({"button": [_click("a", key="")]}, 40019),
        ({"button": [_click("a", key="k" * 129)]}, 40019),
        ({"button": [{"type": "click", "name": "a"}]}, 40019),
    ],
)
def test_menu_create_accepts_only_the_documented_shapes(menu: object, errcode: int) -> None:
    assert menu_error(json.dumps(menu).encode())[0] == errcode


def test_keepers_menu_is_within_wecoms_limits() -> None:
    assert menu_error(json.dumps(MENU, ensure_ascii=False).encode()) == (0, MENU)


@pytest.mark.parametrize(
    ("errmsg", "ip"),
    [
        (
            "not allow to access from your ip, hint: [1], from ip: 203.0.113.7, more info at x",
            "203.0.113.7",
        ),
        ("not allow to access from your ip, from ip:2001:db8::1, more info", "2001:db8::1"),
        ("invalid credential, hint: [1]", None),
    ],
)
def test_the_outbound_ip_is_read_from_wecoms_errmsg(errmsg: str, ip: str | None) -> None:
    assert outbound_ip(errmsg) == ip
