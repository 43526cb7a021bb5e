"""deploy/env.example documents every setting the code reads, and nothing else."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[2]


def _names_in(text: str) -> set[str]:
    return set(re.findall(r"\b(?:KEEPER|WECOM)_[A-Z_]+\b", text))


def test_env_example_lists_every_setting_with_a_comment() -> None:
    code = _names_in((ROOT / "bot" / "settings.py").read_text())
    lines = (ROOT / "deploy" / "env.example").read_text().splitlines()
    documented = {line.split("=")[0] for line in lines if re.match(r"^[A-Z_]+=", line)}
    assert documented == code
    for i, line in enumerate(lines):
        if re.match(r"^[A-Z_]+=", line):
            assert lines[i - 1].startswith("#"), f"{line} has no comment above it"


def test_env_example_holds_no_secret_values() -> None:
    for line in (ROOT / "deploy" / "env.example").read_text().splitlines():
        if line.startswith(("WECOM_SECRET=", "WECOM_TOKEN=", "WECOM_AES_KEY=")):
            assert line.endswith("=")
