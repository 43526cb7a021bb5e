"""Settings: read once from the environment (and an optional `.env`), validated, frozen.

This is the only module that reads `os.environ`. Everything else receives a
`Settings`, one of its groups, or plain values taken from them. A missing or malformed
variable raises `SettingsError` naming the variable; a secret's value never appears
in any message and is hidden from `repr`.

`Settings` is one small frozen group per concern. Each is built and validated from the
environment by its own function below, named after it (`_database`, `_operations`, ...;
`load_settings` calls them in this order), which names the variables it reads:

| `settings.` | group | what it holds |
|---|---|---|
| `database` | `DatabaseSettings` | the database URL (and its password file) |
| `operations` | `OperationsSettings` | zone, admins, scheduler, logs, metrics, retention |
| `web` | `WebSettings` | listen address, public URL, signing key (and the previous one), trusted proxies |
| `data` | `DataSettings` | the data key sealing stored secrets (and the previous one) |
| `wecom` | `WeComSettings` | the app's credentials, API base, callback window, daily quota |
| `channels` | `ChannelSettings` | the extra channels' credentials and API bases, admin alerts |
| `mp` | `MiniProgramSettings` | the mini-program's AppID, secret, template, API base |
| `backup` | `BackupSettings` | the daily backup's key, folder, time, copies kept |

The handlers see the groups they read through `handlers.deployment.Deployment`, which
`bot.app.deployment_of` builds from these.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import hashlib
import hmac
import ipaddress
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from bot.forwarded import LOOPBACK, Network
from handlers.texts import CONSOLE_CORP_ID, UNDO_COMMAND
from scheduler.core.retention_policy import (
    DEFAULT_DAYS,
    MAXIMUM_DAYS,
    MINIMUM_DAYS,
    Family,
    Periods,
)
from scheduler.core.texts.channels import SERVERCHAN
from storage.engine import MYSQL_DRIVERS
from storage.secret_box import DataKey, KeyRing, legacy_key

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///keeper.db"
MYSQL_SCHEMES = ("", *(f"+{driver}" for driver in MYSQL_DRIVERS))
DEFAULT_API_BASE = "https://qyapi.weixin.qq.com"
DEFAULT_CALLBACK_WINDOW_SECONDS = 600

# -- extra channels (issue 12): every one optional, each with its own credential -------
DEFAULT_WXPUSHER_API_BASE = "https://wxpusher.zjiecode.com"
DEFAULT_SERVERCHAN_API_BASE = "https://sctapi.ftqq.com"
DEFAULT_WECHAT_API_BASE = "https://api.weixin.qq.com"

WEB_KEY_LABEL = b"keeper web session key v1"
"""The label the session key is derived under when KEEPER_WEB_SECRET is unset."""


class SettingsError(Exception):
    """A setting is missing or malformed. The message names it, never its value."""


# -- the groups -------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True, slots=True)
class DatabaseSettings:
    """Where the records are."""

    url: str = field(default=DEFAULT_DATABASE_URL, repr=False)  # may hold a password

    def secrets(self) -> tuple[str, ...]:
        """The URL's password, if it has one."""
        password = make_url(self.url).password
        return (str(password),) if password else ()


@dataclass(frozen=True, kw_only=True, slots=True)
class OperationsSettings:
    """How the deployment runs: its zone, its admins, the scheduler, logs, metrics, retention."""

    timezone: ZoneInfo = field(default_factory=lambda: ZoneInfo("Asia/Shanghai"))
    """KEEPER_TIMEZONE: new members' zone, and the zone of the daily runs."""
    admins: frozenset[str] = frozenset()
    scheduler_on: bool = False
    log_format: str = "text"
    log_level: str = "INFO"
    metrics_host: str = "127.0.0.1"
    metrics_port: int | None = None
    retention: Periods = field(default_factory=Periods)
    """What the daily retention run keeps: KEEPER_RETAIN_MESSAGES_DAYS, _JOBS_DAYS, _LINKS_DAYS."""


@dataclass(frozen=True, kw_only=True, slots=True)
class WebSettings:
    """The web process: where it listens, where people open the pages, whom it believes."""

    host: str = "127.0.0.1"
    port: int = 8080
    public_url: str = ""
    """KEEPER_PUBLIC_URL: where links point (pages and export; issue 13); empty: no links."""
    secret: str = field(default="", repr=False)
    """KEEPER_WEB_SECRET: the signing key of cookies, mini-program tokens and link
    codes when set (see `Settings.web_key`); it seals nothing stored."""
    secret_previous: str = field(default="", repr=False)
    """KEEPER_WEB_SECRET_PREVIOUS: the signing key before a rotation; what it signed is
    still believed until it expires (`Settings.previous_web_keys`)."""
    trusted_proxies: tuple[Network, ...] = LOOPBACK
    """KEEPER_TRUSTED_PROXIES: the reverse proxies whose X-Forwarded-For is believed
    (`bot.forwarded`), addresses or networks, comma-separated; loopback by default."""

    def secrets(self) -> tuple[str, ...]:
        """KEEPER_WEB_SECRET and KEEPER_WEB_SECRET_PREVIOUS, when set."""
        return tuple(s for s in (self.secret, self.secret_previous) if s)


@dataclass(frozen=True, kw_only=True, slots=True)
class DataSettings:
    """The data key (issue 22): it seals the secrets keeper stores (users' Server酱
    SendKeys) and nothing else, so no other secret's rotation touches them."""

    key: str = field(default="", repr=False)
    """KEEPER_DATA_KEY: every new seal uses it; empty: nothing can be sealed (binding
    a SendKey is refused) and `keeper doctor` prints a fresh one to set."""
    previous: str = field(default="", repr=False)
    """KEEPER_DATA_KEY_PREVIOUS: the data key before a rotation, still opening what it
    sealed until `keeper rekey` has re-sealed it under KEEPER_DATA_KEY."""

    def secrets(self) -> tuple[str, ...]:
        """KEEPER_DATA_KEY and KEEPER_DATA_KEY_PREVIOUS, when set."""
        return tuple(s for s in (self.key, self.previous) if s)


@dataclass(frozen=True, kw_only=True, slots=True)
class WeComSettings:
    """The WeCom self-built app: its credentials, its API, its callback, its quota."""

    corp_id: str = ""
    agent_id: int = 0
    secret: str = field(default="", repr=False)
    token: str = field(default="", repr=False)
    aes_key: str = field(default="", repr=False)
    api_base: str = DEFAULT_API_BASE
    """WECOM_API_BASE: WeCom's host, which also serves the group robot."""
    callback_window_seconds: int = DEFAULT_CALLBACK_WINDOW_SECONDS
    daily_cap: int | None = None
    """KEEPER_WECOM_DAILY_CAP: the app's daily send quota (licensed members x 200);
    None: not counted."""

    def secrets(self) -> tuple[str, ...]:
        """The app's Secret, Token and EncodingAESKey, when set."""
        return tuple(s for s in (self.secret, self.token, self.aes_key) if s)


@dataclass(frozen=True, kw_only=True, slots=True)
class ChannelSettings:
    """The extra channels (issue 12), each off while its credential is empty, and where
    admin alerts go."""

    robot_key: str = field(default="", repr=False)
    wxpusher_app_token: str = field(default="", repr=False)
    wxpusher_api_base: str = DEFAULT_WXPUSHER_API_BASE
    serverchan_sendkey: str = field(default="", repr=False)
    serverchan_api_base: str = DEFAULT_SERVERCHAN_API_BASE
    wecomchan_url: str = field(default="", repr=False)  # holds the relay's sendkey
    # Admin alerts (issue 12 item 3): the channel's name as the scheduler knows it
    # ("wecom_robot", ...; "" = no alert channel: the WeCom app is the fallback road),
    # and the recipient on it ("" = the first admin; a UID_... for WxPusher).
    alert_channel: str = ""
    alert_to: str = ""

    @property
    def user_channels(self) -> frozenset[str]:
        """The channels a user's reminders may take here: the WeCom app, Server酱 with the
        user's own SendKey (needs nothing of keeper's), WxPusher when its app token is set."""
        on = {"wecom_app", "serverchan_user"}
        return frozenset(on | ({"wxpusher"} if self.wxpusher_app_token else set()))

    def secrets(self) -> tuple[str, ...]:
        """The extra channels' credentials (of the relay's URL, its sendkey)."""
        relay_key = parse_qs(urlsplit(self.wecomchan_url).query).get("sendkey", [""])[0]
        values = (self.robot_key, self.wxpusher_app_token, self.serverchan_sendkey)
        return tuple(s for s in (*values, relay_key) if s)


@dataclass(frozen=True, kw_only=True, slots=True)
class MiniProgramSettings:
    """The water mini-program (issue 12 item 5); empty appid/secret: its API answers 503."""

    appid: str = ""
    secret: str = field(default="", repr=False)
    template_id: str = ""
    api_base: str = DEFAULT_WECHAT_API_BASE
    """KEEPER_WECHAT_API_BASE: WeChat's host (the mini-program's login and sends)."""

    @property
    def configured(self) -> bool:
        """Whether the mini-program API is on: its AppID and AppSecret are both set."""
        return bool(self.appid and self.secret)

    def secrets(self) -> tuple[str, ...]:
        """The AppSecret, when set."""
        return tuple(s for s in (self.secret,) if s)


@dataclass(frozen=True, kw_only=True, slots=True)
class BackupSettings:
    """The scheduler's daily encrypted backups."""

    key: str = field(default="", repr=False)  # KEEPER_BACKUP_KEY, see `_backup_key`
    directory: Path | None = None
    """KEEPER_BACKUP_DIR: where the scheduler's daily backups go (None: none are made)."""
    at: dt.time = dt.time(3, 30)
    """KEEPER_BACKUP_AT: the daily backup's local time, in KEEPER_TIMEZONE."""
    keep: int = 14
    """KEEPER_BACKUP_KEEP: how many `keeper-*.kbak` files the directory keeps."""

    @property
    def on(self) -> bool:
        """Whether scheduled backups are made (KEEPER_BACKUP_DIR is set)."""
        return self.directory is not None

    def secrets(self) -> tuple[str, ...]:
        """KEEPER_BACKUP_KEY, when set."""
        return tuple(s for s in (self.key,) if s)


@dataclass(frozen=True, kw_only=True, slots=True)
class Settings:
    """Everything configurable, validated, one group per concern. Secrets are excluded
    from `repr` in every group."""

    database: DatabaseSettings = field(default_factory=DatabaseSettings)
    operations: OperationsSettings = field(default_factory=OperationsSettings)
    web: WebSettings = field(default_factory=WebSettings)
    data: DataSettings = field(default_factory=DataSettings)
    wecom: WeComSettings = field(default_factory=WeComSettings)
    channels: ChannelSettings = field(default_factory=ChannelSettings)
    mp: MiniProgramSettings = field(default_factory=MiniProgramSettings)
    backup: BackupSettings = field(default_factory=BackupSettings)

    def web_key(self) -> bytes:
        """The signing key: the HMAC key of the pages' session cookies, and the key the
        mini-program's token and link-code keys are derived from (`bot.mp.auth`).

        KEEPER_WEB_SECRET when set; otherwise derived from WECOM_SECRET as
        HMAC-SHA256(WECOM_SECRET, WEB_KEY_LABEL), so the demo and a first start need no
        new secret and the cookie key is never the WeCom secret itself (`keeper doctor`
        asks for a key of its own: resetting the app's Secret then signs nobody out).
        It signs what expires on its own and seals nothing stored, so rotating it
        loses no data: KEEPER_WEB_SECRET_PREVIOUS keeps what it signed valid meanwhile.
        """
        if self.web.secret:
            return self.web.secret.encode()
        return hmac.new(self.wecom.secret.encode(), WEB_KEY_LABEL, hashlib.sha256).digest()

    def previous_web_keys(self) -> tuple[bytes, ...]:
        """Signing keys still believed (never used to sign): KEEPER_WEB_SECRET_PREVIOUS
        during a rotation, else none."""
        return (self.web.secret_previous.encode(),) if self.web.secret_previous else ()

    def key_ring(self) -> KeyRing:
        """The keys stored secrets are sealed and opened with (`storage.secret_box`).

        KEEPER_DATA_KEY seals; it and KEEPER_DATA_KEY_PREVIOUS open by key id. The keys
        values were sealed with before issue 22 (derived from KEEPER_WEB_SECRET, its
        previous value, or WECOM_SECRET) open the old values only, until `keeper rekey`
        moves them: none of those secrets is needed by the data once it has run.
        """
        legacy = (self.web.secret, self.web.secret_previous, self.wecom.secret)
        return KeyRing(
            current=DataKey.from_text(self.data.key) if self.data.key else None,
            previous=DataKey.from_text(self.data.previous) if self.data.previous else None,
            legacy=tuple(legacy_key(s) for s in dict.fromkeys(legacy) if s),
        )

    def secrets(self) -> tuple[str, ...]:
        """The configured secret values of every group, for log redaction and leak tests."""
        return (
            *self.wecom.secrets(),
            *self.database.secrets(),
            *self.web.secrets(),
            *self.data.secrets(),
            *self.backup.secrets(),
            *self.mp.secrets(),
            *self.channels.secrets(),
        )


def load_settings(
    environ: Mapping[str, str] | None = None, *, dotenv: Path | None = Path(".env")
) -> Settings:
    """Build `Settings` from `environ` (default: the process environment plus `.env`).

    Raises:
        SettingsError: naming the first missing or malformed variable.
    """
    env = _environment(environ, dotenv)
    return Settings(
        database=_database(env),
        operations=_operations(env),
        web=_web(env),
        data=_data(env),
        wecom=_wecom(env),
        channels=_channels(env),
        mp=_mp(env),
        backup=_backup(env),
    )


def _environment(environ: Mapping[str, str] | None, dotenv: Path | None) -> dict[str, str]:
    """`environ`, or the process environment over the `.env` file's values."""
    env = dict(_read_dotenv(dotenv)) if environ is None and dotenv else {}
    env.update(os.environ if environ is None else environ)
    return env


def _read_dotenv(path: Path) -> dict[str, str]:
    if not path.is_file():
        return {}
    from dotenv import dotenv_values  # optional convenience, read once at start-up

    return {k: v for k, v in dotenv_values(path).items() if v is not None}


# -- the database -----------------------------------------------------------------------


def _database(env: Mapping[str, str]) -> DatabaseSettings:
    return DatabaseSettings(url=_database_url(env))


def load_database_url(
    environ: Mapping[str, str] | None = None,
    *,
    dotenv: Path | None = Path(".env"),
    required: bool = False,
) -> str:
    """Only the database URL: what `keeper migrate` needs, without the WeCom settings.

    `required`: refuse instead of falling back to ./keeper.db when KEEPER_DATABASE_URL
    is unset (a restore must never land in a new file in whatever folder it ran from).
    """
    env = _environment(environ, dotenv)
    if required and not env.get("KEEPER_DATABASE_URL", "").strip():
        raise SettingsError(
            "name the database to restore into: set KEEPER_DATABASE_URL or pass --database-url"
        )
    return _database_url(env)


def mask_database_url(url: str) -> str:
    """`url` with its password (if any) replaced by `***`."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "(an unparsable URL)"


DATABASE_SCHEMES = (
    "sqlite+aiosqlite://",
    *(f"{backend}{driver}://" for backend in ("mysql", "mariadb") for driver in MYSQL_SCHEMES),
)
"""What a database URL may start with (KEEPER_DATABASE_URL, `keeper restore --database-url`):
`mysql://` (or `mariadb://`) gets the default driver when the engine is made
(`storage.engine.with_driver`); the URL is kept as written, so messages name it so."""


_SCHEMES_TOLD = (
    f"e.g. mysql://keeper@127.0.0.1:3306/keeper ({MYSQL_DRIVERS[0]}; "
    f"mysql+{MYSQL_DRIVERS[1]}:// for {MYSQL_DRIVERS[1]})"
)


def _database_url(env: Mapping[str, str]) -> str:
    """KEEPER_DATABASE_URL, with the password from KEEPER_DATABASE_PASSWORD_FILE if set.

    The file is how a container secret (compose's /run/secrets/db_password, the very
    file MariaDB's MARIADB_PASSWORD_FILE reads) or a systemd credential reaches the URL
    without the password being written into an environment file. Its content, minus
    the trailing newline, replaces any password in the URL.
    """
    url = env.get("KEEPER_DATABASE_URL", DEFAULT_DATABASE_URL).strip() or DEFAULT_DATABASE_URL
    if not url.startswith(DATABASE_SCHEMES):
        raise SettingsError(
            f"KEEPER_DATABASE_URL must start with sqlite+aiosqlite:// or mysql://, {_SCHEMES_TOLD}"
        )
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise SettingsError(
            "KEEPER_DATABASE_URL is malformed; expected e.g. "
            "mysql://USER:PASSWORD@HOST:3306/DATABASE"
        ) from None
    path = env.get("KEEPER_DATABASE_PASSWORD_FILE", "").strip()
    if not path:
        return url
    return parsed.set(password=_password_from(path)).render_as_string(hide_password=False)


def with_password_file(url: str, path: str, *, name: str = "--password-file") -> str:
    """`url` with its password replaced by the content of the file at `path` (one line),
    so a password never has to be typed on a command line that `ps` shows."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise SettingsError(
            "the database URL is malformed; expected e.g. mysql://USER@HOST:3306/DATABASE"
        ) from None
    password = _password_from(path, name=name)
    return parsed.set(password=password).render_as_string(hide_password=False)


def _password_from(path: str, *, name: str = "KEEPER_DATABASE_PASSWORD_FILE") -> str:
    try:
        password = Path(path).read_text(encoding="utf-8").rstrip("\r\n")
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(
            f"{name} cannot be read ({type(exc).__name__}); "
            "expected a readable file holding the database password on one line"
        ) from None
    if not password:
        raise SettingsError(f"{name} is empty; expected the database password on one line")
    return password


# -- operations -------------------------------------------------------------------------


def _operations(env: Mapping[str, str]) -> OperationsSettings:
    return OperationsSettings(
        timezone=_timezone(env),
        admins=frozenset(a.strip() for a in env.get("KEEPER_ADMINS", "").split(",") if a.strip()),
        scheduler_on=_on_off(env, "KEEPER_SCHEDULER"),
        log_format=_choice(env, "KEEPER_LOG_FORMAT", ("text", "json"), "text"),
        log_level=_choice(env, "KEEPER_LOG_LEVEL", LOG_LEVELS, "INFO", upper=True),
        metrics_host=env.get("KEEPER_METRICS_HOST", "127.0.0.1").strip() or "127.0.0.1",
        metrics_port=_int(env, "KEEPER_METRICS_PORT", 0, 0, 65535) or None,
        retention=_retention(env),
    )


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def _timezone(env: Mapping[str, str]) -> ZoneInfo:
    name = env.get("KEEPER_TIMEZONE", "Asia/Shanghai").strip() or "Asia/Shanghai"
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise SettingsError(
            "KEEPER_TIMEZONE is not a known IANA time zone; expected e.g. Asia/Shanghai"
        ) from None


RETAIN_VARIABLES = {
    Family.MESSAGES: "KEEPER_RETAIN_MESSAGES_DAYS",
    Family.JOBS: "KEEPER_RETAIN_JOBS_DAYS",
    Family.LINKS: "KEEPER_RETAIN_LINKS_DAYS",
}
RETAIN_WHY = {
    Family.MESSAGES: f"{UNDO_COMMAND} and retried callbacks read stored messages",
    Family.JOBS: "reminders, channel health and the admin page read a week of sends",
    Family.LINKS: "a link lives ten minutes",
}


def _retention(env: Mapping[str, str]) -> Periods:
    """KEEPER_RETAIN_MESSAGES_DAYS, KEEPER_RETAIN_JOBS_DAYS, KEEPER_RETAIN_LINKS_DAYS:
    whole days, each at least its minimum (`scheduler.core.retention_policy` says why)."""
    days = {family: _retain_days(env, family) for family in Family}
    return Periods(messages=days[Family.MESSAGES], jobs=days[Family.JOBS], links=days[Family.LINKS])


def _retain_days(env: Mapping[str, str], family: Family) -> int:
    name, lo, default = RETAIN_VARIABLES[family], MINIMUM_DAYS[family], DEFAULT_DAYS[family]
    wrong = (
        f"{name} must be a whole number of days from {lo} to {MAXIMUM_DAYS} "
        f"(default {default}; less than {lo} is refused: {RETAIN_WHY[family]})"
    )
    return _int(env, name, default, lo, MAXIMUM_DAYS, wrong=wrong)


# -- the web process and its pages (issue 13) -------------------------------------------


def _web(env: Mapping[str, str]) -> WebSettings:
    return WebSettings(
        host=env.get("KEEPER_HOST", "127.0.0.1").strip() or "127.0.0.1",
        port=_int(env, "KEEPER_PORT", 8080, 0, 65535),
        public_url=_public_url(env),
        secret=_web_secret(env),
        secret_previous=_web_secret_previous(env),
        trusted_proxies=_trusted_proxies(env),
    )


def _public_url(env: Mapping[str, str]) -> str:
    """KEEPER_PUBLIC_URL: the address people open the pages at (empty: no pages links)."""
    url = env.get("KEEPER_PUBLIC_URL", "").strip().rstrip("/")
    if url and not HTTP_URL.fullmatch(url):
        raise SettingsError(
            "KEEPER_PUBLIC_URL must be an http(s) URL without query, e.g. https://keeper.example.com"
        )
    if not _PLAIN_PATH.fullmatch(urlsplit(url).path):
        # The path goes into redirects and the cookie's Path as it is.
        raise SettingsError(
            "KEEPER_PUBLIC_URL's path may hold only letters, digits and - _ . ~ /, "
            "e.g. https://example.com/keeper"
        )
    return url


_PLAIN_PATH = re.compile(r"[A-Za-z0-9/_.~-]*")


def _web_secret(env: Mapping[str, str]) -> str:
    """KEEPER_WEB_SECRET: optional, at least 32 characters (see `Settings.web_key`)."""
    value = env.get("KEEPER_WEB_SECRET", "").strip()
    if value and len(value) < 32:
        raise SettingsError(
            "KEEPER_WEB_SECRET is too short; expected at least 32 random characters "
            "(e.g. openssl rand -hex 32), or leave it unset"
        )
    return value


def _web_secret_previous(env: Mapping[str, str]) -> str:
    """KEEPER_WEB_SECRET_PREVIOUS: optional, only beside a different KEEPER_WEB_SECRET."""
    return _previous(env, "KEEPER_WEB_SECRET", _web_secret(env))


def _previous(env: Mapping[str, str], name: str, current: str) -> str:
    """`name`_PREVIOUS: the key `name` held before a rotation. Refused without a
    current key, or equal to it (the rotation was not finished: a new key is needed)."""
    value = env.get(f"{name}_PREVIOUS", "").strip()
    if not value:
        return ""
    if not current:
        raise SettingsError(
            f"{name}_PREVIOUS is set but {name} is not; a rotation keeps the old key in "
            f"{name}_PREVIOUS and a new one in {name} (`keeper doctor` prints one)"
        )
    if value == current:
        raise SettingsError(
            f"{name}_PREVIOUS equals {name}; set a new {name} (`keeper doctor` prints one)"
        )
    return value


def _trusted_proxies(env: Mapping[str, str]) -> tuple[Network, ...]:
    """KEEPER_TRUSTED_PROXIES, e.g. `127.0.0.1, 172.18.0.0/16` (compose: the network
    docker's port proxy connects from); unset: loopback only."""
    raw = env.get("KEEPER_TRUSTED_PROXIES", "").strip()
    if not raw:
        return LOOPBACK
    try:
        return tuple(ipaddress.ip_network(part.strip(), strict=False) for part in raw.split(","))
    except ValueError:
        raise SettingsError(
            "KEEPER_TRUSTED_PROXIES must be IP addresses or networks, comma-separated "
            "(e.g. 127.0.0.1, 172.18.0.0/16)"
        ) from None


# -- the data key (issue 22) ------------------------------------------------------------

DATA_KEY_FORM = (
    "32-256 letters, digits or + / = _ -: a random key of its own, "
    "e.g. the output of `openssl rand -base64 32` (`keeper doctor` prints one)"
)


def _data(env: Mapping[str, str]) -> DataSettings:
    """KEEPER_DATA_KEY and KEEPER_DATA_KEY_PREVIOUS, both optional (see `DataSettings`).

    The key must be no other secret of the deployment: the point of it is that
    rotating those leaves the stored secrets alone.
    """
    key = _optional(env, "KEEPER_DATA_KEY", r"[A-Za-z0-9+/=_-]{32,256}", DATA_KEY_FORM)
    previous = _previous(env, "KEEPER_DATA_KEY", key)
    if previous and not re.fullmatch(r"[A-Za-z0-9+/=_-]{32,256}", previous):
        raise SettingsError(f"KEEPER_DATA_KEY_PREVIOUS is malformed; expected {DATA_KEY_FORM}")
    others = {env.get(n, "").strip() for n in ("WECOM_SECRET", "KEEPER_WEB_SECRET")}
    if key and key in others:
        raise SettingsError(
            "KEEPER_DATA_KEY must be a key of its own, not WECOM_SECRET or KEEPER_WEB_SECRET "
            "(`keeper doctor` prints a fresh one)"
        )
    return DataSettings(key=key, previous=previous)


# -- the WeCom app ----------------------------------------------------------------------


def _wecom(env: Mapping[str, str]) -> WeComSettings:
    return WeComSettings(
        corp_id=_required(
            env,
            "WECOM_CORP_ID",
            r"[A-Za-z0-9_-]{1,64}",
            f"the {CONSOLE_CORP_ID}, e.g. ww0123456789abcdef",
        ),
        agent_id=_int(env, "WECOM_AGENT_ID", None, 1, 2**31 - 1),
        secret=_required(
            env, "WECOM_SECRET", r"[A-Za-z0-9_-]{8,128}", "8-128 letters, digits, _ or -"
        ),
        token=_required(env, "WECOM_TOKEN", r"[A-Za-z0-9]{1,32}", "1-32 letters or digits"),
        aes_key=_aes_key(env),
        api_base=_base_url(env, "WECOM_API_BASE", DEFAULT_API_BASE),
        callback_window_seconds=_int(
            env, "KEEPER_CALLBACK_WINDOW_SECONDS", DEFAULT_CALLBACK_WINDOW_SECONDS, 30, 86400
        ),
        daily_cap=_daily_cap(env),
    )


def _aes_key(env: Mapping[str, str]) -> str:
    form = "the EncodingAESKey, 43 characters of base64"
    value = _required(env, "WECOM_AES_KEY", r"[A-Za-z0-9+/]{43}", form)
    try:
        if len(base64.b64decode(value + "=")) == 32:
            return value
    except binascii.Error:
        pass
    raise SettingsError(f"WECOM_AES_KEY is malformed; expected {form}")


def _daily_cap(env: Mapping[str, str]) -> int | None:
    """KEEPER_WECOM_DAILY_CAP: WeCom's daily quota of the app, licensed members x 200
    recipient-sends (unset: not counted, WeCom's refusal backs off instead)."""
    raw = env.get("KEEPER_WECOM_DAILY_CAP", "").strip()
    if not raw:
        return None
    if not re.fullmatch(r"\d{1,10}", raw) or not 1 <= int(raw) <= DAILY_CAP_MAX:
        raise SettingsError(
            f"KEEPER_WECOM_DAILY_CAP must be an integer from 1 to {DAILY_CAP_MAX}: "
            "the app's licensed members x 200 (e.g. 2000 for 10 members)"
        )
    return int(raw)


DAILY_CAP_MAX = 1_000_000_000


# -- extra channels (issue 12) and admin alerts -----------------------------------------


def _channels(env: Mapping[str, str]) -> ChannelSettings:
    """The extra channels' settings; each credential optional (empty: channel off)."""
    return ChannelSettings(
        robot_key=_optional(
            env,
            "KEEPER_ROBOT_KEY",
            r"[A-Za-z0-9_-]{8,128}",
            "the key= value of the group robot's webhook address",
        ),
        wxpusher_app_token=_optional(
            env,
            "KEEPER_WXPUSHER_APP_TOKEN",
            r"AT_[A-Za-z0-9_-]{4,128}",
            "the WxPusher appToken, AT_ followed by letters and digits",
        ),
        wxpusher_api_base=_base_url(env, "KEEPER_WXPUSHER_API_BASE", DEFAULT_WXPUSHER_API_BASE),
        serverchan_sendkey=_optional(
            env,
            "KEEPER_SERVERCHAN_SENDKEY",
            r"SCT[A-Za-z0-9]{4,128}",
            f"the {SERVERCHAN} Turbo SendKey, SCT followed by letters and digits",
        ),
        serverchan_api_base=_base_url(
            env, "KEEPER_SERVERCHAN_API_BASE", DEFAULT_SERVERCHAN_API_BASE
        ),
        wecomchan_url=_wecomchan_url(env),
        **_alert_settings(env),
    )


def _wecomchan_url(env: Mapping[str, str]) -> str:
    form = "the relay's http(s) address with its sendkey, e.g. https://host/wecomchan?sendkey=KEY"
    url = _optional(env, "KEEPER_WECOMCHAN_URL", r"https?://[^\s/?#]+[^\s#]*", form)
    if url and not parse_qs(urlsplit(url).query).get("sendkey", [""])[0]:
        raise SettingsError(f"KEEPER_WECOMCHAN_URL has no sendkey; expected {form}")
    return url


ALERT_CHANNELS = {
    "robot": ("wecom_robot", "KEEPER_ROBOT_KEY"),
    "wxpusher": ("wxpusher", "KEEPER_WXPUSHER_APP_TOKEN"),
    "serverchan": ("serverchan", "KEEPER_SERVERCHAN_SENDKEY"),
    "wecomchan": ("wecomchan", "KEEPER_WECOMCHAN_URL"),
}
"""KEEPER_ALERT_CHANNEL's values: the channel's name in the scheduler, its credential."""


def _alert_settings(env: Mapping[str, str]) -> dict[str, str]:
    """KEEPER_ALERT_CHANNEL (optional) and KEEPER_ALERT_TO, checked against the
    channel's credential and KEEPER_ADMINS (whom the alerts are for)."""
    choice = env.get("KEEPER_ALERT_CHANNEL", "").strip().lower()
    to = env.get("KEEPER_ALERT_TO", "").strip()
    if not choice:
        return {"alert_channel": "", "alert_to": ""}
    if choice not in ALERT_CHANNELS:
        raise SettingsError(
            f"KEEPER_ALERT_CHANNEL must be one of {', '.join(ALERT_CHANNELS)} (or unset)"
        )
    channel, credential = ALERT_CHANNELS[choice]
    if not env.get(credential, "").strip():
        raise SettingsError(
            f"KEEPER_ALERT_CHANNEL={choice} needs {credential}: alerts use that channel's key"
        )
    if not env.get("KEEPER_ADMINS", "").strip():
        raise SettingsError("KEEPER_ALERT_CHANNEL needs KEEPER_ADMINS: whom the alerts are for")
    if choice == "wxpusher" and not re.fullmatch(r"UID_[A-Za-z0-9_-]{4,64}", to):
        raise SettingsError(
            "KEEPER_ALERT_CHANNEL=wxpusher needs KEEPER_ALERT_TO: the admin's WxPusher UID_..."
        )
    return {"alert_channel": channel, "alert_to": to}


# -- the water mini-program (issue 12 item 5) ------------------------------------------


def _mp(env: Mapping[str, str]) -> MiniProgramSettings:
    """The mini-program settings: all optional, but the AppID and AppSecret come together, and a
    configured mini-program needs its subscribe template."""
    appid = _optional(env, "KEEPER_MP_APPID", r"wx[0-9a-f]{16}", "the AppID, wx + 16 hex digits")
    secret = _optional(env, "KEEPER_MP_SECRET", r"[0-9a-f]{32}", "the AppSecret, 32 hex digits")
    template = _optional(
        env, "KEEPER_MP_TEMPLATE_ID", r"[A-Za-z0-9_-]{10,64}", "the subscribe template's ID"
    )
    if bool(appid) != bool(secret):
        missing = "KEEPER_MP_SECRET" if appid else "KEEPER_MP_APPID"
        raise SettingsError(f"{missing} is not set; the mini-program needs both AppID and secret")
    if appid and not template:
        raise SettingsError("KEEPER_MP_TEMPLATE_ID is not set; the water reminder's template ID")
    return MiniProgramSettings(
        appid=appid,
        secret=secret,
        template_id=template,
        api_base=_base_url(env, "KEEPER_WECHAT_API_BASE", DEFAULT_WECHAT_API_BASE),
    )


# -- backups ----------------------------------------------------------------------------


def _backup(env: Mapping[str, str]) -> BackupSettings:
    return BackupSettings(
        key=_backup_key(env),
        directory=_backup_dir(env),
        at=_backup_at(env),
        keep=_int(env, "KEEPER_BACKUP_KEEP", 14, 1, 1000),
    )


BACKUP_KEY_MIN_CHARS = 16
BACKUP_KEY_FORM = (
    f"a passphrase of at least {BACKUP_KEY_MIN_CHARS} characters, "
    "e.g. the output of `openssl rand -base64 24`"
)


def load_backup_key(
    environ: Mapping[str, str] | None = None, *, dotenv: Path | None = Path(".env")
) -> str:
    """KEEPER_BACKUP_KEY, required: what `keeper backup` and `keeper restore` need
    (without the WeCom settings, like `load_database_url`)."""
    key = _backup_key(_environment(environ, dotenv))
    if not key:
        raise SettingsError(f"KEEPER_BACKUP_KEY is not set; expected {BACKUP_KEY_FORM}")
    return key


def _backup_key(env: Mapping[str, str]) -> str:
    """The passphrase as given, or "" when unset. Not stripped: the key is the key, so
    spaces at either end (a copy-paste slip that would lock the backups) are refused."""
    value = env.get("KEEPER_BACKUP_KEY", "")
    if not value.strip():
        return ""
    if value != value.strip() or any(ord(c) < 32 for c in value):
        raise SettingsError(
            "KEEPER_BACKUP_KEY is malformed (spaces at either end or control characters); "
            f"expected {BACKUP_KEY_FORM}"
        )
    if len(value) < BACKUP_KEY_MIN_CHARS:
        raise SettingsError(f"KEEPER_BACKUP_KEY is too short; expected {BACKUP_KEY_FORM}")
    return value


def _backup_dir(env: Mapping[str, str]) -> Path | None:
    """KEEPER_BACKUP_DIR: absolute, and only with KEEPER_BACKUP_KEY (None: off)."""
    raw = env.get("KEEPER_BACKUP_DIR", "").strip()
    if not raw:
        return None
    if not _backup_key(env):
        raise SettingsError(
            f"KEEPER_BACKUP_DIR is set but KEEPER_BACKUP_KEY is not; expected {BACKUP_KEY_FORM} "
            "(or leave KEEPER_BACKUP_DIR empty to turn scheduled backups off)"
        )
    if not Path(raw).is_absolute():
        raise SettingsError("KEEPER_BACKUP_DIR must be an absolute path, e.g. /var/backups/keeper")
    return Path(raw)


def _backup_at(env: Mapping[str, str]) -> dt.time:
    raw = env.get("KEEPER_BACKUP_AT", "").strip() or "03:30"
    found = re.fullmatch(r"(\d{1,2}):(\d{2})", raw)
    if not found or int(found[1]) > 23 or int(found[2]) > 59:
        raise SettingsError(
            "KEEPER_BACKUP_AT must be a time of day HH:MM in KEEPER_TIMEZONE, e.g. 03:30"
        )
    return dt.time(int(found[1]), int(found[2]))


# -- the readers every group uses -------------------------------------------------------


def _required(env: Mapping[str, str], name: str, pattern: str, form: str) -> str:
    """The stripped value; messages say the expected `form`, never the value."""
    value = env.get(name, "").strip()
    if not value:
        raise SettingsError(f"{name} is not set; expected {form}")
    if not re.fullmatch(pattern, value):
        raise SettingsError(f"{name} is malformed; expected {form}")
    return value


def _optional(env: Mapping[str, str], name: str, pattern: str, form: str) -> str:
    """The stripped value, or "" when unset; a malformed one names `form`, never the value."""
    value = env.get(name, "").strip()
    if value and not re.fullmatch(pattern, value):
        raise SettingsError(f"{name} is malformed; expected {form}")
    return value


def _int(
    env: Mapping[str, str],
    name: str,
    default: int | None,
    lo: int,
    hi: int,
    *,
    wrong: str | None = None,
) -> int:
    """An integer setting from `lo` to `hi`; `wrong`: the message when it is out of
    range or malformed, if the plain one says too little."""
    raw = env.get(name, "").strip()
    if not raw:
        if default is None:
            raise SettingsError(f"{name} is not set; expected an integer from {lo} to {hi}")
        return default
    if not re.fullmatch(r"\d{1,10}", raw) or not lo <= int(raw) <= hi:
        raise SettingsError(wrong or f"{name} must be an integer from {lo} to {hi}")
    return int(raw)


def _on_off(env: Mapping[str, str], name: str) -> bool:
    raw = env.get(name, "off").strip().lower() or "off"
    if raw not in ("on", "off"):
        raise SettingsError(f"{name} must be on or off")
    return raw == "on"


def _choice(
    env: Mapping[str, str],
    name: str,
    allowed: tuple[str, ...],
    default: str,
    *,
    upper: bool = False,
) -> str:
    raw = env.get(name, "").strip() or default
    value = raw.upper() if upper else raw.lower()
    if value not in allowed:
        raise SettingsError(f"{name} must be one of: {', '.join(allowed)}")
    return value


HTTP_URL = re.compile(r"https?://[^\s/?#]+(/[^\s?#]*)?")
"""An http(s) address without query or fragment: the API bases, KEEPER_PUBLIC_URL."""


def _base_url(env: Mapping[str, str], name: str, default: str) -> str:
    """`name`'s http(s) URL without a trailing slash, or `default` when unset or empty."""
    url = env.get(name, default).strip().rstrip("/") or default
    if not HTTP_URL.fullmatch(url):
        raise SettingsError(f"{name} must be an http(s) URL, e.g. {default}")
    return url
