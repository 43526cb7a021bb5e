"""The mini-program client's own tests (`node --test miniprogram/test/`), run from pytest
so `make test` and CI cover the JavaScript too."""

from __future__ import annotations

import subprocess

from tests.node import MINIPROGRAM, NODE_TIMEOUT_S, node, tap_counts


def test_the_mini_program_client_tests_pass_under_node() -> None:
    run = subprocess.run(
        [node(), "--test", "--test-reporter=tap", "test/"],
        cwd=MINIPROGRAM,
        capture_output=True,
        text=True,
        timeout=NODE_TIMEOUT_S,
        check=False,
    )
    counts = tap_counts(run.stdout)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert counts.get("tests", 0) > 0, run.stdout[-2000:]
    assert counts.get("fail") == 0
    assert counts.get("pass", 0) >= 30  # the client tests, not only the helper files
