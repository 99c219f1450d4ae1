"""Alternate names from a CSV (bgg_id, language, name): imported with a line-by-line
report; unknown games, empty names, duplicates and bad language codes are rejected
and change nothing; a second run changes nothing; the shipped French names file is
sound."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import call_command

from catalog.collection import importer, names, search
from catalog.collection.models import Game, GameName, refresh_titles

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(make_game):
    return {
        9209: make_game("Ticket to Ride", bgg_id=9209, owned_count=100),
        25821: make_game("The Werewolves of Miller's Hollow", bgg_id=25821, owned_count=50),
    }


def write(tmp_path, text: str):
    path = tmp_path / "names.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_good_lines_are_imported_and_bad_ones_reported_line_by_line(tmp_path, games):
    path = write(tmp_path, "\n".join([
        "bgg_id,language,name",
        "9209,fr,Les Aventuriers du Rail",          # 2: primary French name
        "9209,fr,Aventuriers du Rail",              # 3: a second French name
        "25821,fr,Les Loups-Garous de Thiercelieux",  # 4
        "424242,fr,Jeu inconnu",                    # 5: no such game
        "9209,fr,   ",                              # 6: empty
        "9209,fr,les aventuriers du rail",          # 7: same as line 2 (case and accents aside)
        "9209,french,Les Aventuriers",              # 8: not a language code
        "9209,FR,Les Aventuriers",                  # 9: upper case
        "abc,fr,Nom",                               # 10: not an id
        "9209,de,Zug um Zug,extra",                 # 11: four columns
        "9209,de,Zug um Zug",                       # 12
    ]) + "\n")
    assert not importer.import_file(path).applied and not GameName.objects.exists()
    report = importer.import_file(path, partial=True)
    assert report.kind == "names"
    assert (report.rows, report.created, report.unchanged) == (11, 4, 0)
    assert {line.number: line.message for line in report.rejected} == {
        5: "no game with BoardGameGeek id 424242 (import the games first)",
        6: "empty name",
        7: "same name as line 2",
        8: "not a two-letter ISO 639-1 language code in lower case: 'french'",
        9: "not a two-letter ISO 639-1 language code in lower case: 'FR'",
        10: "not a BoardGameGeek id: 'abc'",
        11: "4 fields instead of 3 (a comma in a field without quotes?)",
    }
    ttr = Game.objects.get(bgg_id=9209)
    assert ttr.title_fr == "Les Aventuriers du Rail" and ttr.title_de == "Zug um Zug"
    assert list(ttr.names.filter(language="fr", primary=True).values_list("name", flat=True)) == ["Les Aventuriers du Rail"]
    assert GameName.objects.count() == 4
    assert search.search_games("aventuriers du rail")[0] == ttr.pk
    assert search.search_games("loups garous")[0] == games[25821].pk

    again = importer.import_file(path, partial=True)
    assert (again.created, again.unchanged, len(again.rejected)) == (0, 4, 7)
    assert GameName.objects.count() == 4


def test_the_command_reports_a_names_file(tmp_path, games):
    path = write(tmp_path, "bgg_id,language,name\n9209,fr,Les Aventuriers du Rail\n1,fr,Die Macher\n")
    out = io.StringIO()
    call_command("import_games", str(path), "--no-progress", "--partial", stdout=out)
    text = out.getvalue()
    assert "1 names added" in text and "rejected line 3: no game with BoardGameGeek id 1" in text


def test_an_import_never_changes_a_primary_name_chosen_by_staff(tmp_path, games):
    ttr = games[9209]
    GameName.objects.create(game=ttr, language="fr", name="Aventuriers du Rail", primary=True)
    refresh_titles([ttr])
    importer.import_file(write(tmp_path, "bgg_id,language,name\n9209,fr,Les Aventuriers du Rail\n"))
    ttr.refresh_from_db()
    assert ttr.title_fr == "Aventuriers du Rail"
    assert ttr.names.get(name="Les Aventuriers du Rail").primary is False


def test_the_shipped_french_names_are_sound():
    with names.SHIPPED.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["bgg_id", "language", "name", "kind", "source"]
    body = rows[1:]
    assert all(len(r) == 5 and r[0].isdigit() and r[1] in names.LANGUAGE_CODES and r[2].strip() for r in body)
    assert all(r[3] in names.KINDS and r[4] in names.SOURCES for r in body)
    french_games = {r[0] for r in body if r[1] == "fr"}
    assert len(french_games) >= 500
    assert len({(r[0], r[1], r[2].lower()) for r in body}) == len(body)  # no duplicate line
    by_id = {}
    for bgg_id, language, name, _kind, _source in body:
        by_id.setdefault((bgg_id, language), []).append(name)
    assert by_id[("9209", "fr")][0] == "Les Aventuriers du Rail"
    assert by_id[("25821", "fr")][0] == "Les Loups-Garous de Thiercelieux"
    assert by_id[("822", "fr")][0] == "Carcassonne"


def test_kind_and_source_columns(tmp_path, games):
    path = write(tmp_path, "\n".join([
        "bgg_id,language,name,kind,source",
        "9209,fr,Les Aventuriers du Rail,,edition",        # 2
        "9209,fr,Aventuriers du Rail Europe,former,",      # 3: a former title, source unknown
        "25821,fr,Loups-Garous,former,traditional",        # 4: former, listed first: not primary
        "25821,fr,Les Loups-Garous de Thiercelieux,,",     # 5: the primary one
        "9209,fr,Zug,old,edition",                         # 6: unknown kind
        "9209,fr,Zug,,guessed",                            # 7: unknown source
        "9209,fr,Zug,,",                                   # 8: five columns, nothing else
        "9209,fr,Zug",                                     # 9: three columns in a five-column file
    ]) + "\n")
    report = importer.import_file(path, partial=True)
    assert {line.number: line.message for line in report.rejected} == {
        6: "kind is empty, current or former, not 'old'",
        7: "unknown source 'guessed' (one of: edition, library, publisher, traditional)",
        9: "3 fields instead of 5 (truncated line?)",
    }
    rows = {n.name: (n.kind, n.source, n.primary) for n in GameName.objects.all()}
    assert rows == {
        "Les Aventuriers du Rail": ("current", "edition", True),
        "Aventuriers du Rail Europe": ("former", "", False),
        "Loups-Garous": ("former", "traditional", False),
        "Les Loups-Garous de Thiercelieux": ("current", "", True),
        "Zug": ("current", "", False),
    }
    assert Game.objects.get(bgg_id=25821).title_fr == "Les Loups-Garous de Thiercelieux"
    assert search.search_games("loups garous")[0] == games[25821].pk  # a former title is found


def test_a_second_file_may_change_kind_and_source_but_not_a_hosts_name_or_the_primary(tmp_path, games, alice):
    ttr = games[9209]
    first = "bgg_id,language,name\n9209,fr,Les Aventuriers du Rail\n9209,fr,Aventuriers\n"
    importer.import_file(write(tmp_path, first))
    GameName.objects.create(game=ttr, language="fr", name="ADR", source="publisher", added_by=alice)
    again = write(tmp_path, "\n".join([
        "bgg_id,language,name,kind,source",
        "9209,fr,Aventuriers,former,edition",                # changes: it was current, no source
        "9209,fr,ADR,former,edition",                        # a host's name: left alone
        "9209,fr,Les Aventuriers du Rail,former,edition",    # the primary name never becomes former
    ]) + "\n")
    report = importer.import_file(again)
    assert (report.created, report.updated, report.unchanged) == (0, 1, 2)
    rows = {n.name: (n.kind, n.source, n.primary) for n in GameName.objects.all()}
    assert rows["Aventuriers"] == ("former", "edition", False)
    assert rows["ADR"] == ("current", "publisher", False)
    assert rows["Les Aventuriers du Rail"] == ("current", "", True)
    assert importer.import_file(again).updated == 0  # a second run changes nothing
