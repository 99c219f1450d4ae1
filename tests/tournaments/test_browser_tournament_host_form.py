"""The host's forms on the tournament's screen keep what the host is choosing
while the live part is redrawn (static/tournaments/screen.js): before, every
refresh (each change of the tournament: a result, a player pausing, the
countdown) drew the "move a player" form again and the host's choice was lost.

In Chromium on a live site: the host chooses whom to move and where, and a
result in another table's list; a player pauses (the standings change and are
redrawn); the choices are still there, and the move submitted is the one chosen."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tests.games.ui_server import DESKTOP, live_site, new_page  # noqa: F401
from tests.servers import manage

pytestmark = [pytest.mark.browser, pytest.mark.one_stack]

PASSWORD = "pw-hote-deplacer-2026"
SEED = f"""
import json
from ludo.accounts import create_staff_account
from games.services.who import Who
from tournaments import services
from tournaments.models import PairingSeat
alice = create_staff_account("hote", "hote@example.org", "{PASSWORD}")
host = Who(user_id=alice.pk, name="hote", is_staff=True)
night = services.create_tournament(host, name="Soirée", game="quatre-en-ligne", rounds=2, round_pause=0)
for n in ("Ana", "Ben", "Chloé", "David"):
    services.join(night.pk, Who(guest_key="seed-" + n, name=n))
services.start(night.pk, host)
seats = [{{"name": s.entrant.name, "value": f"{{s.entrant_id}}-{{s.pairing_id}}", "board": s.pairing.board,
          "pairing": s.pairing_id}}
         for s in PairingSeat.objects.filter(round__tournament=night).select_related("entrant", "pairing")
         .order_by("pairing__board", "seat")]
print(json.dumps({{"t": night.pk, "seats": seats}}))
"""
PAUSE = """
from games.services.who import Who
from tournaments import services
services.pause({t}, Who(guest_key="seed-{name}", name="{name}"))
"""
WHERE = """
from tournaments.models import PairingSeat
for s in PairingSeat.objects.filter(round__tournament_id={t}).select_related("entrant"):
    print(f"seat={{s.entrant.name}}:{{s.pairing_id}}")
"""


def test_the_move_form_keeps_the_hosts_choice_across_refreshes(live_site, chromium):  # noqa: F811
    site = live_site
    seeded = json.loads(manage("shell", "-c", SEED, env=site.server.env).stdout.strip().splitlines()[-1])
    seats = seeded["seats"]
    assert [s["board"] for s in seats] == [1, 1, 2, 2]
    first, second, bystander = seats[1], seats[2], seats[3]  # board 1's second seat to board 2's first
    tv = new_page(chromium, site, "host-screen", DESKTOP)
    page = tv.page
    page.goto(site.url(reverse("login")))
    page.fill("input[name=username]", "hote")
    page.fill("input[name=password]", PASSWORD)
    page.locator("input[name=password]").press("Enter")
    page.wait_for_load_state()
    page.goto(site.url(reverse("tournaments:screen", args=[seeded["t"]])))
    page.wait_for_selector("[data-swap]")
    defaults = (page.input_value("#swap-first"), page.input_value("#swap-second"))
    assert defaults != (first["value"], second["value"])  # the choice below is not what the page starts with

    # The host chooses: whom to move, to whose place, and a result for board 1.
    page.select_option("#swap-first", first["value"])
    page.select_option("#swap-second", second["value"])
    adjudicate = page.locator("[data-board='1'] form.adjudicate select[name=result]")
    adjudicate.select_option("0-1")
    version = page.locator("[data-tournament-screen]").get_attribute("data-version")

    # Meanwhile a player pauses: the tournament changes, the screen redraws its live part.
    manage("shell", "-c", PAUSE.format(t=seeded["t"], name=bystander["name"]), env=site.server.env)
    page.wait_for_selector("[data-standings] tr.paused", timeout=15_000)
    assert page.locator("[data-tournament-screen]").get_attribute("data-version") != version
    assert page.locator("[data-standings] tr.paused [data-name]").inner_text().startswith(bystander["name"])

    # The choices are still there, and the form is the page's (not a copy beside a new one).
    assert page.locator("[data-swap]").count() == 1
    assert page.input_value("#swap-first") == first["value"]
    assert page.input_value("#swap-second") == second["value"]
    assert adjudicate.input_value() == "0-1"

    # A second refresh (the host's own focus on the list) changes nothing either.
    page.focus("#swap-second")
    manage("shell", "-c", PAUSE.format(t=seeded["t"], name=bystander["name"]).replace("pause(", "resume("),
           env=site.server.env)
    page.wait_for_function("() => !document.querySelector('[data-standings] tr.paused')", timeout=15_000)
    assert page.input_value("#swap-first") == first["value"]
    assert page.input_value("#swap-second") == second["value"]
    assert page.evaluate("() => document.activeElement && document.activeElement.id") == "swap-second"

    # What is submitted is what was chosen: the two players changed places.
    with page.expect_navigation():
        page.locator("[data-swap] button[type=submit]").click()
    out = manage("shell", "-c", WHERE.format(t=seeded["t"]), env=site.server.env).stdout.split()
    where = dict(word.removeprefix("seat=").split(":") for word in out if word.startswith("seat="))
    assert int(where[first["name"]]) == second["pairing"] and int(where[second["name"]]) == first["pairing"]
    tv.screenshot("tournament-host-swap-1280", full_page=False)
    tv.assert_no_console_errors()
