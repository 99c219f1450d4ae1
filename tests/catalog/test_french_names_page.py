"""The hosts' list of games with no French name, and the one-step form that adds one:
what a host sees and does, and what an attacker tries (a guest or a player posting,
no CSRF token, a name the game has, absurd input, another game's id, two hosts at
once, a flood)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from catalog.collection import french_names, search
from catalog.collection.models import Game, GameName, refresh_titles
from catalog.errors import CatalogError
from tests.bookings.conftest import shared_database  # noqa: F401 (a fixture)
from tests.races import race

pytestmark = pytest.mark.django_db


@pytest.fixture
def shelf(make_game):
    """Three games: the most owned has a French name already."""
    catan = make_game("Catan", bgg_id=13, owned_count=165_000)
    GameName.objects.create(game=catan, language="fr", name="Catan", primary=True)
    return {
        "catan": catan,
        "operation": make_game("Operation", bgg_id=3737, owned_count=6_500),
        "hippos": make_game("Hungry Hungry Hippos", bgg_id=5895, owned_count=2_700),
    }


def add(client, game: Game, name: str, source: str = "edition", **extra):
    url = reverse("catalog:add_french_name", args=[game.pk])
    return client.post(url, {"name": name, "source": source, **extra})


def french(game: Game) -> list[tuple[str, bool, str]]:
    return list(GameName.objects.filter(game=game, language="fr").values_list("name", "primary", "source"))


def test_the_list_shows_the_most_owned_games_with_no_french_name_first(client, alice, shelf):
    client.force_login(alice)
    response = client.get(reverse("catalog:french_names"))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Operation" in page and "Hungry Hungry Hippos" in page and ">Catan<" not in page
    assert page.index("Operation") < page.index("Hungry Hungry Hippos")
    assert f'for="name-{shelf["operation"].pk}"' in page  # every field has its label


def test_the_list_is_paged(client, alice, make_game):
    for n in range(35):
        make_game(f"Game {n:02d}", owned_count=1000 - n)
    client.force_login(alice)
    first = client.get(reverse("catalog:french_names")).content.decode()
    second = client.get(reverse("catalog:french_names") + "?page=2").content.decode()
    assert "Game 00" in first and "Game 29" in first and "Game 30" not in first
    assert "Game 30" in second and "Game 34" in second and "Game 00" not in second
    assert client.get(reverse("catalog:french_names") + "?page=zzz").status_code == 200


def test_a_host_adds_a_french_name_in_one_step_and_search_finds_it(client, alice, shelf):
    client.force_login(alice)
    response = add(client, shelf["operation"], "  Docteur   Maboul ", "edition", page="1")
    assert response.status_code == 302 and response["Location"].endswith("?page=1")
    game = Game.objects.get(pk=shelf["operation"].pk)
    assert french(game) == [("Docteur Maboul", True, "edition")]
    assert game.title_fr == "Docteur Maboul" and GameName.objects.get(game=game).added_by == alice
    assert search.search_games("docteur maboul")[0] == game.pk
    assert "Operation" not in client.get(reverse("catalog:french_names")).content.decode()


def test_a_second_french_name_is_not_the_primary_one(alice, shelf):
    french_names.add_french_name(shelf["catan"].pk, "Les Colons de Catane", "publisher", alice)
    assert sorted(french(shelf["catan"])) == [
        ("Catan", True, ""), ("Les Colons de Catane", False, "publisher"),
    ]


@pytest.mark.parametrize("who", ["anonymous", "bob"])
def test_a_guest_or_a_player_can_neither_see_nor_add(client, bob, shelf, who):
    if who == "bob":
        client.force_login(bob)
    assert client.get(reverse("catalog:french_names")).status_code == 302  # to the staff login
    assert client.get(reverse("catalog:french_names"), {"leads": "1"}).status_code == 302  # nor the leads
    assert add(client, shelf["operation"], "Docteur Maboul").status_code == 302
    assert not GameName.objects.filter(game=shelf["operation"]).exists()


def test_a_staff_account_without_the_right_is_refused(client, shelf, django_user_model):
    clerk = django_user_model.objects.create_user("clerk", "clerk@example.org", "pw", is_staff=True)
    client.force_login(clerk)
    assert client.get(reverse("catalog:french_names")).status_code == 403
    assert client.get(reverse("catalog:french_names"), {"leads": "1"}).status_code == 403
    assert add(client, shelf["operation"], "Docteur Maboul").status_code == 403
    assert not GameName.objects.filter(game=shelf["operation"]).exists()


def test_a_post_without_csrf_token_changes_nothing(alice, shelf):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert add(client, shelf["operation"], "Docteur Maboul").status_code == 403
    assert not GameName.objects.filter(game=shelf["operation"]).exists()


def test_a_get_never_adds(client, alice, shelf):
    client.force_login(alice)
    url = reverse("catalog:add_french_name", args=[shelf["operation"].pk])
    assert client.get(url, {"name": "Docteur Maboul", "source": "edition"}).status_code == 405
    assert not GameName.objects.filter(game=shelf["operation"]).exists()


@pytest.mark.parametrize("name, source, reason", [
    ("", "edition", "Write the name"),
    ("   ", "edition", "Write the name"),
    ("x" * 201, "edition", "at most 200"),
    ("?!…", "edition", "a letter or a digit"),
    ("Docteur\u202eluobaM", "edition", "invisible or control"),
    ("Docteur\u200bMaboul", "edition", "invisible or control"),
    ("Docteur\x00Maboul", "edition", "invisible or control"),
    ("Docteur Maboul", "", "where the name comes from"),
    ("Docteur Maboul", "guessed", "where the name comes from"),
])
def test_absurd_input_is_refused_with_a_reason_and_changes_nothing(client, alice, shelf, name, source,
                                                                    reason):
    with translation.override("en"), pytest.raises(CatalogError, match=reason):
        french_names.add_french_name(shelf["operation"].pk, name, source, alice)
    # Through the page: the same refusal, said on the list, nothing saved.
    client.force_login(alice)
    response = add(client, shelf["operation"], name, source)
    assert response.status_code == 302
    assert [m.level_tag for m in client.get(response["Location"]).context["messages"]] == ["error"]
    assert not GameName.objects.filter(game=shelf["operation"]).exists()
    assert Game.objects.get(pk=shelf["operation"].pk).title_fr == ""


def test_a_name_the_game_has_is_refused_whatever_its_case_and_accents(client, alice, shelf):
    client.force_login(alice)
    add(client, shelf["operation"], "Docteur Maboul")
    response = add(client, shelf["operation"], "DOCTEUR  maboul!")
    assert [m.level_tag for m in client.get(response["Location"]).context["messages"]] == ["success", "error"]
    with translation.override("en"), pytest.raises(CatalogError, match="already has the French name"):
        french_names.add_french_name(shelf["operation"].pk, "docteur-Maboul", "edition", alice)
    assert french(shelf["operation"]) == [("Docteur Maboul", True, "edition")]


def test_an_unknown_or_removed_game_is_refused(client, alice, shelf):
    client.force_login(alice)
    gone = shelf["hippos"]
    gone_pk = gone.pk
    gone.delete()
    url = reverse("catalog:add_french_name", args=[gone_pk])
    response = client.post(url, {"name": "Hippos Gloutons", "source": "edition"})
    assert [m.level_tag for m in client.get(response["Location"]).context["messages"]] == ["error"]
    assert not GameName.objects.filter(name="Hippos Gloutons").exists()
    with translation.override("en"), pytest.raises(CatalogError, match="no longer in the catalogue"):
        french_names.add_french_name(10**9, "Nom", "edition", alice)


def test_the_page_number_sent_back_cannot_redirect_elsewhere(client, alice, shelf):
    client.force_login(alice)
    for page in ("//evil.example/", "https://evil.example", "-1", "99999999999"):
        response = add(client, shelf["hippos"], f"Hippos {page[:3]}x", page=page)
        assert response["Location"] == reverse("catalog:french_names")
    # Nor the leads filter: only "1" is kept, nothing else of what was sent.
    for leads in ("//evil.example/", "1&next=https://evil.example", "0"):
        response = add(client, shelf["hippos"], f"Hippos {leads[:4]}y", page="2", leads=leads)
        assert response["Location"] == reverse("catalog:french_names") + "?page=2"


def test_a_flood_of_names_is_cut_by_the_rate_limit(client, alice, make_game, settings):
    settings.LUDO_RATE_LIMITS = {"french-name": {"person": (5, 600), "address": None}}
    games = [make_game(f"Game {n}", owned_count=10) for n in range(8)]
    client.force_login(alice)
    codes = [add(client, game, f"Jeu {n}").status_code for n, game in enumerate(games)]
    assert codes == [302] * 5 + [429] * 3
    assert GameName.objects.count() == 5


@pytest.mark.django_db(transaction=True)
def test_two_hosts_adding_at_once_give_one_primary_and_no_duplicate(
    shared_database, alice, make_game,  # noqa: F811
):
    game = make_game("Funny Bunny", bgg_id=8964, owned_count=1400)
    same = race([
        (lambda: french_names.add_french_name(game.pk, "Croque-Carotte", "edition", alice).name)
        for _ in range(4)
    ], CatalogError, told=lambda exc: (str(exc),))
    assert not [r for r in same if r[0] == "crashed"], same
    assert [r[0] for r in same].count("ok") == 1
    assert all("Croque-Carotte" in r[1] for r in same if r[0] == "refused")
    other = make_game("Pay Day", bgg_id=1797, owned_count=5300)
    different = race([
        (lambda name=name: french_names.add_french_name(other.pk, name, "edition", alice).name)
        for name in ("La Bonne Paye", "Bonne Paye", "La Bonne Paie")
    ], CatalogError, told=lambda exc: (str(exc),))
    assert [r[0] for r in different] == ["ok"] * 3
    names = GameName.objects.filter(game=other, language="fr")
    assert names.count() == 3 and names.filter(primary=True).count() == 1
    assert Game.objects.get(pk=other.pk).title_fr == names.get(primary=True).name


def test_the_catalogue_links_to_the_list_for_hosts_only(client, alice, bob, shelf):
    url = reverse("catalog:french_names")
    assert url not in client.get(reverse("catalog:index")).content.decode()
    client.force_login(bob)
    assert url not in client.get(reverse("catalog:index")).content.decode()
    client.force_login(alice)
    assert url in client.get(reverse("catalog:index")).content.decode()


def test_a_former_title_is_listed_as_such_on_the_game_page_never_as_its_title(client, make_game):
    pandemic = make_game("Pandemic", bgg_id=30549, owned_count=166_000)
    GameName.objects.create(game=pandemic, language="fr", name="Pandémie", kind="former", source="edition")
    GameName.objects.create(game=pandemic, language="fr", name="Pandemic", primary=True, source="edition")
    refresh_titles([pandemic])
    pandemic.refresh_from_db()
    assert pandemic.title_fr == "Pandemic"
    page = client.get(pandemic.get_absolute_url()).content.decode()
    assert 'Pandémie <small class="lang">fr</small> <small class="former">' in page
    assert search.search_games("pandémie") == [pandemic.pk]
