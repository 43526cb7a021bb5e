"""What keeper sends on its own, in words: the scheduler's half of the bot's voice.

Every sentence the bot says lives in one of two packages, split by who may import
them (imports point one way, `tests/unit/test_layers.py`):

- `handlers/texts/`: what keeper answers in the chat, its views, help and errors,
  and what the bot's edges show (pages, the mini-program, the demo, the doctor).
- here, `scheduler/core/texts/`: what the scheduler sends without being asked, which
  the scheduler engine and the services compose and may not import `handlers` to
  get. Pure, like the rest of the core; `handlers/texts/` reuses these words where
  a reply says the same thing.

`tests/unit/test_voice.py` fails on a Chinese literal outside these two packages
(the parser's lexicon, the sandbox and docstrings aside). One module per feature:

- `times`: every clock time, day and instant named for people (`hm`, `day_label`);
- `messages`: the reminders (water, event, task, custom), their late note, merging
  several into one message, and the line naming what was missed or lost;
- `digests`: the morning and evening digests' headings and lines;
- `nag`: the words of a nag's repeats (直到完成);
- `cards`: a card's titles, buttons and after-click labels;
- `schedule`: a repeat rule described (`每天 22:00`, `每月1号 09:00`);
- `review_text`, `suggestions`: the weekly review, and its suggested action's title;
- `failure_words`: why a send failed, in plain words;
- `channels`: the channels by the names people read;
- `incidents`: the admins' alerts and all-clears, with the console fix;
- `rules`: the rule kinds by the names people read.
"""
