"""Interactive card pieces: button keys round-trip, parsing is total, payloads match WeCom."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scheduler.core.cards import (
    CARD_TASK_ID,
    CardAction,
    card_task_id,
    parse_key,
    replace_name,
    task_card,
    task_key,
    water_card,
    water_key,
)

# -- keys -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("keeper:water:done", CardAction(kind="water", action="done")),
        ("keeper:water:later", CardAction(kind="water", action="later")),
        ("keeper:task:done:42", CardAction(kind="task", action="done", task_id=42)),
        ("keeper:task:tomorrow:7", CardAction(kind="task", action="tomorrow", task_id=7)),
        ("keeper:task:done:999999999999999999", CardAction(kind="task", action="done", task_id=999999999999999999)),
    ],
)  # fmt: skip
def test_a_key_we_built_parses_to_its_action(key: str, expected: CardAction) -> None:
    assert parse_key(key) == expected


@pytest.mark.parametrize(
    "key",
    [
        "",
        "keeper",
        "keeper:water",
        "keeper:water:",
        "keeper:water:drink",
        "keeper:water:done:1",
        "Keeper:water:done",
        " keeper:water:done",
        "keeper:water:done\n",
        "keeper:task:done",
        "keeper:task:done:",
        "keeper:task:done:0",
        "keeper:task:done:042",
        "keeper:task:done:-1",
        "keeper:task:done:+1",
        "keeper:task:done:1.0",
        "keeper:task:done:٤٢",  # Arabic-Indic digits are "decimal" to Python, not to us
        "keeper:task:done:1000000000000000000",  # past a BIGINT's safe range
        "keeper:task:later:1",
        "keeper:task:done:1:2",
        "other:water:done",
        "button_done",
    ],
)
def test_anything_else_parses_to_none(key: str) -> None:
    assert parse_key(key) is None


@given(st.text(max_size=80))
def test_parsing_any_text_never_raises(key: str) -> None:
    assert parse_key(key) is None or isinstance(parse_key(key), CardAction)


@given(st.text(alphabet="keeper:wattsdonlrmw0123456789-", max_size=40))
def test_whatever_parses_is_canonical(key: str) -> None:
    action = parse_key(key)
    if action is not None:
        assert _key_of(action) == key


@given(st.sampled_from(["done", "tomorrow"]), st.integers(min_value=1, max_value=10**18 - 1))
def test_task_keys_round_trip(action: Any, task_id: int) -> None:
    assert parse_key(task_key(action, task_id)) == CardAction(
        kind="task", action=action, task_id=task_id
    )


@pytest.mark.parametrize("action", ["done", "later"])
def test_water_keys_round_trip(action: Any) -> None:
    assert parse_key(water_key(action)) == CardAction(kind="water", action=action)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: water_key("drink"), "water action"),  # type: ignore[arg-type]
        (lambda: task_key("later", 1), "task action"),  # type: ignore[arg-type]
        (lambda: task_key("done", 0), "positive"),
        (lambda: task_key("done", -3), "positive"),
        (lambda: task_key("done", True), "positive"),
        (lambda: task_key("done", 10**18), "positive"),
    ],
)
def test_a_key_that_could_not_be_parsed_back_is_refused(build: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        build()


def _key_of(action: CardAction) -> str:
    if action.kind == "water":
        return water_key(action.action)  # type: ignore[arg-type]
    assert action.task_id is not None
    return task_key(action.action, action.task_id)  # type: ignore[arg-type]


# -- after the click ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "label"),
    [
        (CardAction(kind="water", action="done"), "已喝 💧"),
        (CardAction(kind="water", action="later"), "稍后提醒"),
        (CardAction(kind="task", action="done", task_id=1), "已完成"),
        (CardAction(kind="task", action="tomorrow", task_id=1), "明天再说"),
        (CardAction(kind="task", action="snooze", task_id=1), "已处理"),
    ],
)
def test_a_clicked_button_is_relabelled_in_a_few_words(action: CardAction, label: str) -> None:
    assert replace_name(action) == label
    assert len(replace_name(action)) <= 10  # WeCom: button text best at most 10 characters


# -- payloads -------------------------------------------------------------------------


def test_a_water_card_is_a_button_interaction_with_drank_and_later() -> None:
    card = water_card("该喝水了，今天已喝 3 杯", "keeper-water-17-1")
    assert card == {
        "card_type": "button_interaction",
        "source": {"desc": "keeper"},
        "main_title": {"title": "💧 喝水提醒"},
        "sub_title_text": "该喝水了，今天已喝 3 杯",
        "task_id": "keeper-water-17-1",
        "button_list": [
            {"text": "喝了", "style": 1, "key": "keeper:water:done"},
            {"text": "稍后", "style": 2, "key": "keeper:water:later"},
        ],
    }


def test_a_task_card_carries_the_task_row_in_its_keys() -> None:
    card = task_card("周五 交材料", "keeper-task-99-2", 42)
    assert card["card_type"] == "button_interaction"
    assert card["task_id"] == "keeper-task-99-2"
    assert card["button_list"] == [
        {"text": "完成", "style": 1, "key": "keeper:task:done:42"},
        {"text": "明天再说", "style": 2, "key": "keeper:task:tomorrow:42"},
    ]
    assert [parse_key(b["key"]) for b in card["button_list"]] == [
        CardAction(kind="task", action="done", task_id=42),
        CardAction(kind="task", action="tomorrow", task_id=42),
    ]


def test_cards_stay_inside_wecoms_documented_limits() -> None:
    for card in (water_card("水" * 500, "a"), task_card("事" * 500, "b" * 128, 10**17)):
        assert len(card["main_title"]["title"]) <= 36
        assert len(card["sub_title_text"]) == 160
        assert card["sub_title_text"].endswith("…")
        assert 1 <= len(card["button_list"]) <= 6
        assert all(len(b["key"].encode()) <= 1024 for b in card["button_list"])
        assert all(1 <= b["style"] <= 4 for b in card["button_list"])
        assert "replace_text" not in card  # it would grey the buttons out at once
        json.dumps(card)  # plain JSON values only


@pytest.mark.parametrize(
    "task_id", ["", "a" * 129, "has space", "has:colon", "中文", "a#b", "a.b", "tab\t"]
)
def test_a_card_task_id_outside_wecoms_rule_is_refused(task_id: str) -> None:
    with pytest.raises(ValueError, match="task_id"):
        water_card("喝水", task_id)
    with pytest.raises(ValueError, match="task_id"):
        task_card("任务", task_id, 1)


@pytest.mark.parametrize("task_id", ["a", "A-z_0@9", "x" * 128, "keeper-water-1-1"])
def test_a_card_task_id_inside_wecoms_rule_is_kept(task_id: str) -> None:
    assert water_card("喝水", task_id)["task_id"] == task_id


def test_each_attempt_of_a_job_gets_its_own_card_task_id() -> None:
    first, second = card_task_id("water", 17), card_task_id("water", 17, attempt=2)
    assert (first, second) == ("keeper-water-17-1", "keeper-water-17-2")
    assert CARD_TASK_ID.fullmatch(first)
    with pytest.raises(ValueError, match="task_id"):
        card_task_id("water plan", 1)
