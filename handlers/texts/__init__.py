"""Every sentence keeper says in answer, one module per feature.

Reviewers read this package to know the bot's voice: short, plain Chinese, only what
the next action needs. Functions take plain values and return text; they do no I/O.
The few words keeper reads outside the parser sit next to the question they answer
(`YES_WORDS` in `confirm`, `NAG_DONE_WORDS` in `nag`).
What keeper sends on its own (reminders, digests, the weekly review, admin alerts)
is the scheduler's, in `scheduler/core/texts/`: the scheduler may not import
handlers. `tests/unit/test_voice.py` fails on a Chinese literal outside the two.

Callers write `from handlers import texts` and `texts.weight_recorded(...)`: every
module's names are re-exported here, so a sentence is named the same wherever it is
used, and `test_voice` fails when two modules define the same name. The modules:

- the conversation's features: `records` (weight, water check-ins, money, journal),
  `tasks`, `events`, `reminders` (提醒), `nag` (直到完成), `water` (the water
  plan), `digests` (晨报, 晚报), `quiet` (免打扰), `settings` (设置), `review`
  (周报, the weight goal), `budgets` (预算), `confirm` (questions about a guess),
  `undo` (撤销), `channels` (绑定, 设置 渠道), `channel_tests` (测试 渠道, device
  checks), `pages` (网页, 导出),
  `miniprogram` (绑定 小程序), `admin` (管理, 我是谁), `backups`, `retention`,
  `calendar` (日历订阅, and the words inside the feed);
- the views' layouts: `views` (今天, 本周, 本月, 今年);
- help and what went wrong: `help` (帮助), `misses` (not understood), `errors`
  (storage down or slow), `welcome`;
- the bot's edges: `web` (the pages), `demo` (`keeper chat`), `doctor` (`keeper
  doctor`, with the WeCom console's page names), `menu` (the app menu keeper
  installs); the mini-program API's sentences are in `miniprogram`;
- `units`: numbers as replies write them (kg, yuan).
"""

from handlers.texts.admin import *
from handlers.texts.backups import *
from handlers.texts.budgets import *
from handlers.texts.calendar import *
from handlers.texts.channel_tests import *
from handlers.texts.channels import *
from handlers.texts.confirm import *
from handlers.texts.demo import *
from handlers.texts.digests import *
from handlers.texts.doctor import *
from handlers.texts.errors import *
from handlers.texts.events import *
from handlers.texts.help import *
from handlers.texts.menu import *
from handlers.texts.miniprogram import *
from handlers.texts.misses import *
from handlers.texts.nag import *
from handlers.texts.pages import *
from handlers.texts.quiet import *
from handlers.texts.records import *
from handlers.texts.reminders import *
from handlers.texts.retention import *
from handlers.texts.review import *
from handlers.texts.settings import *
from handlers.texts.tasks import *
from handlers.texts.undo import *
from handlers.texts.units import *
from handlers.texts.views import *
from handlers.texts.water import *
from handlers.texts.web import *
from handlers.texts.welcome import *
