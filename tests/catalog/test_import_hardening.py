"""Imports change only the games whose lines they read; a file with a rejected line
changes nothing without --partial; truncated lines, open quotes and bad bytes are
rejected alone; garbled titles are repaired where certain (issue 18, finding 1)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from catalog.collection import importer
from catalog.collection.models import Game, GameName, Term
from tests.conftest import require

pytestmark = pytest.mark.django_db

HEADER = "bgg_id,title,year_published,min_players,max_players\n"
THEMES = "bgg_id,animals,fantasy,pirates\n"


def write(tmp_path: Path, name: str, data: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


def links() -> set[tuple[int, str]]:
    return set(Game.terms.through.objects.values_list("game__bgg_id", "term__slug"))


def snapshot() -> tuple:
    games = sorted(Game.objects.values_list("bgg_id", "title", "year", "min_players", "max_players"))
    names = sorted(GameName.objects.values_list("game__bgg_id", "language", "name"))
    return games, sorted(links()), names


@pytest.fixture
def catalogue(tmp_path):
    importer.import_file(write(tmp_path, "g.csv", HEADER + "".join(f"{i},Game {i},2000,2,4\n" for i in (1, 2, 3))))
    importer.import_file(write(tmp_path, "t.csv", THEMES + "1,1,0,0\n2,0,1,0\n3,1,1,1\n"))
    assert links() == {(1, "animals"), (2, "fantasy"), (3, "animals"), (3, "fantasy"), (3, "pirates")}


def test_a_themes_file_with_a_bad_line_changes_no_theme_of_any_game(tmp_path, catalogue):
    path = write(tmp_path, "bad.csv", THEMES + "1,0,0,1\n2,0,x,0\n")
    before = links()
    out = io.StringIO()
    with pytest.raises(CommandError, match="nothing was changed"):
        call_command("import_games", str(path), "--no-progress", stdout=out)
    assert links() == before
    assert "rejected line 3: theme values are 0 or 1, not 'x'" in out.getvalue()
    # With --partial: game 1's themes follow its line; game 2 (its line rejected) and
    # game 3 (not in the file) keep theirs.
    call_command("import_games", str(path), "--no-progress", "--partial", stdout=out)
    assert links() == {(1, "pirates"), (2, "fantasy"), (3, "animals"), (3, "fantasy"), (3, "pirates")}


def test_a_themes_file_of_one_game_leaves_the_other_games_alone(tmp_path, catalogue):
    report = importer.import_file(write(tmp_path, "one.csv", THEMES + "2,0,0,0\n"))
    assert report.applied and (report.links_added, report.links_removed) == (0, 1)
    assert links() == {(1, "animals"), (3, "animals"), (3, "fantasy"), (3, "pirates")}


def test_a_truncated_line_and_an_open_quote_are_rejected_with_a_clear_reason(tmp_path):
    path = write(tmp_path, "g.csv", HEADER + (
        "1,Good,2000,2,4\n"
        "2,Cut short,2000\n"
        '3,"Open quote,2000,2,4\n'
        "4,Also good,2001,2,5\n"
        '5,"Quoted" tail,2001,2,5\n'
    ))
    report = importer.import_file(path)
    assert not report.applied and not Game.objects.exists()
    assert [(line.number, line.message) for line in report.rejected] == [
        (3, "3 fields instead of 5 (truncated line?)"),
        (4, 'unterminated quote: a field opened with " is not closed on this line'),
        (6, "badly quoted field (',' expected after '\"'): a field in quotes must be followed by a comma"),
    ]
    report = importer.import_file(path, partial=True)
    assert (report.rows, report.accepted, report.created) == (5, 2, 2)
    assert sorted(Game.objects.values_list("title", flat=True)) == ["Also good", "Good"]


def test_a_line_that_is_not_utf8_is_rejected_alone(tmp_path):
    data = (HEADER + "1,Caf\u00e9,2000,2,4\n").encode() + b"2,Caf\xe9,2000,2,4\n"
    report = importer.import_file(write(tmp_path, "g.csv", data), partial=True)
    assert [(line.number, line.message) for line in report.rejected] == [
        (3, "not UTF-8 text (byte 0xe9 at column 6); save the file as UTF-8")]
    assert Game.objects.get().title == "Café"
    # A file with no UTF-8 at all is an old Windows-1252 export, read as such.
    report = importer.import_file(write(tmp_path, "w.csv", HEADER.encode() + b"3,Caf\xe9 cr\xe8me,2000,2,4\n"))
    assert report.encoding == "cp1252" and Game.objects.get(bgg_id=3).title == "Café crème"


def test_garbled_titles_are_repaired_where_certain_and_reported(tmp_path):
    path = write(tmp_path, "g.csv", HEADER + (
        "564,Die SeidenstraAŸe,1998,2,7\n"
        "2,Risk: A‰dition NapolAon,1998,2,7\n"      # the é of Napoléon is lost: no certain repair
        "3,MagÂ·Blast,1998,2,7\n"
        "4,La CittA\u00a0,1998,2,7\n"
        "5,TransAmerica,2001,2,6\n"
    ))
    out = io.StringIO()
    call_command("import_games", str(path), "--no-progress", stdout=out)
    titles = dict(Game.objects.values_list("bgg_id", "title"))
    assert titles[564] == "Die Seidenstraße" and titles[3] == "Mag·Blast" and titles[4] == "La Città"
    assert titles[2] == "Risk: Édition NapolAon" and titles[5] == "TransAmerica"
    text = out.getvalue()
    assert "4 titles repaired" in text
    assert "repaired line 2: title 'Die SeidenstraAŸe' repaired as 'Die Seidenstraße'" in text
    assert "garbled line 3: title 'Risk: Édition NapolAon' looks garbled" in text
    # A second run changes nothing.
    assert importer.import_file(path).updated == 0


def test_the_shared_data_set_titles_are_repaired(shared_dir):
    path = shared_dir / "data" / "bgg-games-21925.csv"
    require(path.is_file(), f"the shared data set is missing: {path}")
    report = importer.import_file(path, only_bgg_ids={564, 56943, 1})
    assert len(report.repaired) == 2 and not report.rejected
    assert set(Game.objects.values_list("title", flat=True)) == {"Die Macher", "Die Seidenstraße", "Seidenstraße"}


# -- property: a bad line never changes another line's outcome --------------------------

titles = st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=20)
good_rows = st.lists(
    st.tuples(st.integers(1, 50), titles, st.integers(1900, 2030), st.integers(1, 4), st.integers(4, 8)),
    min_size=1, max_size=6, unique_by=lambda row: row[0],
)
bad_rows = st.one_of(
    st.builds(lambda i: f"{i},Cut short\n".encode(), st.integers(1, 50)),           # truncated
    st.builds(lambda i: f'{i},"Never closed,2000,2,4\n'.encode(), st.integers(1, 50)),  # open quote
    # Bad bytes: 0x81 is neither UTF-8 nor Windows-1252, whatever the rest of the file.
    st.builds(lambda i, b: f"{i},".encode() + b"\x81" + b + b",2000,2,4\n", st.integers(1, 50),
              st.binary(max_size=6).filter(lambda b: b"\n" not in b and b"\r" not in b)),
    st.builds(lambda i: f"{i},Extra,2000,2,4,9\n".encode(), st.integers(1, 50)),    # a field too many
    st.builds(lambda i: f"{i},Bad year,year,2,4\n".encode(), st.integers(1, 50)),   # a bad value
)


def _csv(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _file(rows, bad: bytes | None, at: int) -> bytes:
    lines = [f"{i},{_csv(title)},{year},{low},{high}\n".encode() for i, title, year, low, high in rows]
    if bad is not None:
        lines.insert(at, bad)
    return HEADER.encode() + b"".join(lines)


def _outcome(tmp_path: Path, data: bytes, **options) -> tuple:
    """Import ``data`` on top of a known catalogue, the result, and undo it."""
    with transaction.atomic():
        importer.import_file(write(tmp_path, "base.csv", HEADER + "7,Base game,1999,2,4\n"))
        report = importer.import_file(write(tmp_path, "f.csv", data), **options)
        result = snapshot(), report
        transaction.set_rollback(True)
    return result


@hsettings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=good_rows, bad=bad_rows, at=st.integers(0, 6))
def test_a_bad_line_never_changes_another_line(tmp_path, rows, bad, at):
    clean, clean_report = _outcome(tmp_path, _file(rows, None, 0), partial=True)
    (dirty, report) = _outcome(tmp_path, _file(rows, bad, min(at, len(rows))), partial=True)
    # The bad line is rejected, and every other line has the same fate beside it ...
    assert len(report.rejected) == len(clean_report.rejected) + 1
    assert dirty == clean
    # ... and without --partial the file changes nothing at all.
    refused, refused_report = _outcome(tmp_path, _file(rows, bad, min(at, len(rows))))
    base, _ = _outcome(tmp_path, HEADER.encode())
    assert not refused_report.applied and refused == base


theme_rows = st.lists(st.tuples(st.integers(1, 6), st.lists(st.sampled_from("01"), min_size=3, max_size=3)),
                      min_size=1, max_size=5, unique_by=lambda row: row[0])
bad_theme_rows = st.one_of(
    st.builds(lambda i: f"{i},1\n".encode(), st.integers(1, 6)),                 # truncated
    st.builds(lambda i: f'{i},"1,0,0\n'.encode(), st.integers(1, 6)),             # open quote
    st.builds(lambda i: f"{i},1,\x81,0\n".encode("latin-1"), st.integers(1, 6)),  # bad byte
    st.builds(lambda i: f"{i},1,yes,0\n".encode(), st.integers(1, 6)),           # a bad value
)


def _themes_outcome(tmp_path: Path, data: bytes, **options):
    with transaction.atomic():
        importer.import_file(write(tmp_path, "g.csv", HEADER + "".join(f"{i},Game {i},2000,2,4\n" for i in range(1, 7))))
        importer.import_file(write(tmp_path, "t0.csv", THEMES + "".join(f"{i},1,0,{i % 2}\n" for i in range(1, 7))))
        report = importer.import_file(write(tmp_path, "t.csv", data), **options)
        result = sorted(links()), report
        transaction.set_rollback(True)
    return result


@hsettings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=theme_rows, bad=bad_theme_rows, at=st.integers(0, 5))
def test_a_bad_themes_line_never_changes_another_game(tmp_path, rows, bad, at):
    lines = [f"{i},{','.join(flags)}\n".encode() for i, flags in rows]
    clean, _ = _themes_outcome(tmp_path, THEMES.encode() + b"".join(lines))
    dirty_lines = list(lines)
    dirty_lines.insert(min(at, len(lines)), bad)
    dirty, report = _themes_outcome(tmp_path, THEMES.encode() + b"".join(dirty_lines), partial=True)
    # Only the bad line is rejected; every game, the bad line's included, ends as without it.
    assert len(report.rejected) == 1 and dirty == clean
    refused, refused_report = _themes_outcome(tmp_path, THEMES.encode() + b"".join(dirty_lines))
    assert not refused_report.applied and refused == sorted(links_before())


def links_before() -> set[tuple[int, str]]:
    """The links of _themes_outcome's base catalogue."""
    return {(i, "animals") for i in range(1, 7)} | {(i, "pirates") for i in range(1, 7) if i % 2}
