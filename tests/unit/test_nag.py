"""The nag's pure rules (`scheduler.core.nag`): slots, verdicts, words, as tables, and the
promises as properties: never more messages than the cap, none after the answer,
at most one per tick (no burst of queued repeats)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scheduler.core import cards, nag, quiet
from scheduler.core.texts import nag as nag_words
from storage.vocabulary import Priority, RuleKind

START = dt.datetime(2026, 11, 25, 6, 30, tzinfo=dt.UTC)  # 14:30 in Shanghai
SPEC = nag.NagSpec(start=START, every=10, cap=6)


def at(minutes: float) -> dt.datetime:
    return START + dt.timedelta(minutes=minutes)


@pytest.mark.parametrize(
    ("minutes", "index", "following"),
    [
        (0, 0, 10),
        (10, 1, 20),
        (40, 4, 50),
        (50, 5, None),  # the cap's slot: the last
        (60, None, None),  # past the cap
        (-10, None, None),  # before the start
        (5, None, None),  # off the grid
        (10.5, None, None),
    ],
)
def test_a_slot_knows_its_index_and_its_successor(
    minutes: float, index: int | None, following: int | None
) -> None:
    assert nag.index_of(SPEC, at(minutes)) == index
    expected = None if following is None else at(following)
    assert nag.following(SPEC, at(minutes)) == expected


@pytest.mark.parametrize(
    ("now", "first"),
    [(-30, 0), (0, 10), (3, 10), (10, 20), (49, 50), (50, None), (200, None)],
)
def test_a_nag_switched_back_on_resumes_at_the_next_slot_left(now: int, first: int | None) -> None:
    assert nag.first_after(SPEC, at(now)) == (None if first is None else at(first))


@pytest.mark.parametrize(
    ("slot", "now", "answered", "expected"),
    [
        (0, 0, False, nag.Repeat(index=0, last=False)),
        (10, 12, False, nag.Repeat(index=1, last=False)),
        (10, 19.9, False, nag.Repeat(index=1, last=False)),
        (10, 20, False, nag.Drop(reason="superseded by the next repeat")),
        (50, 50, False, nag.Repeat(index=5, last=True)),
        (50, 70, False, nag.Repeat(index=5, last=True)),  # no successor: its catch-up decides
        (20, 20, True, nag.Drop(reason="nag answered")),
        (60, 60, False, nag.Drop(reason="not a slot of this nag")),
        (5, 5, False, nag.Drop(reason="not a slot of this nag")),
    ],
)
def test_a_claimed_slot_goes_out_only_when_unanswered_current_and_within_the_cap(
    slot: float, now: float, answered: bool, expected: nag.Repeat | nag.Drop
) -> None:
    assert nag.verdict(SPEC, at(slot), at(now), answered=answered) == expected


@pytest.mark.parametrize(
    ("repeat", "expected"),
    [
        (nag.Repeat(index=0, last=False), "⏰ 提醒：吃药（回复「收到」就不再提醒）"),
        (nag.Repeat(index=2, last=False), "⏰ 再次提醒：吃药（回复「收到」就不再提醒）"),
        (nag.Repeat(index=5, last=True), "⏰ 最后一次提醒：吃药，之后不再提醒"),
    ],
)
def test_no_message_counts_slots_and_the_last_says_it_stops(
    repeat: nag.Repeat, expected: str
) -> None:
    assert nag_words.text("吃药", repeat) == expected


@pytest.mark.parametrize(
    "make",
    [
        lambda: nag.NagSpec(start=START.replace(tzinfo=None)),
        lambda: nag.NagSpec(start=START, every=4),
        lambda: nag.NagSpec(start=START, every=121),
        lambda: nag.NagSpec(start=START, cap=1),
        lambda: nag.NagSpec(start=START, cap=21),
    ],
)
def test_a_spec_out_of_range_is_refused(make: object) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - each row breaks a different rule
        make()  # type: ignore[operator]


def test_a_spec_survives_its_round_trip_through_the_rule() -> None:
    assert nag.NagSpec.from_json(SPEC.to_json()) == SPEC


@pytest.mark.parametrize(
    ("priority", "decision"),
    [(Priority.NORMAL, "suppress"), (Priority.HIGH, "send")],
)
def test_quiet_time_drops_a_plain_nags_repeat_and_lets_an_important_one_through(
    priority: Priority, decision: str
) -> None:
    assert quiet.during_quiet(RuleKind.NAG, priority, at(60), at(10)) == decision
    assert quiet.during_quiet(RuleKind.NAG, priority, at(10), at(10)) == "send"  # ended


def test_a_nag_card_has_one_button_whose_key_names_the_rule() -> None:
    card = cards.nag_card(nag_words.CARD_TITLE, "⏰ 提醒：吃药", cards.card_task_id("nag", 3), 42)
    [button] = card["button_list"]
    assert button["text"] == "知道了"
    assert cards.parse_key(button["key"]) == cards.CardAction(kind="nag", action="ack", rule_id=42)
    assert cards.replace_name(cards.CardAction(kind="nag", action="ack")) == "已收到"
    for bad in ("keeper:nag:ack:0", "keeper:nag:ack:x", "keeper:nag:done:3", "keeper:nag:ack"):
        assert cards.parse_key(bad) is None


# --- properties: the tick's use of the rules, simulated --------------------------

specs = st.builds(
    nag.NagSpec,
    start=st.just(START),
    every=st.integers(*nag.EVERY_RANGE),
    cap=st.integers(*nag.CAP_RANGE),
)
gaps = st.lists(st.integers(min_value=1, max_value=400), min_size=1, max_size=40)


def simulate(
    spec: nag.NagSpec, gaps: list[int], answer_after: int | None
) -> tuple[list[tuple[dt.datetime, int]], dt.datetime | None]:
    """Ticks `gaps` minutes apart from the start, as the tick runs them: the rule's due
    slots become jobs (`following` moves the rule), due jobs get their `verdict`. The
    answer comes `answer_after` minutes after the start. Returns the sends (time,
    index) and the answer's time."""
    answer = None if answer_after is None else at(answer_after)
    next_slot: dt.datetime | None = spec.start
    waiting: list[dt.datetime] = []
    sent: list[tuple[dt.datetime, int]] = []
    now = START
    for gap in gaps:
        now += dt.timedelta(minutes=gap)
        answered = answer is not None and answer <= now
        if answered:
            next_slot = None  # the answer retires the rule: nothing more is planned
        while next_slot is not None and next_slot <= now:
            waiting.append(next_slot)
            next_slot = nag.following(spec, next_slot)
        for slot in waiting:
            decision = nag.verdict(spec, slot, now, answered=answered)
            if isinstance(decision, nag.Repeat):
                sent.append((now, decision.index))
        waiting.clear()
    return sent, answer


@given(specs, gaps, st.none() | st.integers(min_value=0, max_value=3000))
def test_a_nag_never_sends_more_than_its_cap_nor_after_the_answer(
    spec: nag.NagSpec, gaps: list[int], answer_after: int | None
) -> None:
    sent, answer = simulate(spec, gaps, answer_after)
    assert len(sent) <= spec.cap
    assert all(answer is None or when < answer for when, _ in sent)
    indexes = [index for _, index in sent]
    assert indexes == sorted(set(indexes))  # each message once, in order
    times = [when for when, _ in sent]
    assert len(times) == len(set(times))  # at most one per tick: never a burst


@given(specs)
def test_a_nag_ticked_every_minute_and_never_answered_sends_exactly_its_cap(
    spec: nag.NagSpec,
) -> None:
    minutes = spec.every * spec.cap + 1
    sent, _ = simulate(spec, [0] + [1] * minutes, None)  # a tick at the start too
    assert [index for _, index in sent] == list(range(spec.cap))
    assert [when for when, _ in sent] == [nag.slot_at(spec, i) for i in range(spec.cap)]


def test_a_tasks_nag_says_to_answer_done() -> None:
    assert nag_words.text("交材料", nag.Repeat(index=1, last=False), task=True) == (
        "⏰ 再次提醒：交材料（做完回复「完成」）"
    )
