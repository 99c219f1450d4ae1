"""import_games: BoardGameGeek CSV files, created/updated/rejected with line numbers,
idempotent, all or nothing."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from catalog.collection import importer
from catalog.collection.models import Game, Term
from tests.conftest import require

pytestmark = pytest.mark.django_db

DATA_HEADER = ("bgg_id,title,year_published,game_weight,avg_rating,min_players,max_players,num_owned,num_want,"
               "num_wish,mfg_playtime,com_min_playtime,com_max_playtime,mfg_age_rec,num_user_ratings\n")


def write(tmp_path: Path, name: str, text: str, bom: bool = False) -> Path:
    path = tmp_path / name
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return path


def games_file(shared_dir: Path) -> Path:
    path = shared_dir / "data" / "bgg-games-21925.csv"
    require(path.is_file(), f"the shared data set is missing ({path})")
    return path


def test_the_shared_data_set_imports_says_what_it_adjusted_and_a_second_import_changes_nothing(shared_dir):
    # One test for the three imports of the whole data set (each is 21,925 games: seconds
    # of CI per import on each stack).
    path = games_file(shared_dir)
    report = importer.import_file(path)
    assert (report.rows, report.created, report.updated, report.unchanged) == (21925, 21925, 0, 0)
    assert Game.objects.count() == 21925
    assert report.rejected == []  # every line of this file can be read ...
    messages = [line.message for line in report.adjusted]  # ... but some needed a decision
    assert sum("maximum players 0 read as unknown" in m for m in messages) == 173
    assert sum("year 0 read as unknown" in m for m in messages) == 191
    assert sum("before the common era" in m for m in messages) == 10
    die_macher = Game.objects.get(bgg_id=1)
    assert (die_macher.title, die_macher.year, die_macher.min_players, die_macher.max_players) == ("Die Macher", 1986, 3, 5)
    assert (die_macher.min_time, die_macher.min_age, float(die_macher.weight)) == (240, 14, 4.0)
    assert Game.objects.filter(year__lt=0).count() == 10

    # A second import of the same file changes nothing, not even a row's "updated".
    before = dict(Game.objects.values_list("bgg_id", "updated"))
    report = importer.import_file(path)
    assert (report.created, report.updated, report.unchanged) == (0, 0, 21925)
    assert dict(Game.objects.values_list("bgg_id", "updated")) == before

    # The themes file links the games once; a second import adds and removes nothing.
    themes = shared_dir / "data" / "bgg-themes-21925.csv"
    first = importer.import_file(themes)
    assert first.kind == "themes" and first.links_added == 29084 and not first.rejected
    assert Term.objects.filter(kind="theme", slug="animals", name_fr="Animaux").exists()
    again = importer.import_file(themes)
    assert (again.links_added, again.links_removed) == (0, 0)


def test_it_rejects_bad_lines_with_their_numbers_and_imports_the_rest(tmp_path):
    path = write(tmp_path, "games.csv", DATA_HEADER + (
        "1,Die Macher,1986,4,7.6,3,5,7498,0,0,240,240,240,14,5354\n"
        ",No id,2000,2,6,2,4,1,0,0,30,30,30,8,1\n"
        "3,,2000,2,6,2,4,1,0,0,30,30,30,8,1\n"
        "4,Weighty,2000,9,6,2,4,1,0,0,30,30,30,8,1\n"
        "5,Ages,2000,2,6,two,4,1,0,0,30,30,30,8,1\n"
        "1,Die Macher again,1986,4,7.6,3,5,7498,0,0,240,240,240,14,5354\n"
        '6,"Swapped, with a comma",2001,2,6,5,2,1,0,0,30,30,30,8,1\n'
    ), bom=True)
    refused = importer.import_file(path)
    assert not refused.applied and Game.objects.count() == 0  # rejected lines: nothing changes ...
    report = importer.import_file(path, partial=True)  # ... unless asked
    assert report.applied and (report.rows, report.accepted) == (7, 2)
    assert [(line.number, line.message) for line in report.rejected] == [
        (3, "no BoardGameGeek id"),
        (4, "no title"),
        (5, "weight outside 1–5: 9"),
        (6, "minimum players is not a number: 'two'"),
        (7, "same BoardGameGeek id as line 2"),
    ]
    assert [(line.number, line.message) for line in report.adjusted] == [(8, "minimum and maximum players swapped")]
    swapped = Game.objects.get(bgg_id=6)
    assert (swapped.title, swapped.min_players, swapped.max_players) == ("Swapped, with a comma", 2, 5)
    assert report.created == 2


def test_it_updates_what_changed_by_bgg_id(tmp_path):
    row = "1,Die Macher,1986,4,7.6,3,5,7498,0,0,240,240,240,14,5354\n"
    importer.import_file(write(tmp_path, "a.csv", DATA_HEADER + row))
    report = importer.import_file(write(tmp_path, "b.csv", DATA_HEADER + row.replace("7.6", "7.7")))
    assert (report.created, report.updated) == (0, 1)
    assert Game.objects.get(bgg_id=1).rating == 7.7


def test_it_reads_a_boardgamegeek_collection_export(tmp_path):
    path = write(tmp_path, "collection.csv", (
        "objectname,objectid,rating,numplays,weight,own,average,avgweight,numowned,minplayers,maxplayers,"
        "playingtime,maxplaytime,minplaytime,yearpublished,bggrecplayers,bggbestplayers,bggrecagerange,"
        "bgglanguagedependence,itemtype\n"
        "Drumlin,5012,8,3,0,1,6.2,2.8,120,2,2,45,45,45,1986,2,2,12+,No necessary in-game text,standalone\n"
        "Les Aventuriers du Rail,9209,7,10,0,1,7.4,1.8,90000,2,5,60,60,30,2004,\"2,3,4,5\",4,8+,"
        "Some necessary text - easily memorized or small crib sheet,standalone\n"
    ))
    report = importer.import_file(path)
    assert report.created == 2 and not report.rejected
    ticket = Game.objects.get(bgg_id=9209)
    assert (ticket.min_time, ticket.max_time, ticket.min_age) == (30, 60, 8)
    assert (ticket.best_min_players, ticket.best_max_players, ticket.language_dependence) == (4, 4, 1)
    assert Game.objects.get(bgg_id=5012).language_dependence == 0


def test_a_file_that_fails_midway_imports_nothing(tmp_path, monkeypatch):
    rows = "".join(f"{i},Game {i},2000,2,6,2,4,1,0,0,30,30,30,8,1\n" for i in range(1, 2501))
    path = write(tmp_path, "big.csv", DATA_HEADER + rows)
    calls = []

    def progress(done: int, total: int) -> None:
        calls.append(done)
        if done >= 2000:
            raise RuntimeError("the disk is full")

    with pytest.raises(RuntimeError):
        importer.import_file(path, progress=progress)
    assert calls[-1] == 2000 and Game.objects.count() == 0


def test_unknown_files_are_refused_clearly(tmp_path):
    with pytest.raises(importer.ImportFileError, match="unknown columns"):
        importer.import_file(write(tmp_path, "x.csv", "name,price\nfoo,3\n"))
    with pytest.raises(importer.ImportFileError, match="empty"):
        importer.import_file(write(tmp_path, "e.csv", ""))
    with pytest.raises(importer.ImportFileError, match="cannot read"):
        importer.import_file(tmp_path / "missing.csv")


def test_the_command_reports_and_draws_progress(tmp_path):
    path = write(tmp_path, "games.csv", DATA_HEADER + "1,Die Macher,1986,4,7.6,3,0,7498,0,0,240,240,240,14,5354\n"
                 + "x,Bad,1,1,1,1,1,1,1,1,1,1,1,1,1\n")
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match="1 rejected lines, nothing was changed"):
        call_command("import_games", str(path), stdout=out, stderr=err)
    assert "2 rows read, 1 accepted, 1 rejected; nothing changed" in out.getvalue()
    assert not Game.objects.exists()
    call_command("import_games", str(path), "--partial", stdout=out, stderr=err)
    assert "1 created, 0 updated, 0 unchanged, 1 adjusted" in out.getvalue()
    assert "rejected line 3: bgg id is not a number: 'x'" in out.getvalue()
    assert "adjusted line 2: maximum players 0 read as unknown" in out.getvalue()
    assert "[##############################] 100% 1/1" in err.getvalue()
    with pytest.raises(CommandError, match="nothing was imported"):
        call_command("import_games", str(write(tmp_path, "bad.csv", "a,b\n1,2\n")), stdout=out, stderr=err)
