"""French typography: the spaces that keep a mark with its word.

French puts a space before ; : ! ? and inside « ». A space that may break lets a line
start with the mark alone on a phone ("Titre original" / ": Kakerlakensuppe"), so French
text takes a narrow no-break space (U+202F) before ; ! ? and a no-break space (U+00A0)
before : and inside « », as French typesetting does (the thousands separator Django
writes in French is the narrow one too).

The French catalogue (locale/fr), the rules pages and the lessons are written that way
(tests/test_translations.py checks them); names typed by people or imported as data
(a game's French title) are typeset when they are shown (``Game.display_title``).
"""

from __future__ import annotations

import re

NO_BREAK = "\u00a0"
NARROW_NO_BREAK = "\u202f"
_SPACE = "[ \u00a0\u202f]"
# A mark that ends a clause: then a space, the end, a closing sign or a placeholder.
_CLAUSE_END = r"(?:\s|$|[\"')»<%.,])"
_BEFORE_HIGH = re.compile(rf"(?<=\S){_SPACE}(?=[;!?]{_CLAUSE_END})")
_BEFORE_COLON = re.compile(rf"(?<=\S){_SPACE}(?=:{_CLAUSE_END})")
_OPEN_QUOTE = re.compile(rf"«{_SPACE}")
_CLOSE_QUOTE = re.compile(rf"{_SPACE}»")


def french(text: str) -> str:
    """``text`` with the spaces before French marks made no-break (the words unchanged)."""
    text = _BEFORE_HIGH.sub(NARROW_NO_BREAK, text)
    text = _BEFORE_COLON.sub(NO_BREAK, text)
    text = _OPEN_QUOTE.sub("«" + NO_BREAK, text)
    return _CLOSE_QUOTE.sub(NO_BREAK + "»", text)
