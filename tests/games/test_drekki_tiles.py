"""The dragon tile data file: what it holds, and how a bad file is refused."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

import games.bots.drekki
import games.engines.drekki
from games.engines.drekki.tiles import AUCTIONS, DATA_PATH, TILESET, TileDataError, load, validate

RAW = json.loads(DATA_PATH.read_text(encoding="utf-8"))


def bad(change) -> dict:
    data = copy.deepcopy(RAW)
    change(data)
    return data


def test_the_box_holds_twenty_seven_tiles_by_burn_value():
    burns = [t.burns for t in TILESET.tiles]
    assert len(burns) == 27
    assert {b: burns.count(b) for b in (2, 3, 4, 5)} == {2: 8, 3: 8, 4: 8, 5: 3}


def test_every_auction_type_appears_at_every_burn_level():
    for burns in (2, 3, 4, 5):
        kinds = {t.auction for t in TILESET.tiles if t.burns == burns}
        assert kinds == set(AUCTIONS)


def test_moves_stay_between_minus_two_and_plus_two():
    for t in TILESET.tiles:
        assert all(-2 <= m <= 2 for m in t.moves + t.moves_5_6)


def test_the_file_says_it_is_a_reconstruction():
    assert "reconstruction" in TILESET.note.lower()


def test_there_are_thirteen_tear_tokens_worth_one_until_the_printed_values_are_known():
    assert TILESET.tear_tokens == (1,) * 13


def test_loading_a_file_checks_it(tmp_path: Path):
    path = tmp_path / "tiles.json"
    path.write_text(json.dumps(RAW), encoding="utf-8")
    assert load(path).tiles == TILESET.tiles
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(TileDataError, match="not valid JSON"):
        load(path)


@pytest.mark.parametrize(
    "change, reason",
    [
        (lambda d: d["tiles"][3].pop("auction"), r"tile '2-4' has no field 'auction'"),
        (lambda d: d["tiles"][0].update(auction="sealed"), r"tile '2-1': field 'auction' must be one of"),
        (lambda d: d["tiles"][9]["moves"].update(red=3), r"tile '3-2': field 'moves'.red must be a whole number"),
        (lambda d: d["tiles"][9]["moves_5_6"].update(black=-3), r"tile '3-2': field 'moves_5_6'.black"),
        (lambda d: d["tiles"][9]["moves"].update(red=True), r"tile '3-2': field 'moves'.red"),
        (lambda d: d["tiles"][2]["moves"].pop("yellow"), r"tile '2-3': field 'moves' has no entry for yellow"),
        (lambda d: d["tiles"][2]["moves"].update(green=1), r"tile '2-3': field 'moves' has unknown colour"),
        (lambda d: d["tiles"][5].update(burns=6), r"tile '2-6': field 'burns' must be one of"),
        (lambda d: d["tiles"][5].update(burns="2"), r"tile '2-6': field 'burns'"),
        (lambda d: d["tiles"][5].update(colour="red"), r"tile '2-6' has unknown field"),
        (lambda d: d["tiles"][1].update(id="2-1"), r"tile '2-1': field 'id' is used by two tiles"),
        (lambda d: d["tiles"][1].update(id="two one"), r"field 'id' must be letters, digits and dashes"),
        (lambda d: d["tiles"][1].pop("id"), r"tile #2 has no field 'id'"),
        (lambda d: d["tiles"].pop(), r"needs 3 tiles of 5 burns, the file has 2"),
        (lambda d: d["tiles"][0].update(burns=3), r"needs 8 tiles of 2 burns, the file has 7"),
        (
            lambda d: [t.update(auction="unique") for t in d["tiles"] if t["burns"] == 5 and t["auction"] == "live"],
            r"no live auction among the tiles of 5 burns",
        ),
        (lambda d: d.update(note=""), r"needs a 'note'"),
        (lambda d: d.pop("tiles"), r"needs a 'tiles' list"),
        (lambda d: d["tear_tokens"].pop(), r"values of the 13 tear tokens"),
        (lambda d: d["tear_tokens"].__setitem__(4, 0), r"tear token #5 must be worth a whole number of at least 1"),
    ],
)
def test_the_validator_names_the_tile_and_the_field(change, reason):
    with pytest.raises(TileDataError, match=reason):
        validate(bad(change))


def test_the_validator_refuses_data_that_is_not_an_object():
    with pytest.raises(TileDataError, match="must be an object"):
        validate([])
    with pytest.raises(TileDataError, match="tile #1 must be an object"):
        validate(bad(lambda d: d["tiles"].__setitem__(0, "2-1")))


def test_no_tile_data_is_written_in_the_code():
    sources = [Path(games.engines.drekki.__file__).parent.glob("*.py"), [Path(games.bots.drekki.__file__)]]
    quoted_id = re.compile(r"""["'][2-5]-[1-8]["']""")
    for group in sources:
        for path in group:
            assert not quoted_id.search(path.read_text(encoding="utf-8")), f"{path.name} names a tile"
