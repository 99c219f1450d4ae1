"""The tournament's pages in a real Chromium: the first screen of a phone
(390x844) joining by the code and of the player's page (what must be there
without scrolling), the living-room screen at 1920x1080 drawing the tables in
play small, and axe-core (WCAG 2.2 A/AA) on the player's page and on the
final table's page (a page kind of this feature), phone and desktop."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tests.a11y import describe, install_axe, violations
from tests.games.test_browser_fit import first_screen
from tests.games.ui_server import DESKTOP, PHONE, live_site, new_page  # noqa: F401
from tests.servers import manage

pytestmark = [pytest.mark.browser, pytest.mark.one_stack]

TV = {"width": 1920, "height": 1080}
PASSWORD = "pw-hote-tournoi-2026"
SEED = f"""
import json
from ludo.accounts import create_staff_account
from games.services.who import Who
from tournaments import services
alice = create_staff_account("hote", "hote@example.org", "{PASSWORD}")
host = Who(user_id=alice.pk, name="hote", is_staff=True)
night = services.create_tournament(host, name="Soirée Quatre", game="quatre-en-ligne", rounds=2, round_pause=0)
for n in ("Ben", "Chloé", "David"):
    services.join(night.pk, Who(guest_key="seed-" + n, name=n))
done = services.create_tournament(host, name="Coupe de novembre", game="quatre-en-ligne", rounds=1, round_pause=0)
for n in ("Emma", "Farid"):
    services.join(done.pk, Who(guest_key="seed-" + n, name=n))
services.start(done.pk, host)
pairing = done.round_set.get().pairings.get()
services.adjudicate(done.pk, host, pairing.pk, [1, 0])
services.next_round(done.pk, host)
arena = services.create_tournament(host, name="Arène", game="quatre-en-ligne", format="arena", duration=30,
                                   clock={{"kind": "game", "base": 300, "increment": 0}})
services.join(arena.pk, Who(guest_key="seed-Gaspard", name="Gaspard"))
print(json.dumps({{"night": night.pk, "code": night.code, "done": done.pk, "arena": arena.pk,
                  "arena_code": arena.code}}))
"""
START = """
from games.services.who import Who
from tournaments import services
from django.contrib.auth import get_user_model
alice = get_user_model().objects.get(username="hote")
services.start({pk}, Who(user_id=alice.pk, name="hote", is_staff=True))
"""
BANKS = """
from games.models import Seat
for s in Seat.objects.filter(table__tournament_pairing__round__tournament_id={pk}):
    print("clock=" + str(s.clock_ms))
"""


def fits(page, selector: str, what: str) -> None:
    seen = first_screen(page, selector)
    assert seen["height"], f"{what}: {selector} is not drawn ({seen})"
    assert 0 <= seen["top"] and seen["bottom"] <= seen["innerHeight"], f"{what}: not on the first screen: {seen}"
    assert seen["scrollWidth"] <= seen["innerWidth"], f"{what}: the page scrolls sideways: {seen}"


def no_violations(page, where: str) -> None:
    found = violations(page)
    assert not found, describe(found, where)


def test_phone_first_screens_the_tv_screen_and_axe(live_site, chromium):  # noqa: F811
    site = live_site
    ids = json.loads(manage("shell", "-c", SEED, env=site.server.env).stdout.strip().splitlines()[-1])
    phone = new_page(chromium, site, "phone-ana", PHONE)
    install_axe(phone.page.context)
    page = phone.page
    # The join page, from the QR code: the tournament, the name field and the button, unscrolled.
    page.goto(site.url(reverse("tournaments:code", args=[ids["code"]])))
    for selector, what in (("h1", "the tournament's name"), ("#join-name", "the name field"),
                           ("[data-join-form] button[type=submit]", "the join button")):
        fits(page, selector, what)
    phone.screenshot("join-390", full_page=False)  # artifacts/screenshots/
    page.fill("#join-name", "Ana")
    page.locator("[data-join-form] button[type=submit]").click()
    page.wait_for_selector("[data-tournament-player]")
    # The player's page before the start: where they stand and how to leave, unscrolled.
    for selector, what in (("[data-next]", "what happens next"), (".player-actions", "pause and leave")):
        fits(page, selector, what)
    no_violations(page, "player page 390x844")
    manage("shell", "-c", START.format(pk=ids["night"]), env=site.server.env)
    # Paired: the sentence names the table and the opponent, and the way there is on the
    # first screen (read without the script, which soon takes the phone to its table).
    still = chromium.new_context(viewport=PHONE, locale="fr-FR", java_script_enabled=False)
    still.add_cookies(page.context.cookies())
    paired = still.new_page()
    paired.goto(site.url(reverse("tournaments:player", args=[ids["night"]])))
    assert "Table" in paired.locator("[data-next]").inner_text()
    box = paired.locator("[data-go]").bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    still.close()
    page.wait_for_url("**/table/**", timeout=20_000)  # and the phone goes there by itself

    tv = new_page(chromium, site, "tv", TV)
    tv.page.goto(site.url(reverse("login")))
    tv.page.fill("input[name=username]", "hote")
    tv.page.fill("input[name=password]", PASSWORD)
    tv.page.locator("input[name=password]").press("Enter")
    tv.page.wait_for_load_state()
    tv.page.goto(site.url(reverse("tournaments:screen", args=[ids["night"]])))
    # The tables in play, drawn small by the game's board, with the standings, on one TV screen.
    tv.page.wait_for_selector("[data-mini-board] svg", timeout=15_000)
    assert tv.page.locator("[data-mini-board]:has(svg)").count() == 2
    fits(tv.page, "[data-standings]", "the standings on the TV")
    fits(tv.page, "[data-pairings]", "the round's tables on the TV")
    tv.screenshot("screen-1920", full_page=False)
    tv.page.set_viewport_size(DESKTOP)
    tv.screenshot("screen-1280", full_page=False)

    # The final table's page (its own page kind): axe on a phone and a desktop, and its print form.
    page.goto(site.url(reverse("tournaments:results", args=[ids["done"]])))
    page.wait_for_selector("[data-final-standings]")
    no_violations(page, "results 390x844")
    phone.screenshot("results-390", full_page=False)
    page.set_viewport_size(DESKTOP)
    no_violations(page, "results 1280x800")
    page.emulate_media(media="print")
    assert page.locator("[data-final-standings]").is_visible() and not page.locator("[data-print]").is_visible()

    # Berserk at an arena table: the phone follows to its table, where the button halves its clock.
    page.set_viewport_size(PHONE)
    page.emulate_media(media="screen")
    page.goto(site.url(reverse("tournaments:code", args=[ids["arena_code"]])))
    page.locator("[data-join-form] button[type=submit]").click()
    page.wait_for_selector("[data-tournament-player]")
    manage("shell", "-c", START.format(pk=ids["arena"]), env=site.server.env)
    page.wait_for_url("**/table/**", timeout=20_000)
    page.locator("[data-berserk]").click()
    page.wait_for_function("""() => { const box = document.querySelector('.tournament-berserk');
                                      return box && !box.querySelector('button') && box.textContent.startsWith('Berserk'); }""")
    out = manage("shell", "-c", BANKS.format(pk=ids["arena"]), env=site.server.env).stdout.split()
    clocks = [word.removeprefix("clock=") for word in out if word.startswith("clock=")]
    assert sorted(clocks) == ["150000", "300000"]
    phone.screenshot("berserk-390", full_page=False)
    for probe in (phone, tv):
        probe.assert_no_console_errors()
