"""The dragon tiles and tear tokens of Drekki, read from ``tiles.json``.

The file is the only place where tile faces live. It is read once, at import,
and checked field by field: a bad file fails loudly with the tile and the field
named, instead of producing a game that quietly plays wrong.

The printed faces have not been transcribed: ``tiles.json`` holds a balanced
reconstruction and says so in its ``note``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA_PATH = Path(__file__).with_name("tiles.json")

# Power colours, in the order used everywhere in the engine (index = card // 2).
COLOURS = ("yellow", "red", "black")
AUCTIONS = ("infinite", "unique", "live")
# How many tiles of each burn value the box holds (from the rules, not tile data).
BOX = {2: 8, 3: 8, 4: 8, 5: 3}
TEAR_TOKEN_COUNT = 13
MOVE_LIMIT = 2
TILE_FIELDS = ("id", "burns", "auction", "moves", "moves_5_6")
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*")


class TileDataError(ValueError):
    """The tile data file is missing something or holds a value out of range."""


@dataclass(frozen=True, slots=True)
class DragonTile:
    """One dragon tile: its burns, its auction and where it sends the dragon.

    ``moves`` and ``moves_5_6`` hold, per power colour (yellow, red, black), how
    many mages the dragon moves: positive to the left (the next seat number),
    negative to the right.
    """

    index: int
    id: str
    burns: int
    auction: str
    moves: tuple[int, int, int]
    moves_5_6: tuple[int, int, int]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "burns": self.burns,
            "auction": self.auction,
            "moves": dict(zip(COLOURS, self.moves)),
            "moves_5_6": dict(zip(COLOURS, self.moves_5_6)),
        }


@dataclass(frozen=True)
class TileSet:
    """Every tile of the box, the tear tokens, and lookups by id and by burns."""

    note: str
    tiles: tuple[DragonTile, ...]
    tear_tokens: tuple[int, ...]
    by_id: Mapping[str, int]
    by_burns: Mapping[int, tuple[int, ...]]


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_moves(raw: Any, where: str) -> tuple[int, int, int]:
    if not isinstance(raw, Mapping):
        raise TileDataError(f"{where} must map each power colour to a move, not {raw!r}")
    extra = sorted(set(raw) - set(COLOURS))
    if extra:
        raise TileDataError(f"{where} has unknown colour(s) {', '.join(map(str, extra))}")
    moves = []
    for colour in COLOURS:
        if colour not in raw:
            raise TileDataError(f"{where} has no entry for {colour}")
        move = raw[colour]
        if not _whole(move) or abs(move) > MOVE_LIMIT:
            raise TileDataError(
                f"{where}.{colour} must be a whole number from -{MOVE_LIMIT} to +{MOVE_LIMIT}, not {move!r}"
            )
        moves.append(move)
    return (moves[0], moves[1], moves[2])


def _read_tile(raw: Any, index: int) -> DragonTile:
    label = f"tile #{index + 1}"
    if not isinstance(raw, Mapping):
        raise TileDataError(f"{label} must be an object, not {raw!r}")
    if isinstance(raw.get("id"), str):
        label = f"tile {raw['id']!r}"
    for name in TILE_FIELDS:
        if name not in raw:
            raise TileDataError(f"{label} has no field {name!r}")
    extra = sorted(set(raw) - set(TILE_FIELDS))
    if extra:
        raise TileDataError(f"{label} has unknown field(s) {', '.join(map(str, extra))}")
    tile_id = raw["id"]
    if not isinstance(tile_id, str) or not _ID.fullmatch(tile_id):
        raise TileDataError(f"{label}: field 'id' must be letters, digits and dashes, not {tile_id!r}")
    burns = raw["burns"]
    if not _whole(burns) or burns not in BOX:
        raise TileDataError(f"{label}: field 'burns' must be one of 2, 3, 4, 5, not {burns!r}")
    auction = raw["auction"]
    if auction not in AUCTIONS:
        raise TileDataError(f"{label}: field 'auction' must be one of {', '.join(AUCTIONS)}, not {auction!r}")
    return DragonTile(
        index=index,
        id=tile_id,
        burns=burns,
        auction=auction,
        moves=_read_moves(raw["moves"], f"{label}: field 'moves'"),
        moves_5_6=_read_moves(raw["moves_5_6"], f"{label}: field 'moves_5_6'"),
    )


def _check_box(tiles: tuple[DragonTile, ...]) -> None:
    seen: set[str] = set()
    for tile in tiles:
        if tile.id in seen:
            raise TileDataError(f"tile {tile.id!r}: field 'id' is used by two tiles")
        seen.add(tile.id)
    for burns, wanted in BOX.items():
        level = [t for t in tiles if t.burns == burns]
        if len(level) != wanted:
            raise TileDataError(f"the box needs {wanted} tiles of {burns} burns, the file has {len(level)}")
        for auction in AUCTIONS:
            if not any(t.auction == auction for t in level):
                raise TileDataError(f"no {auction} auction among the tiles of {burns} burns")


def _read_tears(raw: Any) -> tuple[int, ...]:
    if not isinstance(raw, list) or len(raw) != TEAR_TOKEN_COUNT:
        raise TileDataError(f"'tear_tokens' must list the values of the {TEAR_TOKEN_COUNT} tear tokens")
    for k, value in enumerate(raw):
        if not _whole(value) or value < 1:
            raise TileDataError(f"tear token #{k + 1} must be worth a whole number of at least 1, not {value!r}")
    return tuple(raw)


def validate(data: Any) -> TileSet:
    """Check raw tile data (as read from JSON) and build the :class:`TileSet`."""
    if not isinstance(data, Mapping):
        raise TileDataError("the tile data must be an object")
    note = data.get("note")
    if not isinstance(note, str) or not note.strip():
        raise TileDataError("the tile data needs a 'note' saying where the tile faces come from")
    raw_tiles = data.get("tiles")
    if not isinstance(raw_tiles, list):
        raise TileDataError("the tile data needs a 'tiles' list")
    tiles = tuple(_read_tile(raw, k) for k, raw in enumerate(raw_tiles))
    _check_box(tiles)
    tears = _read_tears(data.get("tear_tokens"))
    return TileSet(
        note=note,
        tiles=tiles,
        tear_tokens=tears,
        by_id={t.id: t.index for t in tiles},
        by_burns={b: tuple(t.index for t in tiles if t.burns == b) for b in BOX},
    )


def load(path: Path = DATA_PATH) -> TileSet:
    """Read and check the tile file; TileDataError names what is wrong."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise TileDataError(f"{path.name} is not valid JSON: {exc}") from exc
    return validate(data)


TILESET = load()
TILES = TILESET.tiles
