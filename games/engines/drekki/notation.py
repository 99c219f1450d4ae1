"""The text notation of a whole Drekki position (hidden parts included).

The text is a line-by-line spelling of the JSON form (``state.to_dict``), so
text, JSON and state convert into each other exactly. docs/notation.md
describes it; in short::

    drekki players=4 countdown=15 seed=7
    phase bidding
    facing 0
    horde 2-1 3-1 3-2 3-5 3-3 4-5 4-4 4-7 4-6 5-1
    chosen 3 2 5 5
    hands 04 13 13 04
    auction high=6 leader=1 out=2 turn=3
    tiles 2-5 - - 2-2
    markers - - - -
    tears 1 - - -
    dropped 2-7
    last 2 withdraw
    round 2-7 facing=1 cards=5441 leader=0 bid=12 colour=black stops=0
    round 2-2 facing=0 cards=1503 leader=3 bid=11 colour=- stops=3
    round 2-5 facing=3 cards=2022 leader=0 bid=8 colour=- stops=0

Lists are written with "-" when empty; cards as digits, tiles by id and
other values separated by commas. The ``last`` line (the last move played,
by seat) is left out before the first move. The duel (2 players) has ``piles``,
``shown``, ``hidden``, ``offers`` and ``tearpool`` lines instead of ``hands``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..base import PositionError

EMPTY = "-"
NONE = "-"


def _digits(cards: list[int]) -> str:
    return "".join(str(c) for c in cards) or EMPTY


def _commas(values: list[Any]) -> str:
    return ",".join(str(v) for v in values) or EMPTY


def _optional(value: int | None) -> str:
    return NONE if value is None else str(value)


def format_text(data: dict[str, Any]) -> str:
    """The text of a position given in its JSON form."""
    duel = data["players"] == 2
    auction = data["auction"]
    lines = [
        f"drekki players={data['players']} countdown={data['countdown']} seed={json.dumps(data['seed'], ensure_ascii=False)}",
        f"phase {data['phase']}",
        f"facing {data['facing']}",
        "horde " + (" ".join(data["horde"]) or EMPTY),
        "chosen " + " ".join(_optional(c) for c in data["chosen"]),
    ]
    if duel:
        lines += [
            "piles " + " ".join(_digits(p) for p in data["piles"]),
            "shown " + " ".join(_digits(s) for s in data["shown"]),
            "hidden " + " ".join(_digits(h) for h in data["hidden"]),
            "offers " + " ".join(_digits(o) for o in data["offers"]),
            "tearpool " + _commas(data["tear_pool"]),
        ]
    else:
        lines.append("hands " + " ".join(_digits(h) for h in data["hands"]))
    lines += [
        f"auction high={_optional(auction['high'])} leader={_optional(auction['leader'])} "
        f"out={_commas(auction['out'])} turn={_optional(auction['turn'])}",
        "tiles " + " ".join(_commas(t) for t in data["tiles"]),
        "markers " + " ".join(_commas(m) for m in data["markers"]),
        "tears " + " ".join(_commas(t) for t in data["tears"]),
        "dropped " + _commas(data["dropped"]),
    ]
    if data.get("last") is not None:
        lines.append(f"last {data['last']['seat']} {data['last']['move']}")
    for r in data["history"]:
        lines.append(
            f"round {r['tile']} facing={r['facing']} cards={_digits(r['cards'])} leader={r['leader']} "
            f"bid={r['bid']} colour={r['colour'] or NONE} stops={_commas(r['stops'])}"
        )
    return "\n".join(lines)


# -- reading ----------------------------------------------------------------------------


def _int(text: str, what: str) -> int:
    if not text.lstrip("-").isdigit():
        raise PositionError(f"{what} must be a whole number, not {text!r}")
    return int(text)


def _read_digits(text: str, what: str) -> list[int]:
    if text == EMPTY:
        return []
    if not text.isdigit():
        raise PositionError(f"{what} must be written as digits (or '-'), not {text!r}")
    return [int(c) for c in text]


def _read_commas(text: str, what: str, item: Callable[[str, str], Any]) -> list[Any]:
    if text == EMPTY:
        return []
    return [item(part, what) for part in text.split(",")]


def _read_optional(text: str, what: str) -> int | None:
    return None if text == NONE else _int(text, what)


def _as_text(text: str, what: str) -> str:
    if not text:
        raise PositionError(f"{what} has an empty entry")
    return text


def _fields(text: str, names: tuple[str, ...], what: str) -> dict[str, str]:
    """``name=value`` pairs, exactly ``names`` in that order."""
    parts = text.split(" ")
    found = [p.partition("=") for p in parts]
    if [name for name, _, _ in found] != list(names) or any(sep != "=" for _, sep, _ in found):
        raise PositionError(f"{what} must read {' '.join(n + '=...' for n in names)}, not {text!r}")
    return {name: value for name, _, value in found}


class _Lines:
    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise PositionError("a position must be text")
        self.lines = text.split("\n")
        self.at = 0

    def take(self, key: str) -> str:
        if self.at >= len(self.lines):
            raise PositionError(f"the position ends before its {key!r} line")
        line = self.lines[self.at]
        head, sep, rest = line.partition(" ")
        if head != key or not sep:
            raise PositionError(f"line {self.at + 1} should be the {key!r} line, not {line!r}")
        self.at += 1
        return rest

    def per_mage(self, key: str, count: int) -> list[str]:
        parts = self.take(key).split(" ")
        if len(parts) != count:
            raise PositionError(f"the {key!r} line needs {count} entries, not {len(parts)}")
        return parts


def parse_text(text: str) -> dict[str, Any]:
    """The JSON form of a position written in the text notation."""
    lines = _Lines(text)
    head = lines.take("drekki")
    players_part, _, rest = head.partition(" ")
    countdown_part, _, seed_part = rest.partition(" ")
    header = _fields(f"{players_part} {countdown_part}", ("players", "countdown"), "the first line")
    if not seed_part.startswith("seed="):
        raise PositionError("the first line must end with seed=<number or quoted text>")
    try:
        seed = json.loads(seed_part[len("seed=") :])
    except json.JSONDecodeError as exc:
        raise PositionError(f"the seed is not a number or a quoted text: {exc}") from exc
    players = _int(header["players"], "players")
    if not 2 <= players <= 6:
        raise PositionError(f"players must be from 2 to 6, not {players}")
    mages = 4 if players == 2 else players
    data: dict[str, Any] = {
        "game": "drekki",
        "players": players,
        "seed": seed,
        "countdown": _int(header["countdown"], "countdown"),
        "phase": lines.take("phase"),
        "facing": _int(lines.take("facing"), "facing"),
    }
    horde = lines.take("horde")
    data["horde"] = [] if horde == EMPTY else horde.split(" ")
    data["chosen"] = [_read_optional(c, "a chosen card") for c in lines.per_mage("chosen", mages)]
    if players == 2:
        data["piles"] = [_read_digits(p, "a pile") for p in lines.per_mage("piles", mages)]
        data["shown"] = [_read_digits(s, "shown discards") for s in lines.per_mage("shown", mages)]
        data["hidden"] = [_read_digits(h, "hidden discards") for h in lines.per_mage("hidden", mages)]
        data["offers"] = [_read_digits(o, "an offer") for o in lines.per_mage("offers", mages)]
        data["tear_pool"] = _read_commas(lines.take("tearpool"), "the tear pool", _int)
    else:
        data["hands"] = [_read_digits(h, "a hand") for h in lines.per_mage("hands", mages)]
    auction = _fields(lines.take("auction"), ("high", "leader", "out", "turn"), "the auction line")
    data["auction"] = {
        "high": _read_optional(auction["high"], "the high bid"),
        "leader": _read_optional(auction["leader"], "the auction leader"),
        "out": _read_commas(auction["out"], "withdrawn seats", _int),
        "turn": _read_optional(auction["turn"], "the auction turn"),
    }
    data["tiles"] = [_read_commas(t, "tiles taken", _as_text) for t in lines.per_mage("tiles", mages)]
    data["markers"] = [_read_commas(m, "markers", _int) for m in lines.per_mage("markers", mages)]
    data["tears"] = [_read_commas(t, "tears", _int) for t in lines.per_mage("tears", players)]
    data["dropped"] = _read_commas(lines.take("dropped"), "dropped tiles", _as_text)
    if lines.at < len(lines.lines) and lines.lines[lines.at].startswith("last "):
        seat, _, move = lines.take("last").partition(" ")
        data["last"] = {"seat": _int(seat, "the last move's seat"), "move": move}
    data["history"] = []
    while lines.at < len(lines.lines):
        tile, _, rest = lines.take("round").partition(" ")
        r = _fields(rest, ("facing", "cards", "leader", "bid", "colour", "stops"), "a round line")
        data["history"].append(
            {
                "tile": tile,
                "facing": _int(r["facing"], "a round's facing"),
                "cards": _read_digits(r["cards"], "a round's cards"),
                "leader": _int(r["leader"], "a round's leader"),
                "bid": _int(r["bid"], "a round's bid"),
                "colour": None if r["colour"] == NONE else r["colour"],
                "stops": _read_commas(r["stops"], "a round's stops", _int),
            }
        )
    return data
