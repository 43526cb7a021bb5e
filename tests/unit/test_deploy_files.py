"""The deploy kit works as written: every file is parsed and checked against the code.

compose.yaml, the systemd units, env.example, nginx.conf, .gitignore and .dockerignore:
every command they run exists in the CLI, every variable they set exists in settings,
and every setting is documented in env.example.
"""

from __future__ import annotations

import argparse
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.cli import _parser
from tests.nginx_conf import Access, parse, servers

ROOT = Path(__file__).parents[2]
DEPLOY = ROOT / "deploy"
UNITS = ("keeper-web.service", "keeper-worker.service")
HARDENING = ("NoNewPrivileges", "ProtectSystem", "ProtectHome", "PrivateTmp")


def _names_in(text: str) -> set[str]:
    return set(re.findall(r"\b(?:KEEPER|WECOM)_[A-Z_]+\b", text))


SETTINGS = _names_in((ROOT / "bot" / "settings.py").read_text())


def _compose() -> dict[str, Any]:
    loaded = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    assert isinstance(loaded, dict)
    return loaded


def _unit(name: str) -> dict[str, list[str]]:
    """A systemd unit as {"Section.Key": [values...]} (keys may repeat)."""
    section, parsed = "", {}
    for line in (DEPLOY / "systemd" / name).read_text().splitlines():
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
        elif "=" in line and not line.startswith(("#", ";")):
            key, value = line.split("=", 1)
            parsed.setdefault(f"{section}.{key.strip()}", []).append(value.strip())
    return parsed


def _cli_commands() -> set[str]:
    sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    return set(sub.choices)


def _assert_keeper_command(argv: list[str]) -> None:
    """`argv` is a `keeper` command line the CLI accepts (parsed, not run)."""
    assert Path(argv[0]).name == "keeper", argv
    assert argv[1] in _cli_commands(), argv
    _parser().parse_args(argv[1:])


def test_env_example_lists_every_setting_with_a_comment() -> None:
    lines = (DEPLOY / "env.example").read_text().splitlines()
    documented = {line.split("=")[0] for line in lines if re.match(r"^[A-Z_]+=", line)}
    assert documented == SETTINGS
    for i, line in enumerate(lines):
        if re.match(r"^[A-Z_]+=", line):
            assert lines[i - 1].startswith("#"), f"{line} has no comment above it"


def test_env_example_holds_no_secret_values() -> None:
    for line in (DEPLOY / "env.example").read_text().splitlines():
        if line.startswith(("WECOM_SECRET=", "WECOM_TOKEN=", "WECOM_AES_KEY=")):
            assert line.endswith("=")


def test_env_example_leaves_reminders_to_the_worker_the_units_start() -> None:
    lines = (DEPLOY / "env.example").read_text().splitlines()
    assert "KEEPER_SCHEDULER=off" in lines
    assert _unit("keeper-worker.service")["Service.ExecStart"][0].endswith("keeper worker")


def test_compose_runs_migrate_once_then_web_and_worker() -> None:
    services = _compose()["services"]
    assert set(services) == {"db", "migrate", "web", "worker"}
    assert services["migrate"]["command"] == ["keeper", "migrate"]
    assert services["migrate"]["restart"] == "no"
    assert services["web"]["command"] == ["keeper", "serve"]
    assert services["worker"]["command"] == ["keeper", "worker"]
    for name in ("web", "worker"):
        depends = services[name]["depends_on"]
        assert depends["migrate"] == {"condition": "service_completed_successfully"}
        assert depends["db"] == {"condition": "service_healthy"}


@pytest.mark.parametrize("name", ["migrate", "web", "worker"])
def test_every_compose_command_exists_in_the_cli(name: str) -> None:
    _assert_keeper_command(_compose()["services"][name]["command"])


@pytest.mark.parametrize("name", ["migrate", "web", "worker"])
def test_every_variable_compose_sets_is_a_setting(name: str) -> None:
    environment = _compose()["services"][name]["environment"]
    assert set(environment) <= SETTINGS
    assert environment["KEEPER_SCHEDULER"] == "off"  # the worker sends, not web


def test_compose_builds_the_database_url_from_mariadbs_own_secret() -> None:
    compose = _compose()
    services = compose["services"]
    db_secret = services["db"]["environment"]["MARIADB_PASSWORD_FILE"]
    assert db_secret == "/run/secrets/db_password"
    for name in ("migrate", "web", "worker"):
        env = services[name]["environment"]
        assert "db_password" in services[name]["secrets"]
        assert env["KEEPER_DATABASE_PASSWORD_FILE"] == db_secret
        assert env["KEEPER_DATABASE_URL"].startswith("mysql://keeper@db:3306/")  # asyncmy
        assert ":" not in env["KEEPER_DATABASE_URL"].split("//")[1].split("@")[0]
    assert compose["secrets"]["db_password"]["file"] == "./db_password.txt"


def test_compose_web_listens_on_all_container_addresses_but_publishes_on_loopback() -> None:
    web = _compose()["services"]["web"]
    # `environment` overrides env_file in compose: env.example's 127.0.0.1 cannot win.
    assert web["environment"]["KEEPER_HOST"] == "0.0.0.0"
    assert web["env_file"] == "keeper.env"
    assert web["ports"] == ["127.0.0.1:8080:8080"]


def test_compose_keeps_the_database_on_a_volume() -> None:
    compose = _compose()
    assert "db:/var/lib/mysql" in compose["services"]["db"]["volumes"]
    assert "db" in compose["volumes"]


def test_compose_keeps_the_workers_backups_in_a_host_folder() -> None:
    assert "./backups:/var/backups/keeper" in _compose()["services"]["worker"]["volumes"]
    assert "deploy/backups/" in (ROOT / ".gitignore").read_text().splitlines()


def test_the_image_copies_every_package_the_project_installs() -> None:
    """`pip install .` in the image finds only what was copied: a package missing
    here (services/ once was) builds fine and fails at the first import."""
    include = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"
    ]["find"]["include"]
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    for pattern in include:
        package = pattern.rstrip("*")
        assert f"COPY {package} {package}\n" in dockerfile, package


def test_the_build_context_leaves_out_the_virtualenv_and_secrets() -> None:
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    for pattern in (".venv/", ".git/", "*.db", "deploy/keeper.env", "deploy/db_password.txt"):
        assert pattern in ignored
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert "ENV KEEPER_HOST=0.0.0.0" in dockerfile


def test_git_ignores_the_deployment_secrets() -> None:
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    assert {"deploy/keeper.env", "deploy/db_password.txt"} <= set(ignored)


@pytest.mark.parametrize("name", UNITS)
def test_every_unit_command_exists_in_the_cli(name: str) -> None:
    unit = _unit(name)
    commands = unit["Service.ExecStart"] + unit.get("Service.ExecStartPre", [])
    for command in commands:
        _assert_keeper_command(shlex.split(command))
    for assignment in unit.get("Service.Environment", []):
        assert assignment.split("=")[0] in SETTINGS


def test_the_images_default_command_exists_in_the_cli() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    [cmd] = re.findall(r"^CMD (\[.*\])$", dockerfile, re.MULTILINE)
    _assert_keeper_command(yaml.safe_load(cmd))
    for name in re.findall(r"\b((?:KEEPER|WECOM)_[A-Z_]+)=", dockerfile):
        assert name in SETTINGS


@pytest.mark.parametrize("name", UNITS)
def test_units_create_their_user_and_state_directory_and_are_hardened(name: str) -> None:
    unit = _unit(name)
    assert unit["Service.DynamicUser"] == ["yes"]
    assert unit["Service.StateDirectory"] == ["keeper"]
    assert unit["Service.WorkingDirectory"] == ["/var/lib/keeper"]
    assert unit["Service.ProtectSystem"] == ["strict"]
    for key in HARDENING:
        assert f"Service.{key}" in unit
    assert unit["Service.EnvironmentFile"] == ["/etc/keeper/keeper.env"]
    assert unit["Install.WantedBy"] == ["multi-user.target"]


def test_the_web_unit_migrates_before_serving_and_the_worker_starts_after_it() -> None:
    web, worker = _unit("keeper-web.service"), _unit("keeper-worker.service")
    assert shlex.split(web["Service.ExecStartPre"][0])[1:] == ["migrate"]
    assert shlex.split(web["Service.ExecStart"][0])[1:] == ["serve"]
    assert "keeper-web.service" in worker["Unit.After"][0].split()


def test_nginx_redirects_port_80_answers_acme_and_forwards_only_keepers_paths() -> None:
    conf = (DEPLOY / "nginx.conf").read_text()
    code = "\n".join(line.split("#")[0] for line in conf.splitlines())
    assert re.search(r"listen 80;", code)
    assert "/.well-known/acme-challenge/" in code
    assert "return 301 https://$host$request_uri;" in code
    _, tls = (d.block or () for d in parse(conf) if d.name == "server")  # :80, then TLS
    # nginx before 1.25.1 (Debian 12 ships 1.22) refuses `http2 on;`; every one reads this.
    assert [d.args for d in tls if d.name == "listen"] == [
        ("443", "ssl", "http2"),
        ("[::]:443", "ssl", "http2"),
    ]
    assert "http2" not in {d.name for d in tls}
    https = next(server for server in servers(conf) if server.https)
    forwarded = [loc.pattern for loc in https.locations if loc.access is not Access.CLOSED]
    assert forwarded == ["/wecom/callback", "/web/", "/api/mp/", "/healthz"]


def _readme_deploy_section() -> str:
    readme = (ROOT / "docs" / "operations.md").read_text()  # the README links to it
    return readme[readme.index("## Running it for real") : readme.index("## The processes")]


def test_every_keeper_command_in_the_readme_steps_exists_in_the_cli() -> None:
    said = set(re.findall(r"(?:/bin/|`|web )keeper ([a-z]+)", _readme_deploy_section()))
    assert {"doctor", "migrate", "menu", "tick"} <= said
    assert said <= _cli_commands()


def test_the_readme_enables_both_units_and_follows_wecoms_order() -> None:
    section = _readme_deploy_section()
    assert "systemctl enable --now keeper-web keeper-worker" in section
    for unit in UNITS:
        assert (DEPLOY / "systemd" / unit).is_file()
    order = ["可见范围", "企业可信IP", "enable --now", "→ 保存", "上报进入应用事件", "menu install"]
    positions = [section.index(word) for word in order]
    assert positions == sorted(positions)
