"""Games, editions, copies: what the models accept and refuse."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from catalog.collection.models import Edition, Game, validate_ean
from catalog.errors import CatalogError
from catalog.shelves import services
from catalog.shelves.models import Copy

pytestmark = pytest.mark.django_db


def test_it_keys_every_name_folded_for_search(make_game):
    game = make_game("Éclaircissement", title_de="Nix wie weg", other_names="Œuf & Drachen\nStraße")
    assert game.name_key == "eclaircissement | nix wie weg | oeuf drachen | strasse"
    assert game.slug == "eclaircissement"


def test_it_gives_each_game_its_own_slug(make_game):
    assert make_game("Go").slug == "go"
    assert make_game("Go").slug == "go-2"


@pytest.mark.parametrize("shelf", ["D5", "D5#", "AB12", "C100#"])
def test_it_accepts_shelf_codes(drumlin, shelf):
    assert services.add_copy(drumlin, shelf.lower()).shelf == shelf


@pytest.mark.parametrize("shelf", ["", "5D", "D", "D5##", "D-5", "D5 #"])
def test_it_refuses_bad_shelf_codes_and_creates_nothing(drumlin, shelf):
    with pytest.raises(CatalogError, match="shelf"):
        services.add_copy(drumlin, shelf)
    assert not Copy.objects.exists()


def test_it_knows_a_box_hidden_behind(drumlin):
    assert services.add_copy(drumlin, "D5#").hidden_behind
    assert not services.add_copy(drumlin, "D5").hidden_behind


def test_it_checks_ean_check_digits():
    validate_ean("4006381333931")
    validate_ean("96385074")
    for bad in ("4006381333932", "12345", "40063813339a1"):
        with pytest.raises(ValidationError):
            validate_ean(bad)


def test_it_refuses_a_copy_of_another_games_edition(drumlin, make_game):
    other = make_game("Karo")
    edition = Edition.objects.create(game=other, language="de")
    with pytest.raises(CatalogError, match="edition"):
        services.add_copy(drumlin, "D5", edition=edition)


def test_it_refuses_a_minimum_above_the_maximum(make_game):
    game = Game(title="Odd", min_players=5, max_players=2)
    with pytest.raises(ValidationError):
        game.full_clean()


def test_an_expansion_needs_its_base_game(drumlin):
    expansion = Game(title="Drumlin: more dragons", kind=Game.Kind.EXPANSION)
    with pytest.raises(ValidationError) as refused:
        expansion.full_clean()
    assert "base_game" in refused.value.message_dict
    expansion.base_game = drumlin
    expansion.full_clean(exclude=["slug"])


def test_it_logs_missing_parts_and_their_return(drumlin, alice):
    copy = services.add_copy(drumlin, "D5")
    part = services.report_missing_part(copy, "  one   violet piece ", alice)
    assert part.description == "one violet piece" and part.reported_by == alice
    with pytest.raises(CatalogError):
        services.report_missing_part(copy, "   ")
    assert services.mark_part_found(part).found_at is not None


def test_a_year_before_the_common_era_reads_as_such(make_game):
    assert make_game("Senet", year=-3100).year_label in ("3100 BCE", "3100 av. J.-C.")
