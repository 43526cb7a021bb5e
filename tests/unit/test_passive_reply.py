"""Passive replies fit WeCom's 2048 bytes without breaking a character."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.passive_reply import MAX_REPLY_BYTES, fit_reply, reply_xml

NOTE = "\n…（太长了）"


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        ("短", 10, "短"),
        ("abcdef", 6, "abcdef"),
        ("你好世界", 9, "你好世"),  # 3 bytes each: the 4th would overflow
        ("你好世界", 8, "你好"),  # never half a character
        ("line one\nline two is long", 14, "line one"),  # whole line when near
        ("line one\nline two is long", 20, "line one\nline two is"),  # not when far
        ("😀😀", 5, "😀"),
    ],
)
def test_text_is_cut_on_a_character_and_line_boundary(text: str, limit: int, expected: str) -> None:
    assert fit_reply(text, limit=limit) == expected


def test_a_cut_reply_ends_with_the_note_and_fits() -> None:
    text = "很长的一行\n" * 1000
    reply = fit_reply(text, note=NOTE)
    assert reply.endswith(NOTE)
    assert len(reply.encode()) <= MAX_REPLY_BYTES


@given(st.text(), st.integers(min_value=0, max_value=300))
def test_any_text_fits_its_limit_and_is_a_prefix(text: str, limit: int) -> None:
    try:
        text.encode()
    except UnicodeEncodeError:
        return  # lone surrogates never come out of the parser
    reply = fit_reply(text, limit=limit)
    assert len(reply.encode()) <= max(limit, 0) or reply == text
    assert text.startswith(reply)


def test_reply_xml_escapes_markup() -> None:
    xml = reply_xml(to_user="u<1>", from_corp="ww", create_time=1, text="a]]>b & <c>")
    assert "<Content>a]]&gt;b &amp; &lt;c&gt;</Content>" in xml
    assert "<ToUserName>u&lt;1&gt;</ToUserName>" in xml
