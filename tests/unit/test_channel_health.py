"""The health word `设置 渠道` shows for a channel (`handlers.channels.health`), as a table."""

from __future__ import annotations

import pytest

from handlers.channels import health


@pytest.mark.parametrize(
    ("configured", "held", "unreadable", "recent", "word"),
    [
        (False, True, True, ["accepted"], "off"),
        (True, True, True, ["accepted"], "unreadable"),
        (True, True, False, ["accepted"], "held"),
        (True, False, False, [], "idle"),
        (True, False, False, ["accepted", "failed:config"], "ok"),
        (True, False, False, ["failed:permanent", "accepted"], "failed"),
        (True, False, False, ["unknown"], "unknown"),
        (True, False, False, ["retry"], "retry"),
    ],
)
def test_the_health_word_table(
    configured: bool, held: bool, unreadable: bool, recent: list[str], word: str
) -> None:
    assert health(configured=configured, held=held, unreadable=unreadable, recent=recent) == word
