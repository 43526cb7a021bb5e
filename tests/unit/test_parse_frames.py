"""What is taken off a message before it is read (issue 19): politeness, spoken fillers,
a question about a feature, words typed apart, a corrected value, regional words."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handlers.parse.normalise import compact, corrected, normalise, without_frame


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("麻烦帮我加个待办，周四去社保局交材料", "帮我加个待办，周四去社保局交材料"),
        ("请把晨报改到每天早上六点半。", "把晨报改到每天早上六点半。"),  # the reader tidies 。
        ("喝水 +2 谢谢啦", "喝水 +2"),
        ("早上起来称了一下，一百二十六斤，麻烦帮我记一下好吗", "早上起来称了一下，一百二十六斤"),
        ("嗯就是…明天8点提醒我去拿体检报告", "明天8点提醒我去拿体检报告"),
        ("对了，周四晚上七点半提醒我给车充电", "周四晚上七点半提醒我给车充电"),
        (
            "有没有定时提醒的功能？有的话请每天早上六点五十提醒我起床。",
            "每天早上六点五十提醒我起床。",
        ),
        ("能加待办吗？月底前交年度总结", "加待办 月底前交年度总结"),
    ],
)
def test_the_frame_around_a_request_is_taken_off(typed: str, read: str) -> None:
    assert without_frame(typed) == read


@pytest.mark.parametrize(
    "typed",
    ["请假 3天", "日记 今天很累。", "谢谢", "麻烦", "2 ✅", "记账 35 午饭", "那个提醒删了"],
)
def test_a_message_without_a_frame_is_kept_as_typed(typed: str) -> None:
    assert without_frame(typed) == typed


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("外卖 三十五 哦不对 是三十九", "外卖 三十九"),
        ("20分钟后 不对 半小时后 提醒我关火", "半小时后 提醒我关火"),
        ("日记 他说不对 我觉得对", "日记 他说不对 我觉得对"),
        ("不对", "不对"),
    ],
)
def test_a_value_corrected_in_the_same_message_replaces_the_one_before(
    typed: str, read: str
) -> None:
    assert corrected(typed) == read


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("今年 过的 咋样", "今年过的咋样"),
        ("喝水 +2", "喝水 +2"),
        ("支出 35.5 交通", "支出 35.5 交通"),
    ],
)
def test_spaces_between_chinese_words_are_joined_only_there(typed: str, read: str) -> None:
    assert compact(typed) == read


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("明儿上午十点", "明天上午十点"),
        ("快递取咗了", "快递取了了"),
        ("午饭三十五蚊", "午饭三十五块"),
        ("打蚊子", "打蚊子"),
        ("明天在说", "明天再说"),
    ],
)
def test_regional_words_and_homophones_read_as_mandarin(typed: str, read: str) -> None:
    assert normalise(typed) == read


@given(st.text(max_size=60))
def test_normalising_keeps_the_length_so_an_index_stays_an_index(text: str) -> None:
    assert len(normalise(text)) == len(text)


@given(st.text(max_size=60))
def test_the_frame_readers_are_total(text: str) -> None:
    for read in (without_frame, corrected, compact):
        assert isinstance(read(text), str)
