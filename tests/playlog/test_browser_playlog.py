"""On a phone at the gîte (390x844, touch), in a real Chromium against a real
daphne: Bob, booked on tonight's session, opens it, taps "log a play", finds the
game by its French name as he types, gives the scores, is told why a wrong
winner is refused, saves, and sees "joué 1 fois ici" on the game's page. No
console error (a CSP violation is one), no sideways scrolling. Screenshots in
artifacts/screenshots/ (phone and desktop)."""

from __future__ import annotations

import pytest

from ludo.typography import french as typeset
from tests.servers import manage

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
PASSWORD = "correct horse battery staple"

SEED = f"""
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from catalog.collection.models import Game, GameName, refresh_titles
from catalog.shelves import services as shelves
from games.bookings import services
from ludo.accounts import create_staff_account
alice = create_staff_account("alice", "alice@example.org", "{PASSWORD}")
bob = get_user_model().objects.create_user("bob", "bob@example.org", "{PASSWORD}")
def box(title, french=None):
    g = Game(title=title, min_players=2, max_players=5, min_time=30, max_time=60, min_age=8, owned_count=1000)
    g.save()
    if french:
        GameName.objects.create(game=g, language="fr", name=french, primary=True)
        refresh_titles([g])
    shelves.add_copy(g, f"B{{g.pk}}")
    return g
ticket = box("Ticket to Ride", "Les Aventuriers du Rail")
box("Ticket to Ride: Europe", "Les Aventuriers du Rail : Europe")
box("Azul")
now = timezone.now()
session = services.create_session(alice, starts_at=now - timedelta(hours=1), ends_at=now + timedelta(hours=2),
                                  capacity=8, title="Soirée jeux", games=[ticket])
services.book(session.pk, name="Bob Martin", email="bob@example.org", seats=1, user=bob, now=now - timedelta(days=1))
services.book(session.pk, name="Carol", email="carol@example.org", seats=2, now=now - timedelta(days=1))
print(session.pk)
"""


@pytest.fixture
def phone(chromium):
    """A phone-sized touch context, with console errors recorded."""
    context = chromium.new_context(viewport=PHONE, locale="fr-FR", is_mobile=True, has_touch=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield page, errors
    finally:
        context.close()


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def shot(page, name: str) -> None:
    from tests.servers import ARTIFACTS

    folder = ARTIFACTS / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"test_browser_playlog-{name}.png"), full_page=True)


def test_a_guest_logs_a_play_on_a_phone_and_the_game_says_played_once_here(daphne_server, server_env, phone):
    session_id = manage("shell", "-c", SEED, env=server_env).stdout.strip().splitlines()[-1]
    page, errors = phone
    page.goto(daphne_server.url("/compte/connexion/"))
    page.fill("input[name=username]", "bob")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.locator("form:has(input[name=password]) button[type=submit]").tap()

    page.goto(daphne_server.url(f"/sessions/{session_id}/"))
    page.get_by_role("link", name="Noter une partie").tap()
    page.wait_for_url("**/catalogue/parties/noter/**")
    assert page.locator("h1").inner_text() == "Noter une partie"
    assert page.locator("input[name=player-0-name]").input_value() == "Bob Martin"
    assert page.locator("input[name=player-1-name]").input_value() == ""  # Carol's booking is hers: not shown

    page.locator("#id_game_query").press_sequentially("aventuriers rail", delay=30)
    option = page.get_by_role("option", name="Les Aventuriers du Rail Ticket to Ride", exact=True)
    option.wait_for()
    assert typeset("Les Aventuriers du Rail : Europe") in page.locator("#game-results").inner_text()
    shot(page, "search-phone")
    option.tap()
    assert page.locator("#id_game_query").input_value() == "Les Aventuriers du Rail"
    page.locator("input[name=player-1-name]").fill("Carol")
    page.locator("input[name=player-0-score]").fill("42")
    page.locator("input[name=player-1-score]").fill("37")
    page.locator("input[name=player-2-name]").fill("Zoé")
    page.locator("input[name=player-2-score]").fill("12")
    page.locator("label.won:has(input[name=player-1-won])").tap()  # Carol did not have the best score
    assert no_sideways_scroll(page)
    shot(page, "form-phone")
    page.get_by_role("button", name="Enregistrer la partie").tap()
    page.wait_for_load_state()
    alert = page.get_by_role("alert")
    assert "Carol a gagné avec 37, mais le meilleur score est 42" in alert.inner_text()
    assert page.locator("input[name=player-2-name]").input_value() == "Zoé"  # nothing typed is lost
    shot(page, "refused-phone")
    # The refused form comes back with status 400, which Chromium reports on the console.
    assert errors == ["Failed to load resource: the server responded with a status of 400 (Bad Request)"]
    errors.clear()

    page.locator("label.won:has(input[name=player-1-won])").tap()  # untick: the best score wins
    page.locator("label.won:has(input[name=player-0-won])").tap()
    page.set_viewport_size(DESKTOP)
    shot(page, "form-desktop")
    page.set_viewport_size(PHONE)
    page.get_by_role("button", name="Enregistrer la partie").tap()
    page.wait_for_url("**/catalogue/jeu/**")
    assert page.locator("h1").inner_text().startswith("Les Aventuriers du Rail")
    line = page.locator(".played-here")
    assert line.inner_text().startswith("joué 1 fois ici, le ")
    assert no_sideways_scroll(page)
    line.scroll_into_view_if_needed()
    shot(page, "game-phone")
    page.set_viewport_size(DESKTOP)
    shot(page, "game-desktop")
    assert not errors, errors


YEAR_SEED = f"""
from datetime import date
from django.utils import timezone
from catalog.collection.models import Game
from catalog.playlog import services
from catalog.playlog.rules import Entry, Seat
from catalog.playlog.services import Author
from catalog.shelves import services as shelves
from ludo.accounts import create_staff_account
alice = create_staff_account("alice", "alice@example.org", "{PASSWORD}")
year = timezone.localdate().year
games = []
for i, title in enumerate(["Azul", "Dixit", "Codenames", "Skull", "Just One", "Wingspan"]):
    g = Game(title=title, min_players=2, max_players=6, owned_count=1000 - i)
    g.save()
    shelves.add_copy(g, f"C{{i + 1}}")
    games.append(g)
for g, times in zip(games, [5, 3, 2, 1, 0, 0]):
    for n in range(times):
        services.log_play(Author(alice), Entry(g.pk, date(year, 1, 1 + n), [Seat("Alice", None, True)]))
"""


def test_a_host_sees_the_most_and_least_played_boxes_of_the_year(daphne_server, server_env, browser_page):
    manage("shell", "-c", YEAR_SEED, env=server_env)
    page = browser_page.page
    page.goto(daphne_server.url("/compte/connexion/"))
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.locator("form:has(input[name=password]) button[type=submit]").click()
    page.goto(daphne_server.url("/sessions/hotes/"))
    page.get_by_role("link", name="Les boîtes de l’année").click()
    most = page.locator("section", has=page.get_by_role("heading", name="Les plus jouées"))
    assert most.locator("tbody tr").first.inner_text().split("\t")[:2] == ["Azul", "5"]
    least = page.locator("section", has=page.get_by_role("heading", name="Les boîtes les moins jouées"))
    assert least.locator("tbody tr").first.inner_text().split("\t")[1] == "0"
    browser_page.screenshot("year-desktop")
    page.set_viewport_size(PHONE)
    assert no_sideways_scroll(page)
    browser_page.screenshot("year-phone")
    browser_page.assert_no_console_errors()
