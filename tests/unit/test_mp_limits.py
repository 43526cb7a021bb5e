"""keeper's own rate limits (pure): token buckets, their bound, and the client address
read behind a trusted proxy."""

from __future__ import annotations

import datetime as dt
import ipaddress

import pytest

from bot.forwarded import LOOPBACK, client_address
from bot.mp.limits import (
    LINK_WRONG_ALL,
    LOGIN_ALL,
    LOGIN_PER_ADDRESS,
    Buckets,
    MpLimits,
    Rate,
    Refused,
)

NOW = dt.datetime(2026, 11, 25, 2, 0, tzinfo=dt.UTC)
TEN_A_MINUTE = Rate(burst=10, per=dt.timedelta(minutes=1))


def later(seconds: float) -> dt.datetime:
    return NOW + dt.timedelta(seconds=seconds)


def test_a_bucket_lets_its_burst_through_then_says_when_the_next_token_is_back() -> None:
    buckets = Buckets(TEN_A_MINUTE)
    assert [buckets.take("a", NOW) for _ in range(10)] == [None] * 10
    assert buckets.take("a", NOW) == 6  # one token every 6 s
    assert buckets.take("a", later(5)) == 1  # 0.83 of a token: a whole second still
    assert buckets.take("a", later(6)) is None
    assert buckets.take("b", NOW) is None  # another key has its own bucket


def test_a_refusal_spends_nothing_and_a_long_pause_refills_only_to_the_burst() -> None:
    buckets = Buckets(TEN_A_MINUTE)
    for _ in range(10):
        buckets.take("a", NOW)
    for _ in range(50):
        assert buckets.take("a", NOW) == 6
    assert [buckets.take("a", later(3600)) for _ in range(11)][-2:] == [None, 6]


def test_a_token_given_back_is_there_again_and_never_past_the_burst() -> None:
    buckets = Buckets(TEN_A_MINUTE)
    buckets.give_back("a", NOW)  # a full bucket stays full
    assert [buckets.take("a", NOW) for _ in range(11)][-1] == 6
    buckets.give_back("a", NOW)
    assert buckets.take("a", NOW) is None


def test_a_clock_set_back_refills_nothing() -> None:
    buckets = Buckets(TEN_A_MINUTE)
    for _ in range(10):
        buckets.take("a", NOW)
    assert buckets.take("a", later(-3600)) == 6


def test_memory_stays_bounded_by_dropping_the_least_recently_used_bucket() -> None:
    buckets = Buckets(TEN_A_MINUTE, max_keys=100)
    for _ in range(10):
        buckets.take("busy", NOW)
    for n in range(10_000):
        buckets.take(f"10.0.{n // 256}.{n % 256}", NOW)
        if n % 50 == 0:
            assert buckets.take("busy", NOW) == 6  # still kept: used recently
    assert len(buckets) == 100


def test_the_login_limits_are_ten_a_minute_per_address_and_sixty_in_all() -> None:
    assert (LOGIN_PER_ADDRESS.burst, LOGIN_PER_ADDRESS.per) == (10, dt.timedelta(minutes=1))
    assert (LOGIN_ALL.burst, LOGIN_ALL.per) == (60, dt.timedelta(minutes=1))
    assert (LINK_WRONG_ALL.burst, LINK_WRONG_ALL.per) == (30, dt.timedelta(hours=1))
    limits = MpLimits()
    for n in range(10):
        assert limits.login("198.51.100.7", NOW) is None, n
    assert limits.login("198.51.100.7", NOW) == Refused(limit="login_address", retry_after=6)
    for n in range(50):
        assert limits.login(f"203.0.113.{n}", NOW) is None
    assert limits.login("192.0.2.1", NOW) == Refused(limit="login_global", retry_after=1)
    assert limits.login_by_address.take("192.0.2.1", NOW) is None  # the refusal cost nothing


def test_wrong_link_guesses_share_one_bucket_and_a_guess_that_was_not_wrong_is_returned() -> None:
    limits = MpLimits()
    for _ in range(100):  # right codes (or none tried) spend nothing
        assert limits.link(NOW) is None
        limits.not_a_wrong_guess(NOW)
    for _ in range(30):
        assert limits.link(NOW) is None
    assert limits.link(NOW) == Refused(limit="link_global", retry_after=120)


TRUSTED = (*LOOPBACK, ipaddress.ip_network("172.18.0.0/16"))


@pytest.mark.parametrize(
    ("peer", "forwarded", "address"),
    [
        ("198.51.100.7", [], "198.51.100.7"),  # no proxy
        ("198.51.100.7", ["10.9.9.9"], "198.51.100.7"),  # an untrusted peer's header: ignored
        ("127.0.0.1", [], "127.0.0.1"),  # a local caller without a header
        ("127.0.0.1", ["198.51.100.7"], "198.51.100.7"),  # nginx on the host
        ("127.0.0.1", ["6.6.6.6, 198.51.100.7"], "198.51.100.7"),  # the client's own forgery
        ("127.0.0.1", ["6.6.6.6", "198.51.100.7"], "198.51.100.7"),  # as two header lines
        ("172.18.0.1", ["6.6.6.6, 198.51.100.7, 127.0.0.1"], "198.51.100.7"),  # two proxies
        ("127.0.0.1", ["198.51.100.7, not-an-ip"], "127.0.0.1"),  # garbage: the proxy it is
        ("::ffff:127.0.0.1", ["2001:db8::7"], "2001:db8::7"),  # a dual-stack socket
        ("::1", ["2001:db8::7"], "2001:db8::7"),
        (None, ["198.51.100.7"], "unknown"),
    ],
)
def test_the_client_address_is_read_behind_trusted_proxies_only(
    peer: str | None, forwarded: list[str], address: str
) -> None:
    assert client_address(peer, forwarded, TRUSTED) == address


def test_with_no_trusted_proxy_the_peer_is_the_client() -> None:
    assert client_address("127.0.0.1", ["198.51.100.7"], ()) == "127.0.0.1"
