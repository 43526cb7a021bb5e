"""Redaction: configured secrets and URL/JSON credentials vanish; long texts are cut."""

from __future__ import annotations

import pytest

from scheduler.core.redact import ERROR_MAX_CHARS, redact

SECRET = "corp-secret-value-42"
TOKEN = "tok_Ab-Cd.Ef~Gh_123456"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"secret is {SECRET}.", "secret is ***."),
        (f"{SECRET}{SECRET}", "******"),
        (
            "GET /cgi-bin/gettoken?corpid=ww1&corpsecret=abc123",
            "GET /cgi-bin/gettoken?corpid=ww1&corpsecret=***",
        ),
        (
            f"POST /cgi-bin/message/send?access_token={TOKEN}",
            "POST /cgi-bin/message/send?access_token=***",
        ),
        ("https://x/send?key=KEY1&other=1", "https://x/send?key=***&other=1"),
        (
            "https://sctapi.ftqq.com/send?sendkey=SCT1 next",
            "https://sctapi.ftqq.com/send?sendkey=*** next",
        ),
        ("ACCESS_TOKEN=abc SECRET=def", "ACCESS_TOKEN=*** SECRET=***"),
        (
            '{"access_token": "abc", "expires_in": 7200}',
            '{"access_token": "***", "expires_in": 7200}',
        ),
        ('{"corpsecret":"abc"}', '{"corpsecret":"***"}'),
        ("monkey=banana", "monkey=banana"),  # "key" inside a word is not a key
        ("nothing to hide", "nothing to hide"),
    ],
)
def test_secrets_and_credentials_are_replaced(text: str, expected: str) -> None:
    assert redact(text, [SECRET, TOKEN]) == expected


def test_the_longest_secret_goes_first_so_none_is_left_half_visible() -> None:
    assert redact("abcdefgh", ["abcd", "abcdefgh"]) == "***"


@pytest.mark.parametrize("short", ["", "a", "tok"])
def test_secrets_shorter_than_four_characters_are_ignored(short: str) -> None:
    assert redact("access_token stays readable", [short]) == "access_token stays readable"


def test_a_long_text_is_cut_to_the_maximum_after_redaction() -> None:
    text = "x" * 495 + SECRET + "y" * 100
    result = redact(text, [SECRET], max_length=ERROR_MAX_CHARS)
    assert len(result) == ERROR_MAX_CHARS
    assert result.endswith("…")
    assert "corp-" not in result  # the cut did not leave the secret's front half


@pytest.mark.parametrize(
    ("max_length", "expected"), [(10, "abcdefghij"), (9, "abcdefgh…"), (1, "…"), (0, "")]
)
def test_cutting_keeps_at_most_max_length_characters(max_length: int, expected: str) -> None:
    assert redact("abcdefghij", max_length=max_length) == expected
