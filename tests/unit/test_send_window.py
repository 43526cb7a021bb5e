"""The sliding window of sends: at most `size` in flight, each outcome flushed once, a
start flushed before its send, and a hung send holding nobody else's flush."""

from __future__ import annotations

import asyncio

import pytest

from scheduler.send_window import SendWindow


class Recorder:
    """Sends that answer at once (or, for the names in `hang`, when released), and a
    flush that records what it was given and lets every asked start go, except the
    names in `refuse`."""

    def __init__(self, *, hang: set[str] = frozenset(), refuse: set[str] = frozenset()) -> None:
        self.hang, self.refuse = hang, refuse
        self.release = asyncio.Event()
        self.in_flight = self.most_in_flight = 0
        self.started: list[str] = []
        self.flushed: list[str] = []
        self.sent: list[str] = []
        self.flushes: list[tuple[list[str], list[str]]] = []

    async def send(self, name: str) -> str:
        assert name in self.started, "a send left before its start was flushed"
        self.sent.append(name)
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        if name in self.hang:
            await self.release.wait()
        else:
            await asyncio.sleep(0)  # yield: other sends run meanwhile
        self.in_flight -= 1
        return f"ok:{name}"

    async def flush(self, finished: list[tuple[str, str]], to_start: list[str]) -> list[str]:
        self.flushes.append(([n for n, _ in finished], list(to_start)))
        for name, result in finished:
            assert result == f"ok:{name}"
            self.flushed.append(name)
        if len(self.flushed) == len(self.started) - len(self.hang) and not to_start:
            self.release.set()  # everything but the hung sends is finalised: let them go
        go = [n for n in to_start if n not in self.refuse]
        self.started += go
        return go


def names(n: int) -> list[str]:
    return [f"m{i}" for i in range(n)]


async def run(recorder: Recorder, items: list[str], size: int) -> None:
    window: SendWindow[str, str] = SendWindow(size=size, send=recorder.send, flush=recorder.flush)
    first = items[:size]
    recorder.started += first  # recorded by the caller's prepare transaction
    await window.run(first, items[size:])


async def test_every_send_is_flushed_once_and_never_more_than_size_are_in_flight() -> None:
    recorder = Recorder()
    await run(recorder, names(50), size=8)
    assert sorted(recorder.flushed) == sorted(names(50))
    assert len(set(recorder.flushed)) == 50
    assert recorder.sent == recorder.started
    assert recorder.most_in_flight <= 8


async def test_a_hung_send_does_not_hold_the_finalisation_of_the_others() -> None:
    recorder = Recorder(hang={"m0"})
    await run(recorder, names(20), size=4)
    # Every other send was flushed before the hung one was let go (the flush that
    # saw the 19th outcome released it), and the hung one was flushed last.
    assert recorder.flushed[-1] == "m0"
    assert sorted(recorder.flushed[:-1]) == sorted(names(20)[1:])


async def test_a_send_whose_start_the_flush_refuses_is_never_sent() -> None:
    recorder = Recorder(refuse={"m5", "m9"})
    await run(recorder, names(12), size=3)
    assert not {"m5", "m9"} & set(recorder.sent)
    assert sorted(recorder.flushed) == sorted(set(names(12)) - {"m5", "m9"})


async def test_a_failed_flush_waits_for_the_sends_in_flight_and_raises() -> None:
    recorder = Recorder()

    async def failing(finished: list[tuple[str, str]], to_start: list[str]) -> list[str]:
        raise RuntimeError("database gone")

    window: SendWindow[str, str] = SendWindow(size=2, send=recorder.send, flush=failing)
    recorder.started += ["a", "b"]
    with pytest.raises(RuntimeError, match="database gone"):
        await window.run(["a", "b"], ["c"])
    assert recorder.in_flight == 0
    assert "c" not in recorder.sent


def test_a_window_holds_at_least_one_send() -> None:
    with pytest.raises(ValueError, match="at least one"):
        SendWindow(size=0, send=Recorder().send, flush=Recorder().flush)
