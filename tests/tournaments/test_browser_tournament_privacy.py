"""A tournament's tables in a real Chromium (issue #27, tournaments.privacy): a
phone of the room (it opened the code, it is no host) on a wide screen sees the
tables drawn small (their JSON fetched with the tables' keys) and follows
"regarder" to watch a table as a spectator, its players named; a stranger's
browser sees initials, no table, and the table's address answers that it is
private."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tests.games.ui_server import DESKTOP, live_site, new_page  # noqa: F401
from tests.servers import manage

pytestmark = pytest.mark.browser

SEED = """
import json
from ludo.accounts import create_staff_account
from games.services.who import Who
from tournaments import services
alice = create_staff_account("hote", "hote@example.org", "pw-hote-prive-2026")
host = Who(user_id=alice.pk, name="hote", is_staff=True)
night = services.create_tournament(host, name="Soirée", game="quatre-en-ligne", rounds=2, round_pause=0)
for n in ("Ana", "Ben", "Chloé", "David"):
    services.join(night.pk, Who(guest_key="seed-" + n, name=n))
services.start(night.pk, host)
tables = sorted(p.table_id for p in night.round_set.get().pairings.all())
print(json.dumps({"t": night.pk, "code": night.code, "tables": tables}))
"""


def test_the_room_watches_the_tables_a_stranger_does_not(live_site, chromium):  # noqa: F811
    site = live_site
    seeded = json.loads(manage("shell", "-c", SEED, env=site.server.env).stdout.strip().splitlines()[-1])
    screen = site.url(reverse("tournaments:screen", args=[seeded["t"]]))

    room = new_page(chromium, site, "room-phone", DESKTOP)
    room.page.goto(site.url(reverse("tournaments:code", args=[seeded["code"]])))  # scanned the QR
    room.page.goto(screen)
    room.page.wait_for_selector("[data-mini-board] svg", timeout=15_000)
    assert room.page.locator("[data-mini-board]:has(svg)").count() == 2
    assert "Ana" in room.page.locator("[data-pairings]").inner_text()
    room.page.locator("[data-pairings] a.watch").first.click()
    room.page.wait_for_url("**/table/**")
    assert "invite=" in room.page.url
    room.page.wait_for_function("() => document.querySelectorAll('[data-players] .player-name').length === 2")
    names = room.page.locator("[data-players] .player-name").all_inner_texts()
    assert {n.split()[0] for n in names} <= {"Ana", "Ben", "Chloé", "David"}  # "Ana (à jouer)"
    room.screenshot("watching-1280", full_page=False)
    room.assert_no_console_errors()

    stranger = new_page(chromium, site, "stranger", DESKTOP)
    stranger.page.goto(screen)
    pairings = stranger.page.locator("[data-pairings]").inner_text()
    assert "Ana" not in pairings and "A." in pairings
    assert stranger.page.locator("[data-mini-board], [data-pairings] a.watch").count() == 0
    for table in seeded["tables"]:
        answer = stranger.page.goto(site.url(reverse("games:table", args=[table])))
        assert answer.status == 403
        assert "Ana" not in stranger.page.content()
    stranger.page.goto(site.url(reverse("games:play")))
    stranger.page.wait_for_load_state("networkidle")
    assert not any(n in stranger.page.locator("main").inner_text() for n in ("Ana", "Ben", "Chloé", "David"))
