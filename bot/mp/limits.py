"""keeper's own rate limits on the mini-program API: token buckets in memory. Pure.

Each `/login` costs a code2Session call to WeChat carrying the AppSecret, on the
app's quota; each wrong `/link` code is a guess at someone's live code. So:

- `/login`, per client address (`bot.forwarded`): `LOGIN_PER_ADDRESS`, 10 a minute.
  A phone logs in once a week (`bot.mp.auth.TOKEN_TTL`) or after a reinstall.
- `/login`, all addresses together: `LOGIN_ALL`, 60 a minute, so many addresses
  cannot spend the quota either.
- wrong `/link` codes, all openids together: `LINK_WRONG_ALL`, 30 an hour. Each openid
  has its own five an hour (`services.mp_link`), but openids are free to make; with
  this, a live code (one in a million, ten minutes) is found by one guess in 33,000
  an hour at most, however many accounts try. The price: while someone floods, an
  honest member's link waits too (Retry-After says how long); linking is rare.

A refusal is 429 `rate_limited` with `Retry-After` (whole seconds), counted in
`keeper_mp_rate_limited_total{limit}`. Only requests that would call WeChat (a
well-formed js_code) or try a code (six digits) spend a token.

The buckets are per process, in memory: a deployment with N web processes allows N
times these; a restart refills them. Memory is bounded: at most `MAX_KEYS` buckets,
the least recently used dropped first. Dropping one only refills it early, and the
global bucket still holds.
"""

from __future__ import annotations

import datetime as dt
import math
from collections import OrderedDict
from dataclasses import dataclass

MAX_KEYS = 10_000


@dataclass(frozen=True, kw_only=True, slots=True)
class Rate:
    """`burst` requests at once, refilled evenly over `per`."""

    burst: int
    per: dt.timedelta


LOGIN_PER_ADDRESS = Rate(burst=10, per=dt.timedelta(minutes=1))
LOGIN_ALL = Rate(burst=60, per=dt.timedelta(minutes=1))
LINK_WRONG_ALL = Rate(burst=30, per=dt.timedelta(hours=1))


@dataclass(frozen=True, kw_only=True, slots=True)
class Refused:
    """Which limit refused, and how many whole seconds until a token is back."""

    limit: str
    retry_after: int


class Buckets:
    """Token buckets by key (an address; "" for one global bucket). `now` is passed in."""

    def __init__(self, rate: Rate, max_keys: int = MAX_KEYS) -> None:
        self.rate, self.max_keys = rate, max_keys
        self._held: OrderedDict[str, tuple[float, dt.datetime]] = OrderedDict()

    def take(self, key: str, now: dt.datetime) -> int | None:
        """Spend one token: None, or the whole seconds to wait when there is none."""
        tokens = self._level(key, now)
        if tokens < 1:  # held, since a new bucket is full: keep the busiest, drop the idle
            self._held.move_to_end(key)
            seconds = (1 - tokens) * self.rate.per.total_seconds() / self.rate.burst
            return max(1, math.ceil(seconds))
        self._keep(key, tokens - 1, now)
        return None

    def give_back(self, key: str, now: dt.datetime) -> None:
        """Return a token taken for a request that turned out not to count."""
        self._keep(key, min(self.rate.burst, self._level(key, now) + 1), now)

    def __len__(self) -> int:
        return len(self._held)

    def _level(self, key: str, now: dt.datetime) -> float:
        held = self._held.get(key)
        if held is None:
            return float(self.rate.burst)
        tokens, at = held
        elapsed = max(0.0, (now - at).total_seconds())  # a clock set back refills nothing
        refill = elapsed * self.rate.burst / self.rate.per.total_seconds()
        return min(float(self.rate.burst), tokens + refill)

    def _keep(self, key: str, tokens: float, now: dt.datetime) -> None:
        self._held[key] = (tokens, now)
        self._held.move_to_end(key)
        while len(self._held) > self.max_keys:
            self._held.popitem(last=False)


class MpLimits:
    """The API's three limits, one object per application (`bot.mp.routes.LIMITS`)."""

    def __init__(self, max_keys: int = MAX_KEYS) -> None:
        self.login_by_address = Buckets(LOGIN_PER_ADDRESS, max_keys)
        self.login_all = Buckets(LOGIN_ALL, 1)
        self.wrong_links = Buckets(LINK_WRONG_ALL, 1)

    def login(self, address: str, now: dt.datetime) -> Refused | None:
        """Spend a login from `address`; a refusal spends nothing."""
        if wait := self.login_by_address.take(address, now):
            return Refused(limit="login_address", retry_after=wait)
        if wait := self.login_all.take("", now):
            self.login_by_address.give_back(address, now)
            return Refused(limit="login_global", retry_after=wait)
        return None

    def link(self, now: dt.datetime) -> Refused | None:
        """Spend a guess before the code is tried (two racing guesses cannot both pass
        the last token); `not_a_wrong_guess` returns it when the code was right or
        never tried."""
        wait = self.wrong_links.take("", now)
        return None if wait is None else Refused(limit="link_global", retry_after=wait)

    def not_a_wrong_guess(self, now: dt.datetime) -> None:
        self.wrong_links.give_back("", now)
