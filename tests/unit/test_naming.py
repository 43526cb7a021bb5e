"""One ladder finds tasks, events and reminders by the words of a message."""

from __future__ import annotations

from handlers.naming import named, readings


def _found(titles: list[str], said: str) -> list[str]:
    return named(titles, said, lambda title: title)


def test_an_exact_title_beats_titles_that_only_hold_the_words() -> None:
    assert _found(["买菜和水果", "买菜"], "买菜") == ["买菜"]


def test_every_title_holding_the_words_is_found_in_order() -> None:
    assert _found(["给房东打电话", "交材料", "给妈妈打电话"], "打电话") == [
        "给房东打电话",
        "给妈妈打电话",
    ]


def test_the_thing_without_its_verb_finds_a_title_said_with_another() -> None:
    assert _found(["拿快递"], "取快递") == ["拿快递"]


def test_a_leading_go_and_what_follows_the_last_of_are_readings_too() -> None:
    assert _found(["银行"], "去银行") == ["银行"]
    assert _found(["甲方视频会"], "跟甲方的视频会") == ["甲方视频会"]


def test_a_whole_title_inside_the_words_is_found_but_never_one_character() -> None:
    assert _found(["回款", "会"], "供应商回款打过去了") == ["回款"]
    assert _found(["会"], "开会的时间") == []


def test_the_readings_come_in_order_and_once() -> None:
    assert readings("取快递") == ["取快递", "快递"]
    assert readings("会") == ["会"]
