"""French typography, as the French catalogue writes it (locale/fr).

A space that may break leaves a mark alone at the start of a line on a phone, so the
catalogue writes a narrow no-break space (U+202F) before ; ! ? and a no-break space
(U+00A0) before : and inside « », as French typesetting does (the thousands separator
Django writes in French is the narrow one too). ``typeset`` applies that rule to a
French text written with plain spaces: tests name the strings they expect in plain
words and compare them with what the site shows; tests/test_translations.py checks
that every French string already follows it.
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


def typeset(text: str) -> str:
    text = _BEFORE_HIGH.sub(NARROW_NO_BREAK, text)
    text = _BEFORE_COLON.sub(NO_BREAK, text)
    text = _OPEN_QUOTE.sub("«" + NO_BREAK, text)
    return _CLOSE_QUOTE.sub(NO_BREAK + "»", text)
