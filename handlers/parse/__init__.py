"""The command language: text (or a menu key, or a card button) -> one `Command`.

Split by role: `normalise` (width, look-alikes, decoration), `lexicon` (every word
table), `numbers`, `when` (days, times) and `schedules` (recurrences), then one module
per intent family: `records`, `tasks`, `views` (and undo, help), `settings` (and
reminders), `admin`; `natural` reads what people type without a keyword, and
`reader` puts them in order. Pure and total: see `reader.parse`.
"""

from handlers.parse.reader import parse, parse_event_key
from handlers.parse.views import parse_card_key

__all__ = ["parse", "parse_card_key", "parse_event_key"]
