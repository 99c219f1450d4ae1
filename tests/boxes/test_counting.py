"""The count of a box: shortfalls, surpluses, the evening a piece went missing,
and the box's state for the picker and the booking forms."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from boxes import contents, counting, status, tocount, tracing
from boxes.errors import BoxError, StaleCount
from boxes.models import BoxState, Count, Shortfall, StrayPiece
from catalog.collection import picker
from catalog.shelves.models import MissingPart
from ludo.typography import french as typeset
from tests.boxes.conftest import saturday_session

pytestmark = pytest.mark.django_db


def full(copy, **changes) -> dict:
    found = {line.label: counting.Found(line.quantity) for line in contents.contents_of(copy)}
    for label, n in changes.items():
        found[label.replace("_", " ")] = counting.Found(n)
    return found


def count(copy, by, found=None, **kwargs):
    state = counting.begin(copy)
    return counting.record_count(copy, by, state.version, found, **kwargs)


def test_all_there_in_one_tap_records_a_complete_count(alice, box):
    done = count(box, alice, None, condition="worn")
    assert done.complete and done.counted_by == alice
    assert [(l.label, l.expected, l.found) for l in done.lines.all()][2] == ("pièces violettes", 12, 12)
    state = BoxState.objects.get(copy=box)
    assert state.complete_at == done.counted_at and state.version == 1
    box.refresh_from_db()
    assert box.condition == "worn"  # the condition history is the counts'


def test_a_shortfall_opens_a_missing_part_tied_to_the_saturday_session(alice, box, evening):
    done = count(box, alice, full(box, pièces_violettes=11))
    assert not done.complete
    part = MissingPart.objects.get(copy=box, found_at__isnull=True)
    assert part.description == "1 × pièces violettes" and part.reported_by == alice
    shortfall = part.shortfall
    assert list(shortfall.sessions.all()) == [evening]
    text = tracing.describe(list(shortfall.sessions.all()), list(shortfall.plays.all()), shortfall.since)
    assert text.startswith("manquant depuis la séance du samedi 14 novembre à 20:00 (Ana, Ben, Chloé…)")
    assert BoxState.objects.get(copy=box).incomplete


def test_only_sessions_since_the_last_complete_count_are_blamed(alice, box):
    first = saturday_session(alice, box, timezone.now() - timedelta(days=10), names=["Old"])
    count(box, alice, None, now=timezone.now() - timedelta(days=8))  # complete after the first session
    second = saturday_session(alice, box, timezone.now() - timedelta(days=3), names=["Zoé"])
    count(box, alice, full(box, pièces_roses=10))
    shortfall = Shortfall.objects.get(copy=box)
    assert list(shortfall.sessions.all()) == [second] and first not in shortfall.sessions.all()
    assert shortfall.quantity == 2


def test_a_surplus_closes_the_shortfall_and_the_box_is_complete_again(alice, box, evening):
    count(box, alice, full(box, pièces_violettes=10))
    count(box, alice, full(box, pièces_violettes=11))  # one came back
    shortfall = Shortfall.objects.get(copy=box)
    assert shortfall.open and shortfall.quantity == 1
    assert MissingPart.objects.get(pk=shortfall.part_id).description == "1 × pièces violettes"
    done = count(box, alice, full(box, pièces_violettes=13))  # both back, and one more than the box holds
    shortfall.refresh_from_db()
    assert not shortfall.open and MissingPart.objects.get(pk=shortfall.part_id).found_at is not None
    assert done.complete and done.lines.get(label="pièces violettes").surplus == 1
    assert not BoxState.objects.get(copy=box).incomplete


def test_the_same_shortfall_counted_twice_is_not_a_new_loss(alice, box, evening):
    count(box, alice, full(box, pièces_violettes=11))
    count(box, alice, full(box, pièces_violettes=11))
    assert Shortfall.objects.filter(copy=box, open=True).count() == 1
    count(box, alice, full(box, pièces_violettes=9))  # two more lost since
    assert sorted(Shortfall.objects.filter(copy=box, open=True).values_list("quantity", flat=True)) == [1, 2]


@pytest.mark.parametrize("value, message", [
    (-1, "en dessous de zéro"), (None, "combien"), (113, "faute de frappe"), ("12", "combien"),
])
def test_negative_absurd_or_missing_counts_are_refused_and_nothing_is_written(alice, box, value, message):
    found = full(box)
    found["pièces roses"] = counting.Found(value if value != "12" else None)
    with pytest.raises(BoxError) as refused:
        count(box, alice, found)
    assert message in refused.value.items["pièces roses"]
    assert not Count.objects.exists() and not MissingPart.objects.exists()
    assert BoxState.objects.get(copy=box).version == 0


def test_an_item_the_box_does_not_hold_is_refused(alice, box):
    found = full(box)
    found["dés"] = counting.Found(2)
    with pytest.raises(BoxError) as refused:
        count(box, alice, found)
    assert "dés" in refused.value.items
    assert not Count.objects.exists()


def test_two_hosts_counting_at_once_one_wins_the_other_is_told(alice, hugo, box):
    version = counting.begin(box).version  # both open the page
    counting.record_count(box, alice, version, full(box, pièces_violettes=11))
    with pytest.raises(StaleCount) as told:
        counting.record_count(box, hugo, version, None)
    assert "alice a compté cette boîte" in str(told.value)
    assert Count.objects.count() == 1 and Count.objects.get().counted_by == alice
    assert Shortfall.objects.get(copy=box).open  # hugo's "all there" changed nothing


def test_a_blocking_shortfall_takes_the_box_out_of_the_picker_and_the_copy_form(alice, box, evening):
    from games.bookings.forms import CopyForm

    assert box.game in [p.game for p in picker.pick(2, 60, 12)]
    count(box, alice, full(box, Drumlin=0))  # the only Drumlin: essential, so not playable
    assert BoxState.objects.get(copy=box).unplayable
    assert status.unplayable_game_ids() == {box.game_id}
    assert box.game not in [p.game for p in picker.pick(2, 60, 12)]
    assert box not in CopyForm(session=evening).fields["copy"].queryset
    shortfall = Shortfall.objects.get(copy=box)
    status.set_blocking(shortfall.pk, False)  # the host decides it plays without it
    assert status.unplayable_game_ids() == set()
    assert box.game in [p.game for p in picker.pick(2, 60, 12)]
    assert status.game_notice(box.game) == {"incomplete": 1, "unplayable": 0}


def test_a_second_playable_copy_keeps_the_game_in_the_picker(alice, box):
    from catalog.shelves import services as shelves

    shelves.add_copy(box.game, "D6")
    count(box, alice, full(box, Drumlin=0))
    assert status.unplayable_game_ids() == set()


def test_a_stray_piece_needs_a_known_game(alice, box, drumlin):
    with pytest.raises(BoxError, match="Aucun jeu du catalogue ne s’appelle|No game"):
        counting.record_stray(box, "Monopoly Galactique", "un dé rouge", alice)
    assert not StrayPiece.objects.exists()
    piece = counting.record_stray(box, "drumlin", "un pion violet", alice)
    assert piece.belongs_to == drumlin and piece.found_in == box


def test_the_to_count_list_fills_after_a_session_and_empties_with_a_count(alice, box, evening):
    from catalog.shelves import services as shelves

    other = shelves.add_copy(box.game, "A2")
    rows = tocount.to_count()
    assert [r.copy for r in rows] == [box]  # only the copy set aside
    assert rows[0].use.session_id == evening.pk
    count(box, alice, None)
    assert tocount.to_count() == []
    assert other.pk not in [r.copy.pk for r in tocount.to_count()]


def test_a_logged_play_puts_the_games_boxes_on_the_list_in_shelf_order(alice, box):
    from catalog.playlog import services as plays
    from catalog.playlog.rules import Entry, Seat
    from catalog.playlog.services import Author
    from catalog.shelves import services as shelves

    other = shelves.add_copy(box.game, "A10")
    third = shelves.add_copy(box.game, "A2")
    plays.log_play(Author(alice), Entry(box.game_id, timezone.localdate(), [Seat("Ana", None, True)]))
    assert [r.copy.shelf for r in tocount.to_count()] == ["A2", "A10", "D5"]
    count(third, alice, None)
    assert [r.copy for r in tocount.to_count()] == [other, box]


def test_copy_contents_differ_from_the_games(alice, box, drumlin):
    contents.set_copy_items(box, [*contents.contents_of(box)[:3], contents.Line("Pièces", "Drumlin (refait)", 1)])
    assert [l.label for l in contents.contents_of(box)][-1] == "Drumlin (refait)"
    assert [l.label for l in contents.template_of(drumlin)][-1] == "Drumlin"
    contents.reset_copy(box)
    assert contents.contents_of(box) == contents.template_of(drumlin)


def test_contents_typed_on_a_phone_are_parsed_and_checked(drumlin):
    lines = contents.parse_text("Pions: 12 pions violets\n!1 plateau\n\n60 cartes\n1 Drumlin : tige grise")
    assert lines[0] == contents.Line("Pions", "pions violets", 12)
    assert lines[1].essential and lines[3].label == "Drumlin : tige grise"
    with pytest.raises(BoxError, match="ligne 1"):
        contents.parse_text("douze pions")
    with pytest.raises(BoxError, match="deux fois"):
        contents.set_game_items(drumlin, [contents.Line("", "pions", 2), contents.Line("", "Pions", 3)])
    with pytest.raises(BoxError):
        contents.set_game_items(drumlin, [contents.Line("", "pions", 0)])
    assert len(contents.template_of(drumlin)) == 4  # refused lines changed nothing


def test_a_game_with_no_playable_box_cannot_be_proposed_for_a_session(alice, box):
    from games.bookings.forms import ProposalForm

    data = {"game": "drumlin", "day": "2030-01-05", "start": "20:00", "end": "23:00", "seats": 2,
            "name": "Ana", "email": "ana@example.org"}
    assert ProposalForm(data).is_valid()
    count(box, alice, full(box, Drumlin=0))
    form = ProposalForm(data)
    assert not form.is_valid()
    assert form.errors["game"] == [
        typeset("Aucune boîte de ce jeu n’est jouable en ce moment : il manque une pièce.")]
