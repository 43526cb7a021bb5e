"""The first words to someone new, and on entering the app (`handlers/welcome.py`)."""

from __future__ import annotations

WELCOME = "你好，我是 keeper，帮你记体重、喝水、记账、待办和日程。\n发「帮助」看看怎么用。"
