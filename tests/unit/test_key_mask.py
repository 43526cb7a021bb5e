"""Key-like runs are masked before a message is stored, whatever separates their parts
(`handlers.parse.key_mask`, issue 20 item 5)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handlers.parse.key_mask import redact_sendkeys

KEY = "SCT12345TabcdEFGH6789"
KEPT = 5  # `channels.mask` keeps the first five and the last two characters


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("绑定 Server酱 SCT12345 TabcdEFGH6789", "绑定 Server酱 SCT12…89"),
        ("绑定 Server酱 SCT12345-TabcdEFGH6789", "绑定 Server酱 SCT12…89"),
        ("绑定 Server酱 SCT12345_TabcdEFGH6789", "绑定 Server酱 SCT12…89"),
        ("绑定 Server酱 SCT12345\u200bTabcdEFGH6789", "绑定 Server酱 SCT12…89"),
        ("绑定 Server酱 SCT12345\nTabcdEFGH\r\n6789", "绑定 Server酱 SCT12…89"),
        ("绑定 Server酱 S C T 1 2 3 4 5 T a b c d", "绑定 Server酱 SCT12…cd"),
        ("绑定 Server酱 sct12345tabcdefgh", "绑定 Server酱 sct12…gh"),
        ("绑定 Server酱 ＳＣＴ１２３４５－Ｔａｂｃｄ　ＥＦＧＨ", "绑定 Server酱 SCT12…GH"),
        ("绑定 WxPusher SPT_AbCd1234 EfGh5678", "绑定 WxPusher SPTAb…78"),
        ("请帮我绑定 SCT12345TabcdEFGH6789，谢谢", "请帮我绑定 SCT12…89，谢谢"),
        ("绑定 Server酱 SCT12345 三楼 TabcdEFGH", "绑定 Server酱 SCT12345 三楼 TabcdEFGH"),
        # any message: a key typed as one word (glued, `SPT_`, zero-width inside)
        (f"我的key是{KEY}", "我的key是SCT12…89"),
        ("推送码 SPT_AbCd1234EfGh5678 记一下", "推送码 SPTAb…78 记一下"),
        ("看看 S\u200bCT12345TabcdEFGH6789", "看看 SCT12…89"),
        # kept: an address, too short to be a key, or not a message about keys
        ("绑定 WxPusher UID_AbCd1234efGH", "绑定 WxPusher UID_AbCd1234efGH"),
        ("SCT 三楼", "SCT 三楼"),
        ("绑定 Server酱 SCT1234", "绑定 Server酱 SCT1234"),
        ("日记 SCT-2026-11-30 notes 复盘", "日记 SCT-2026-11-30 notes 复盘"),
        ("记账 35 午饭", "记账 35 午饭"),
    ],
)
def test_key_like_runs_are_masked_before_the_message_is_stored(text: str, stored: str) -> None:
    assert redact_sendkeys(text) == stored


SEPARATORS = (
    " ", "  ", "-", "_", "\u200b", "\u200c", "\u200d", "\ufeff", "\n", "\r\n", "\t",
    "\u3000", "－", "＿", "，", "。", "、", ".", "/", ":", "：", "·", " - ", "\n\n",
)  # fmt: skip
SEPARATOR_CHARS = "".join(sorted(set("".join(SEPARATORS))))
MESSAGES = (
    "绑定 Server酱 {}",
    "绑定Server酱{}",
    "绑定 server chan {}",
    "绑定 方糖：{}",
    "绑定 WxPusher {}",
    "请帮我绑定一下 {} 谢谢",
    "绑定\n{}\n",
)


def _full_width(char: str) -> str:
    return chr(ord(char) + 0xFEE0)


@st.composite
def sendkey_like(draw: st.DrawFn) -> str:
    """A key's characters: a prefix in any case and 8-48 letters or digits."""
    prefix = draw(st.sampled_from(["SCT", "SPT", f"sctp{draw(st.integers(1, 99999))}t"]))
    prefix = "".join(c.upper() if draw(st.booleans()) else c.lower() for c in prefix)
    alphabet = st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    return prefix + "".join(draw(st.lists(alphabet, min_size=8, max_size=48)))


@st.composite
def typed(draw: st.DrawFn, key: str) -> str:
    """`key` as a person might paste it: separators between any characters, some
    characters full-width."""
    out = []
    for i, char in enumerate(key):
        if i and draw(st.integers(0, 3)) == 0:
            out.append(draw(st.sampled_from(SEPARATORS)))
        out.append(_full_width(char) if draw(st.integers(0, 5)) == 0 else char)
    return "".join(out)


def _spread(window: str) -> re.Pattern[str]:
    """`window`'s characters in order, in either width, any of the separators between."""
    gap = f"[{re.escape(SEPARATOR_CHARS)}]*"
    classes = [f"[{re.escape(c)}{re.escape(_full_width(c))}]" for c in window]
    return re.compile(gap.join(classes), re.IGNORECASE)


@given(data=st.data())
def test_no_run_of_a_separated_keys_characters_longer_than_the_mask_keeps_is_stored(
    data: st.DataObject,
) -> None:
    key = data.draw(sendkey_like())
    message = data.draw(st.sampled_from(MESSAGES))
    stored = redact_sendkeys(message.format(data.draw(typed(key))))
    windows = {key[i : i + KEPT + 1] for i in range(len(key) - KEPT)}
    left = [w for w in windows if _spread(w).search(stored) and not _spread(w).search(message)]
    assert left == [], stored
