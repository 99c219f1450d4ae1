"""Garbled titles (issue 25): every title of the real data that still looks garbled
after the automatic repair is repaired by the reviewed mapping
(catalog/data/title-repairs.csv) or shown with a correction pending, and a pending
title is never offered as "did you mean". Applied at import (only to the lines
read, only to the very garbled title reviewed) and to existing rows by
``manage.py repair_titles`` (a row that cannot be saved does not stop the others)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import translation

from catalog.collection import importer, mojibake, names, search, title_repairs
from catalog.collection.models import Game
from tests.conftest import require

pytestmark = pytest.mark.django_db

HEADER = "bgg_id,title,year_published,min_players,max_players\n"


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# The titles as the site shows them are Python's work on what the import stored, the same
# on either database: CI checks the whole data set once (marker one_stack, first pass).
@pytest.mark.one_stack
def test_no_title_of_the_real_data_is_shown_garbled_unless_pending(shared_dir):
    path = shared_dir / "data" / "bgg-games-21925.csv"
    require(path.is_file(), f"the shared data set is missing ({path})")
    report = importer.import_file(path)
    assert report.applied and not report.rejected
    assert importer.import_file(names.SHIPPED).applied
    reviews = mojibake.shipped_reviews()
    genuine = {r.bgg_id for r in reviews.values() if r.status == "genuine"}
    # French names are shown with no-break spaces before their marks ("Zone-A : ..."); read
    # as plain spaces here, or "A" and U+00A0 would pass for a garbled "à" (the names file
    # itself is checked as written in test_names_data).
    with translation.override("fr"):
        shown = [(g, " ".join(g.display_title.split())) for g in Game.objects.prefetch_related("names")]
    flagged = mojibake.scan(((g, t) for g, t in shown))
    flagged += mojibake.scan(((g, g.title) for g, _ in shown))
    unmarked = sorted({(g.bgg_id, t) for g, t in flagged if not g.title_pending and g.bgg_id not in genuine})
    assert unmarked == []
    titles = dict(Game.objects.values_list("bgg_id", "title"))
    assert titles[20] == "Full Metal Planète"
    assert titles[2165] == "Pokémon Trading Card Game"
    assert titles[1794] == "Risk: Édition Napoléon"
    assert titles[21348] == "Ticket to Ride: Märklin"
    assert titles[219513] == "Bärenpark"
    assert titles[2842] == "TransAmerica"  # right as it is (reviewed "genuine")
    pending = set(Game.objects.filter(title_pending=True).values_list("bgg_id", flat=True))
    assert pending == {r.bgg_id for r in reviews.values() if r.status == "pending"}
    # Every reviewed line is about a title of this very data set, as the import shows it.
    assert sum(1 for r in reviews.values() if titles[r.bgg_id] == (r.repaired or r.garbled)) == len(reviews)


@pytest.fixture
def pending_and_clean(tmp_path, make_game):
    # Real lines of the data set: TrAtofant (no certain repair) and Bärenpark.
    path = write(tmp_path, "g.csv", HEADER + "25537,TrAtofant,2008,2,4\n219513,BArenpark,2017,1,4\n")
    report = importer.import_file(path)
    assert report.applied
    control = make_game("Tratofanto", owned_count=5)  # a clean title, as close to the query
    return Game.objects.get(bgg_id=25537), control


def test_a_pending_title_is_never_suggested(pending_and_clean):
    pending, control = pending_and_clean
    assert pending.title_pending and pending.title == "TrAtofant"
    results = search.search_titles("xqzvw tratofant")  # nothing holds both words
    assert results.ids == []
    assert control.pk in results.suggestions
    assert pending.pk not in results.suggestions
    # Found when searched for (shown, with its mark), only never offered.
    assert pending.pk in search.search_games("tratofant")


def test_the_game_page_says_the_correction_is_pending(client, pending_and_clean):
    pending, _ = pending_and_clean
    page = client.get(pending.get_absolute_url()).content.decode()
    assert "class=\"title-pending\"" in page
    bar = Game.objects.get(bgg_id=219513)
    assert bar.title == "Bärenpark" and not bar.title_pending
    assert "title-pending" not in client.get(bar.get_absolute_url()).content.decode()


def test_a_review_applies_only_to_its_game_and_its_garbled_title(tmp_path):
    path = write(tmp_path, "g.csv", HEADER + (
        "20,Full Metal PlanAte,1988,2,4\n"       # reviewed: repaired
        "21,Full Metal PlanAte,1988,2,4\n"       # same text, another game: not reviewed
        "164928,Orleans,2014,2,4\n"              # reviewed id, another title: left as read
    ))
    report = importer.import_file(path)
    titles = dict(Game.objects.values_list("bgg_id", "title"))
    pending = dict(Game.objects.values_list("bgg_id", "title_pending"))
    assert titles == {20: "Full Metal Planète", 21: "Full Metal PlanAte", 164928: "Orleans"}
    assert pending == {20: False, 21: True, 164928: False}
    assert [line.number for line in report.garbled] == [3]
    assert importer.import_file(path).updated == 0  # a second run changes nothing


def test_an_import_never_touches_what_it_did_not_read(tmp_path):
    Game.objects.create(title="PokAmon Master Trainer", bgg_id=1381)  # an old row, never re-read
    path = write(tmp_path, "g.csv", HEADER + "20,Full Metal PlanAte,1988,2,4\n")
    importer.import_file(path)
    old = Game.objects.get(bgg_id=1381)
    assert (old.title, old.title_pending) == ("PokAmon Master Trainer", False)


def _refuse_updates_of(bgg_id: int) -> None:
    """A real database refusal for one row (a trigger), as a locked or broken row would."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "CREATE FUNCTION names_refuse() RETURNS trigger AS $$ BEGIN "
                "RAISE EXCEPTION 'row refused'; END $$ LANGUAGE plpgsql"
            )
            cursor.execute(
                f"CREATE TRIGGER names_refuse BEFORE UPDATE ON catalog_game FOR EACH ROW "
                f"WHEN (NEW.bgg_id = {int(bgg_id)}) EXECUTE FUNCTION names_refuse()"
            )
        else:
            cursor.execute(
                f"CREATE TRIGGER names_refuse BEFORE UPDATE ON catalog_game WHEN NEW.bgg_id = {int(bgg_id)} "
                "BEGIN SELECT RAISE(ABORT, 'row refused'); END"
            )


def test_repair_titles_repairs_existing_rows_and_a_bad_row_stops_nothing():
    rows = {
        20: "Full Metal PlanAte", 2165: "PokAmon Trading Card Game", 1794: "Risk: Édition NapolAon",
        564: "Die SeidenstraAŸe", 25537: "TrAtofant", 2842: "TransAmerica", 9209: "Ticket to Ride",
    }
    for bgg_id, title in rows.items():
        Game.objects.create(title=title, bgg_id=bgg_id)
    _refuse_updates_of(2165)
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match="1 games could not be repaired"):
        call_command("repair_titles", stdout=out, stderr=err)
    titles = dict(Game.objects.values_list("bgg_id", "title"))
    repaired = {20: "Full Metal Planète", 1794: "Risk: Édition Napoléon", 564: "Die Seidenstraße"}
    assert titles == {**rows, **repaired}
    assert set(Game.objects.filter(title_pending=True).values_list("bgg_id", flat=True)) == {25537}
    assert "row refused" in err.getvalue()
    assert "3 titles repaired, 1 marked pending" in out.getvalue()
    # Found by its repaired name; a second run only retries the refused row.
    assert search.search_games("full metal planete")[0] == Game.objects.get(bgg_id=20).pk
    report = title_repairs.repair_titles()
    assert (report.repaired, report.pending, len(report.failed)) == ([], [], 1)


def test_a_game_renamed_by_hand_keeps_its_name():
    game = Game.objects.create(title="Orléans (boîte de la maison)", bgg_id=164928)
    report = title_repairs.repair_titles()
    game.refresh_from_db()
    assert game.title == "Orléans (boîte de la maison)" and report.repaired == []


@pytest.mark.parametrize("line, reason", [
    ("x,Full Metal PlanAte,Full Metal Planète,repaired", "line 3"),
    ("20,Full Metal PlanAte,Full Metal Planète,maybe", "line 3"),
    ("20,Full Metal PlanAte,Full Metal PlanAte,repaired", "must be given, differ and look clean"),
    ("20,Full Metal PlanAte,,repaired", "must be given"),
    ("20,Full Metal PlanAte,Full Metal Planète,pending", "no repair yet"),
    ("20,TransAmerica,Transamerica,genuine", "repaired as itself"),
])
def test_a_bad_mapping_is_refused_whole_and_changes_nothing(tmp_path, line, reason):
    Game.objects.create(title="PokAmon Master Trainer", bgg_id=1381)
    good = "1381,PokAmon Master Trainer,Pokémon Master Trainer,repaired"
    mapping = write(tmp_path, "m.csv", f"bgg_id,garbled,repaired,status\n{good}\n{line}\n")
    with pytest.raises(mojibake.ReviewFileError, match=reason):
        mojibake.read_reviews(mapping)
    with pytest.raises(CommandError):
        call_command("repair_titles", "--mapping", str(mapping), stdout=io.StringIO())
    assert Game.objects.get(bgg_id=1381).title == "PokAmon Master Trainer"


def test_an_id_twice_in_the_mapping_is_refused(tmp_path):
    mapping = write(tmp_path, "m.csv", "bgg_id,garbled,repaired,status\n20,A,B,repaired\n20,A,B,repaired\n")
    with pytest.raises(mojibake.ReviewFileError, match="line 3: id 20 is already"):
        mojibake.read_reviews(mapping)


@pytest.mark.parametrize("title, garbled", [
    ("PokAmon", True), ("BArenpark", True), ("Ticket to Ride: MArklin", True), ("OrlAans", True),
    ("Gambler A— Gamble!", True), ("MagÂ·Blast", True),
    ("Pokémon", False), ("CATAN", False), ("Azul", False), ("A Feast for Odin", False), ("Agricola", False),
])
def test_the_scan_knows_the_patterns(title, garbled):
    assert mojibake.looks_garbled(title) is garbled
    assert mojibake.scan([(1, title)]) == ([(1, title)] if garbled else [])
