"""`deploy/make-keys.sh`, the deploy kit's maker of keeper's own keys (issue 22): on a
copy of env.example as the operations steps use it, it fills in KEEPER_DATA_KEY and
KEEPER_WEB_SECRET with fresh keys the settings accept, keeps them on a second run,
keeps the file's mode, and prints names, never a value."""

from __future__ import annotations

import re
import shutil
import stat
import subprocess
from pathlib import Path

from bot.settings import load_settings
from tests.settings_env import GOOD

ROOT = Path(__file__).parents[2]
SCRIPT = ROOT / "deploy" / "make-keys.sh"
NAMES = ("KEEPER_DATA_KEY", "KEEPER_WEB_SECRET")


def _run(env_file: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", str(SCRIPT), str(env_file)], capture_output=True, text=True, timeout=30, check=False
    )


def _values(env_file: Path) -> dict[str, str]:
    lines = env_file.read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if re.match(r"^[A-Z_]+=", line))


def test_it_fills_in_both_keys_once_and_keeps_them(tmp_path: Path) -> None:
    env_file = tmp_path / "keeper.env"
    shutil.copy(ROOT / "deploy" / "env.example", env_file)
    env_file.chmod(0o600)

    first = _run(env_file)
    made = _values(env_file)
    second = _run(env_file)

    assert first.returncode == 0, first.stderr
    assert second.returncode == 0, second.stderr
    for name in NAMES:
        assert re.fullmatch(r"[A-Za-z0-9_-]{43}", made[name]), name
        assert f"{name} set in" in first.stdout
        assert f"{name} is already set" in second.stdout
        assert made[name] not in first.stdout + first.stderr + second.stdout + second.stderr
    assert made["KEEPER_DATA_KEY"] != made["KEEPER_WEB_SECRET"]
    assert _values(env_file) == made  # a second run changes nothing
    assert made["KEEPER_DATA_KEY_PREVIOUS"] == made["KEEPER_WEB_SECRET_PREVIOUS"] == ""
    assert stat.S_IMODE(env_file.stat().st_mode) == 0o600
    settings = load_settings({**GOOD, **{n: made[n] for n in NAMES}})
    assert settings.key_ring().current is not None
    assert settings.web.secret == made["KEEPER_WEB_SECRET"]


def test_it_appends_a_key_the_file_does_not_name(tmp_path: Path) -> None:
    env_file = tmp_path / "keeper.env"
    env_file.write_text("WECOM_CORP_ID=ww1\nKEEPER_WEB_SECRET=" + "k" * 40 + "\n")

    done = _run(env_file)

    values = _values(env_file)
    assert done.returncode == 0
    assert values["KEEPER_WEB_SECRET"] == "k" * 40  # set already: kept
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", values["KEEPER_DATA_KEY"])


def test_it_refuses_a_file_that_does_not_exist(tmp_path: Path) -> None:
    done = _run(tmp_path / "missing.env")
    assert done.returncode == 2
    assert "copy deploy/env.example first" in done.stderr
    assert not (tmp_path / "missing.env").exists()
