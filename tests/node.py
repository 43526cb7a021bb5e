"""Node.js for the mini-program client's tests (`node --test`, built-ins only).

Where `node` is missing the tests skip with the reason shown, unless
`KEEPER_REQUIRE_NODE=1` (set by `.ci/run`, whose machine has /usr/bin/node), in which
case they fail: CI never skips them.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

MINIPROGRAM = Path(__file__).parents[1] / "miniprogram"
REQUIRE_NODE = os.environ.get("KEEPER_REQUIRE_NODE") == "1"
NODE_TIMEOUT_S = 90


def node() -> str:
    """The `node` executable's path; skips (or, under KEEPER_REQUIRE_NODE=1, fails) without one."""
    found = shutil.which("node")
    if found is None:
        reason = "node is not on PATH (the mini-program client's tests need Node.js 20+)"
        if REQUIRE_NODE:
            pytest.fail(reason + " and KEEPER_REQUIRE_NODE=1")
        pytest.skip(reason)
    return found


def tap_counts(output: str) -> dict[str, int]:
    """The summary counts (`# tests 38`, `# pass 38`, ...) of a node --test TAP report."""
    return {name: int(n) for name, n in re.findall(r"^# (\w+) (\d+)$", output, re.MULTILINE)}
