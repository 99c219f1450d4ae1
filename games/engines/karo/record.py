"""The positions recorded for the repetition rule: in memory, and as stored.

RULES.md records a position at the end of each turn and calls its third
occurrence a draw. A move that no later move can undo (a piece placed, a piece
lit, the layouts revealed) starts the record afresh, since no earlier position
can come back; between two such moves every recorded position may come back,
so all of them are kept, exactly.

In memory the record is a :class:`Seen`, a persistent count map keyed by each
game's position key (cheap to make during a search). Stored, it is the
record's *text*: the compact code of each recorded position (see the games'
``record_code``), in the order they occurred, separated by single spaces; a
position seen twice is there twice. A state read from storage keeps that text
as it is (its codes are counted once, on reading) and only the positions
recorded after it are kept as keys; saving such a state again writes the text
read plus the codes of the new positions. Saving and loading therefore never
read or write a position text, and cost a few microseconds per thousand
recorded positions.
"""

from __future__ import annotations

import base64
from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from ..base import JSON, PositionError

Code = Callable[[Any], str]  # a game's position key -> its code in the stored text

# The alphabet of the codes (base64's URL-safe one): nothing JSON escapes, no space.
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def packed(cells: str, digits: dict[int, int], turn: str, size: int) -> str:
    """``cells`` (one of five characters each, ``digits`` maps them to 0-4) and the
    seat to move (``"0"``/``"1"``) as one number, written in ``size`` bytes of base64."""
    n = int(cells.translate(digits), 5) * 2 + (turn == "1")
    return base64.urlsafe_b64encode(n.to_bytes(size, "big")).rstrip(b"=").decode("ascii")


def digit_table(alphabet: str) -> dict[int, int]:
    """A ``str.translate`` table mapping the five characters of ``alphabet`` to ``"0"``-``"4"``."""
    assert len(alphabet) == 5
    return {ord(ch): ord("0") + i for i, ch in enumerate(alphabet)}


_FAN = 32
_MASK = _FAN - 1
_SHIFT = 5
_EMPTY_NODE: tuple[Any, ...] = (None,) * _FAN


class Stored:
    """A record as read from storage: its text, and the code of each game's keys.

    Codes have one length per game and hold no space, so an occurrence of a
    code in the text is always one whole code of it: ``text.count(code)`` is
    how many times that position was recorded (a search in C, a few
    microseconds, and nothing to build when a state is only loaded to be shown).
    """

    __slots__ = ("text", "code")

    def __init__(self, text: str, code: Code) -> None:
        self.text = text
        self.code = code

    def count(self, key: Hashable) -> int:
        return self.text.count(self.code(key))


class Seen:
    """How many times each position occurred: a persistent (never changed) count map.

    A two-level hash trie of 32-way tuples whose leaves are tuples of keys (a key
    counted twice appears twice). Adding a key copies two small tuples and one
    leaf, so every state of a game keeps its own history while sharing almost
    all of it with its parent: bots branch from any state, and a long game costs
    no more per turn than a short one.

    A record read from storage (``stored``) counts its codes besides the keys
    added since; each added key remembers the record it was added to, so that
    the text of the record is built from its parent's (see :meth:`text`).
    """

    __slots__ = ("_root", "size", "_stored", "_parent", "_key", "_text")

    def __init__(
        self,
        root: tuple[Any, ...] | None = None,
        size: int = 0,
        stored: Stored | None = None,
        parent: Seen | None = None,
        key: Hashable = None,
        text: str | None = "",
    ) -> None:
        self._root = root
        self.size = size  # occurrences recorded, repeats included
        self._stored = stored
        self._parent = parent
        self._key = key
        self._text = text  # the stored text, once known (None: to be built from the parent's)

    def count(self, key: Hashable) -> int:
        stored = self._stored
        n = 0 if stored is None else stored.count(key)
        root = self._root
        if root is None:
            return n
        h = hash(key)
        branch = root[h & _MASK]
        if branch is None:
            return n
        leaf = branch[(h >> _SHIFT) & _MASK]
        return n if leaf is None else n + leaf.count(key)

    def add(self, key: Hashable) -> tuple[Seen, int]:
        """This map with one more occurrence of ``key``, and the new count of ``key``."""
        h = hash(key)
        i, j = h & _MASK, (h >> _SHIFT) & _MASK
        root = self._root or _EMPTY_NODE
        branch = root[i] or _EMPTY_NODE
        leaf = branch[j]
        if leaf is None:
            leaf, count = (key,), 1
        else:
            count = leaf.count(key) + 1
            leaf = leaf + (key,)
        stored = self._stored
        if stored is not None:
            count += stored.count(key)
        new_branch = list(branch)  # a list copy and one store: cheaper than slicing a tuple
        new_branch[j] = leaf
        new_root = list(root)
        new_root[i] = tuple(new_branch)
        return Seen(tuple(new_root), self.size + 1, stored, self, key, None), count

    def text(self, code: Code) -> str:
        """The stored form: the codes of the recorded positions, oldest first, joined by spaces.

        Built once per record from the nearest record whose text is known (the
        one read from storage, or the parent saved just before), then remembered.
        """
        if self._text is None:
            codes = []
            node = self
            while True:
                known = node._text
                if known is not None:
                    break
                parent = node._parent
                if parent is None:
                    # Another thread remembered this node's text (it sets the text
                    # before it lets the parent go).
                    known = node._text
                    break
                codes.append(code(node._key))
                node = parent
            if known:
                codes.append(known)
            codes.reverse()
            self._text = " ".join(codes)
            self._parent = None  # no longer needed: let the chain of parents go
        return self._text

    def counts(self) -> dict[Any, int]:
        """The keys added in memory and their counts (a stored record's codes aside)."""
        out: dict[Any, int] = {}
        for branch in self._root or ():
            for leaf in branch or ():
                for key in leaf or ():
                    out[key] = out.get(key, 0) + 1
        return out

    def code_counts(self, code: Code) -> Counter[str]:
        """Every recorded position, as its code, with its count."""
        text = self.text(code)
        return Counter(text.split(" ")) if text else Counter()

    @classmethod
    def of(cls, counts: Iterable[tuple[Hashable, int]]) -> Seen:
        seen = EMPTY_SEEN
        for key, n in counts:
            for _ in range(n):
                seen = seen.add(key)[0]
        return seen

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Seen):
            return NotImplemented
        if self.size != other.size:
            return False
        stored = self._stored or other._stored
        if stored is None:
            return self.counts() == other.counts()
        return self.code_counts(stored.code) == other.code_counts(stored.code)

    def __hash__(self) -> int:
        return hash(self.size)

    def __repr__(self) -> str:
        stored = f", stored={self._stored.text!r}" if self._stored is not None else ""
        return f"Seen({self.counts()!r}{stored})"


EMPTY_SEEN = Seen()


def read_record(text: JSON, code: Code, width: int) -> Seen:
    """A stored record (see :meth:`Seen.text`) of codes ``width`` characters long, checked.

    PositionError for anything but codes of that length, made of the codes'
    alphabet, separated by single spaces. (Counts are not checked here: that
    would cost a count of every code at every load; a position recorded more
    than twice is a game that ended.)
    """
    if not isinstance(text, str):
        raise PositionError(f"the recorded positions are a text of codes, not {type(text).__name__}")
    if not text:
        return EMPTY_SEEN
    step = width + 1
    if (
        not text.isascii()
        or len(text) % step != width
        or text[width::step].strip(" ")
        or text.encode("ascii").translate(None, _CODE_BYTES)
        or text.count(" ") != len(text) // step
    ):
        raise PositionError(f"the recorded positions must be codes of {width} characters separated by single spaces")
    return Seen(None, len(text) // step + 1, Stored(text, code), None, None, text)


_CODE_BYTES = (ALPHABET + " ").encode("ascii")
