"""A rated game between two accounts in a real Chromium, on a live site
(daphne and the worker): both sign up, Ana creates a rated table, Ben joins,
they play it to the end (moves sent through the table API, as the pages'
socket would: the boards are tested elsewhere), and each sees both ratings
change on the result card, then on the game's leaderboard and a profile.

Screenshots (phone 390x844 and desktop 1280x800) go to artifacts/screenshots/,
or to $LUDO_SHOTS_DIR when set.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from games import bots, engines
from tests.games.ui_server import DESKTOP, PHONE, LiveSite, live_site, new_page  # noqa: F401
from tests.servers import ARTIFACTS, manage

pytestmark = pytest.mark.browser
GAME = "quatre-en-ligne"
PASSWORD = "a long enough pass phrase 42"


def shots_dir() -> Path:
    path = Path(os.environ.get("LUDO_SHOTS_DIR") or ARTIFACTS / "screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def sign_up(chromium: Any, site: LiveSite, name: str) -> Any:
    probe = new_page(chromium, site, name)
    page = probe.page
    page.goto(site.url(reverse("signup")))
    page.locator("input[name=username]").fill(name)
    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(site.url("/"))
    page.request.get(site.url("/api/games/"))  # the CSRF cookie
    confirm_on_site(site, name)
    return probe


def confirm_on_site(site: LiveSite, name: str) -> None:
    """Rated games need a confirmed address: give the account one and confirm
    it in the site's database (what following the emailed link does)."""
    code = ("from django.contrib.auth import get_user_model\n"
            "from games.bookings.models import VerifiedAddress\n"
            f"u = get_user_model().objects.get(username={name!r})\n"
            f"u.email = u.email or {name + '@example.org'!r}\n"
            "u.save()\n"
            "VerifiedAddress.objects.get_or_create(user=u, email=u.email)\n")
    manage("shell", "-c", code, env=site.server.env)


def api(page: Any, site: LiveSite, path: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
    if data is None:
        response = page.request.get(site.url(path))
    else:
        token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
        response = page.request.post(site.url(path), data=data, headers={"X-CSRFToken": token})
    assert response.ok, response.text()
    return response.json()


def test_a_rated_game_changes_both_ratings_on_the_result_card_and_the_leaderboard(chromium, live_site):
    site = live_site
    ana, ben = sign_up(chromium, site, "ana"), sign_up(chromium, site, "ben")
    created = api(ana.page, site, "/api/tables/", {"game": GAME, "rated": True})
    table = created["table"]
    assert created["rated"] is True
    api(ben.page, site, f"/api/tables/{table}/join/", {})
    api(ana.page, site, f"/api/tables/{table}/start/", {})
    for probe in (ana, ben):
        probe.page.goto(site.url(reverse("games:table", args=[table])))
    rules = engines.get(GAME)
    strong = bots.make("greedy", rules, seed=7, randomness=0.0)  # Ana plays well, Ben always the first move
    for _turn in range(60):
        players = {"ana": ana, "ben": ben}
        states = {name: api(p.page, site, f"/api/tables/{table}/") for name, p in players.items()}
        if states["ana"]["status"] != "running":
            break
        name, state = next((n, s) for n, s in states.items() if s["seat"] in s["to_act"])
        move = strong.choose(state["view"], state["seat"]) if name == "ana" else state["legal"][0]
        api(players[name].page, site, f"/api/tables/{table}/move/", {"move": move, "v": state["v"]})
    final = api(ana.page, site, f"/api/tables/{table}/")
    assert final["status"] == "finished" and final["outcome"]["winners"], final["outcome"]
    ratings = {r["seat"]: r for r in final["outcome"]["ratings"]}
    assert len(ratings) == 2 and all(r["delta"] != 0 and r["provisional"] for r in ratings.values())

    for probe in (ana, ben):
        page = probe.page
        card = page.locator("[data-outcome]")
        card.wait_for()
        items = card.locator("[data-outcome-ratings] li")
        items.first.wait_for()
        assert items.count() == 2
        texts = items.all_inner_texts()
        for seat, entry in ratings.items():
            sign = "+" if entry["delta"] > 0 else "−"
            shown = next(t for t in texts if t.startswith(final["seats"][seat]["name"]))
            after = f"{entry['after'] // 1000}\\s?{entry['after'] % 1000:03d}"  # 1 662 (fr grouping)
            expected = rf"1\s?500 → {after}\? \({re.escape(sign)}{abs(entry['delta'])}\)"
            assert re.search(expected, shown), shown
        probe.assert_no_console_errors()
    shots = shots_dir()
    for size, label in ((PHONE, "phone"), (DESKTOP, "desktop")):
        ana.page.set_viewport_size(size)
        ana.page.locator("[data-outcome]").scroll_into_view_if_needed()
        ana.page.screenshot(path=str(shots / f"result-card-{label}.png"))

    # The leaderboard: both are new, so provisional ("?"), with their new ratings.
    page = ben.page
    page.goto(site.url(reverse("leaderboard", args=[GAME])))
    rows = page.locator("[data-board-provisional] tr[data-player]")
    assert sorted(rows.evaluate_all("rs => rs.map(r => r.dataset.player)")) == ["ana", "ben"]
    for seat, entry in ratings.items():
        name = final["seats"][seat]["name"]
        cell = page.locator(f'[data-board-provisional] tr[data-player="{name}"] [data-rating]').inner_text()
        assert re.sub(r"\s", "", cell) == f"{entry['after']}?"
    for size, label in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page.set_viewport_size(size)
        page.screenshot(path=str(shots / f"leaderboard-{label}.png"), full_page=True)

    # Ana's profile, seen by Ben: the game, its result and the rating with its history.
    page.get_by_role("link", name="ana").click()
    page.wait_for_url(re.compile(r"/joueurs/ana/$"))
    assert page.locator(f'[data-game="{GAME}"] [data-rating]').inner_text().endswith("?")
    assert page.locator(f'.last-games a[href="{reverse("games:replay", args=[table])}"]').count() == 1
    for size, label in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page.set_viewport_size(size)
        page.screenshot(path=str(shots / f"profile-{label}.png"), full_page=True)
    ben.assert_no_console_errors()
