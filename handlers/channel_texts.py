"""Moved to `handlers/texts/channels.py`. Kept only while `handlers/parse/channels.py`
(edited elsewhere at the time of the move) imports this name; delete it once that
import reads `from handlers.texts import channels as t`."""

from handlers.texts.channels import *
