"""Every benchmark script still starts: `--help` answers its usage.

The benchmarks are scripts, not tests, so nothing else notices when a change elsewhere
breaks one (a renamed constant once stopped `bench/scheduler.py` at import).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
SCRIPTS = ["backup.py", "callback.py", "pages.py", "parse.py", "scheduler.py"]


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_benchmark_script_starts(script: str) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / script), "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=BENCH.parent,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("usage:")


def test_every_script_with_a_main_is_listed() -> None:
    runnable = {p.name for p in BENCH.glob("*.py") if "__main__" in p.read_text()}
    helpers = {"callback_load.py", "reference_app.py"}  # started by callback.py itself
    assert runnable - helpers == set(SCRIPTS)
