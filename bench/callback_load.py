"""The load side of `bench/callback.py`: WeCom's servers, at a fixed concurrency.

Run in its own process so the server under test never shares an interpreter with
it. Every request is built, encrypted and signed before the clock starts (a unique
MsgId, a fresh timestamp, a valid signature), so the load process spends its CPU on
HTTP alone. After the timed run every reply is opened as WeCom would open it
(verify, decrypt) and checked against what that command should answer.

    BENCH_TOKEN=... BENCH_AES_KEY=... BENCH_CORP_ID=... \
        python bench/callback_load.py --url http://127.0.0.1:8080 --expect keeper

Prints one JSON line: requests, completed, errors, throughput, p50/p99/max latency,
the reply check and one sample reply per command.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from urllib.parse import urlencode

import aiohttp
from yarl import URL

from bot.crypto import CryptoError, WeComCrypto
from bot.sandbox.wecom_side import WeComSide, open_reply, text_message_xml

USERS = 200
AGENT_ID = 1_000_002
FIRST_MSG_ID = 7_310_000_000_000_000_001
REQUEST_TIMEOUT_S = 10.0  # give up on a request here (counted as an error, status 0)
WECOM_WINDOW_MS = 5000.0  # WeCom drops the connection after 5 s and retries
SEED = 20_241_129
# What keeper's passive reply starts with, per command of the mix.
KEEPER_REPLY_PREFIX = {
    "weight": "记下了：体重",
    "water": "喝水 +1",
    "expense": "记账：支出",
    "today": "今天 ",
}


@dataclass(frozen=True, slots=True)
class Prepared:
    """One signed callback, ready to POST: which command, where, what."""

    command: str
    url: URL
    body: bytes


@dataclass(slots=True)
class Outcome:
    """What the load side saw for one request."""

    command: str
    latency_s: float
    status: int  # 0 for a transport error or a timeout
    body: bytes = field(default=b"", repr=False)


def mix(count: int, rng: random.Random) -> Iterator[tuple[str, str, str]]:
    """`count` (command, user, text) triples: weight, water, expense and 今天, interleaved."""
    for i in range(count):
        user = f"user{rng.randrange(USERS):03d}"
        kind = ("weight", "water", "expense", "today")[i % 4]
        text = {
            "weight": f"体重 {rng.uniform(55, 95):.1f}",
            "water": "喝水",
            "expense": f"记账 {rng.randint(8, 120)} 午饭",
            "today": "今天",
        }[kind]
        yield kind, user, text


def prepare(side: WeComSide, count: int, first_msg_id: int, rng: random.Random) -> list[Prepared]:
    """Encrypt and sign `count` text callbacks, each with its own MsgId."""
    prepared = []
    for offset, (kind, user, text) in enumerate(mix(count, rng)):
        xml = text_message_xml(
            corp_id=side.corp_id,
            user=user,
            text=text,
            create_time=side.now(),
            msg_id=first_msg_id + offset,
            agent_id=side.agent_id,
        )
        request = side.build(xml)
        url = URL(f"{side.url}?{urlencode(request.query)}", encoded=True)
        prepared.append(Prepared(command=kind, url=url, body=request.body))
    return prepared


async def drive(
    session: aiohttp.ClientSession,
    requests: list[Prepared],
    concurrency: int,
    outcomes: list[Outcome],
) -> None:
    """POST every request with `concurrency` in flight, appending to `outcomes`.

    The caller owns `outcomes`, so what finished before a deadline is kept.
    """
    pending = iter(requests)

    async def worker() -> None:
        for prepared in pending:  # one shared iterator: each request is sent once
            outcomes.append(await _post(session, prepared))

    await asyncio.gather(*(worker() for _ in range(concurrency)))


async def _post(session: aiohttp.ClientSession, prepared: Prepared) -> Outcome:
    started = time.perf_counter()
    try:
        async with session.post(prepared.url, data=prepared.body) as response:
            body = await response.read()
            status = response.status
    except (aiohttp.ClientError, TimeoutError):
        body, status = b"", 0
    return Outcome(prepared.command, time.perf_counter() - started, status, body)


def check_reply(crypto: WeComCrypto, outcome: Outcome, expect: str) -> tuple[str | None, str]:
    """Open the reply as WeCom would: (problem or None when it is the real answer, text)."""
    if outcome.status != 200:
        return f"status {outcome.status}", ""
    try:
        text, msg_type = open_reply(crypto, outcome.body)
    except CryptoError as exc:
        return f"unreadable reply ({type(exc).__name__})", ""
    wanted = "ok" if expect == "ok" else KEEPER_REPLY_PREFIX[outcome.command]
    if msg_type != "text" or text is None or not text.startswith(wanted):
        return f"unexpected reply to {outcome.command}", text or ""
    return None, text


def percentile(sorted_values: list[float], fraction: float) -> float:
    """Nearest-rank percentile of an ascending list (0.0 when it is empty)."""
    if not sorted_values:
        return 0.0
    rank = max(1, round(fraction * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def summarize(
    outcomes: list[Outcome], requested: int, seconds: float, crypto: WeComCrypto, expect: str
) -> dict[str, object]:
    """The figures of one timed run, with every reply checked."""
    latencies = sorted(o.latency_s * 1000 for o in outcomes)
    problems: Counter[str] = Counter()
    samples: dict[str, str] = {}
    for outcome in outcomes:
        problem, text = check_reply(crypto, outcome, expect)
        if problem:
            problems[problem] += 1
        samples.setdefault(problem or outcome.command, text)
    return {
        "requests": requested,
        "completed": len(outcomes),
        "errors": sum(problems.values()) + requested - len(outcomes),
        "problems": dict(problems.most_common(5)),
        "seconds": round(seconds, 3),
        "throughput": round(len(outcomes) / seconds, 1) if seconds else 0.0,
        "p50_ms": round(percentile(latencies, 0.50), 2),
        "p99_ms": round(percentile(latencies, 0.99), 2),
        "max_ms": round(latencies[-1], 2) if latencies else 0.0,
        "over_wecom_window": sum(ms > WECOM_WINDOW_MS for ms in latencies),
        "sample_replies": samples,
    }


async def run(args: argparse.Namespace) -> dict[str, object]:
    """Warm up, then time `args.requests` callbacks; bounded by `args.deadline_s`."""
    env = os.environ
    crypto_args = (env["BENCH_TOKEN"], env["BENCH_AES_KEY"], env["BENCH_CORP_ID"])
    side = WeComSide(args.url, *crypto_args, agent_id=AGENT_ID)
    rng = random.Random(SEED)
    warmup = prepare(side, args.warmup, FIRST_MSG_ID, rng)
    timed = prepare(side, args.requests, FIRST_MSG_ID + args.warmup, rng)
    connector = aiohttp.TCPConnector(limit=args.concurrency)
    timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT_S)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        await drive(session, warmup, args.concurrency, [])
        started = time.perf_counter()
        outcomes: list[Outcome] = []
        try:
            async with asyncio.timeout(args.deadline_s):
                await drive(session, timed, args.concurrency, outcomes)
        except TimeoutError:
            print("load: deadline reached before every request was answered", file=sys.stderr)
        seconds = time.perf_counter() - started
    return summarize(outcomes, args.requests, seconds, WeComCrypto(*crypto_args), args.expect)


def main() -> None:
    """Parse arguments, run the load, print one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the server's base URL")
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--warmup", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--deadline-s", type=float, default=300.0)
    parser.add_argument("--expect", choices=("keeper", "ok"), default="keeper")
    print(json.dumps(asyncio.run(run(parser.parse_args())), ensure_ascii=False))


if __name__ == "__main__":
    main()
