"""When keeper could not do what was asked (storage down or slow, an internal error),
and the note on a reply cut to fit. Each says whether the message was recorded."""

from __future__ import annotations

STORAGE_DOWN = "暂时记不下来（存储出了问题），这条没有记上，请过一会儿再发一次。"
INTERNAL_ERROR = "出了点问题，这条没有记上，请稍后再试。"
STORAGE_SLOW = "存储暂时没响应，这条没有记上，请过一会儿再发一次。"
MAYBE_RECORDED = "存储响应太慢，这条可能没记下，发「今天」看看。"
REPLY_CUT = "\n…（太长了，只显示前面部分）"
