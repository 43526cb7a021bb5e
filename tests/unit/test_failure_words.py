"""A failed send's reason in words a person can act on (scheduler/core/failure_words.py)."""

from __future__ import annotations

import pytest

from scheduler.channels.wecom_errors import TABLE
from scheduler.core.failure_words import BY_CLASS, BY_CODE, failure_words


@pytest.mark.parametrize(
    ("note", "words"),
    [
        ("config: 60020", "服务器 IP 不在企业可信 IP 中"),
        ("config: 40001", "应用的 Secret 不对"),
        ("permanent: 81013", "企业微信找不到你的账号"),
        ("config: 48002", "应用没有发消息的权限"),
        ("config: None", "服务器配置有误"),  # a proxy's 4xx: no provider code
        ("permanent: 99999", "企业微信拒收"),  # a code we do not know
        ("transient errors; attempts exhausted", "企业微信一直忙，重试几次都没成功"),
        ("uncertain result; not resent", ""),  # the "how" already says it
        ("", ""),
    ],
)
def test_a_notes_reason_becomes_plain_words(note: str, words: str) -> None:
    assert failure_words(note) == words


def test_every_code_with_words_is_one_the_channel_fails_or_retries_on() -> None:
    for code in BY_CODE:
        assert TABLE[code].outcome in ("failed", "retry"), code


def test_every_failing_class_of_the_channel_has_words() -> None:
    classes = {rule.error_class for rule in TABLE.values() if rule.outcome == "failed"}
    assert classes <= set(BY_CLASS)
