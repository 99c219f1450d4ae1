"""A tournament night in a real Chromium, against a real daphne and worker.

A 1920x1080 screen (a host logged in) creates a three-round Swiss of Quatre
en ligne whose byes are played against a bot; five phones (390x844) join by
the code shown on the screen; the host starts. Every round, each phone lands
by itself on its table (the bye's one against the bot included), the losers
resign from their table's page, and once the round is recorded the screen's
standings (points, Buchholz, Sonneborn-Berger) are those the database gives.
At the end the screen shows the podium and the final table.

Reduced against the issue's wording: the games end by a resignation from the
table's page, not by moves on the board (the boards have their own browser
tests); results, pairings, tie-breaks and each phone's way are the real ones.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.urls import reverse

from tests.games.test_browser_drekki import server_sql
from tests.games.ui_server import PHONE, live_site, new_page  # noqa: F401
from tests.servers import manage
from tournaments.pairing import tiebreaks
from tournaments.pairing.types import Bye, Game, Player, Round

pytestmark = pytest.mark.browser

SCREEN = {"width": 1920, "height": 1080}
NAMES = ["Ana", "Ben", "Chloé", "David", "Emma"]
HOST_PASSWORD = "pw-hote-tournoi-2026"
SEED_HOST = f"""
from ludo.accounts import create_staff_account
create_staff_account("hote", "hote@example.org", "{HOST_PASSWORD}")
"""


def wait_for(condition, timeout: float = 30.0, step: float = 0.25, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"timed out waiting for {what or condition}")


def rows(site, sql: str, params: tuple) -> list[tuple]:
    """Every row of one query on the server's database (SQLite file or PostgreSQL)."""
    url = site.server.env["DATABASE_URL"]
    if url.startswith("sqlite:"):
        import sqlite3
        from urllib.parse import urlsplit

        with sqlite3.connect(urlsplit(url).path) as conn:
            return conn.execute(sql.replace("%s", "?"), params).fetchall()
    import psycopg

    with psycopg.connect(url) as conn:
        return conn.execute(sql, params).fetchall()


SEATS_SQL = ("SELECT e.name, s.seat, p.table_id, p.bye, r.number, p.id, s.points, e.id FROM tournaments_pairingseat s "
             "JOIN tournaments_entrant e ON e.id = s.entrant_id JOIN tournaments_pairing p ON p.id = s.pairing_id "
             "JOIN tournaments_round r ON r.id = s.round_id WHERE r.tournament_id = %s ORDER BY r.number, p.board, s.seat")


def seats_of_round(site, pk: int, number: int) -> list[tuple[str, int, int | None, bool]]:
    """(name, seat, table id, bye) for every entrant in round ``number``, from the server's database."""
    return [(n, s, t, bool(b)) for n, s, t, b, r, *_ in rows(site, SEATS_SQL, (pk,)) if r == number]


def db_standings(site, pk: int) -> list[tuple[str, float, float, float]]:
    """The standings the database's rows give, computed here by the pure tie-break
    code from the raw rows (not through the server's own reading of them)."""
    entrants = rows(site, "SELECT id, name, rank FROM tournaments_entrant WHERE tournament_id = %s", (pk,))
    by_round: dict[int, dict[int, list[tuple]]] = {}
    for _name, seat, _table, bye, number, pairing, points, entrant in rows(site, SEATS_SQL, (pk,)):
        by_round.setdefault(number, {}).setdefault(pairing, []).append((seat, entrant, points, bool(bye)))
    rounds = []
    for number in sorted(by_round):
        games, byes = [], []
        for seats in by_round[number].values():
            if seats[0][3]:
                byes += [Bye(e, p) for _s, e, p, _b in seats]
            else:
                done = all(p is not None for *_x, p, _b in seats)
                games.append(Game(tuple(e for _s, e, _p, _b in seats),
                                  tuple(p for _s, _e, p, _b in seats) if done else None))
        rounds.append(Round(tuple(games), tuple(byes)))
    names = {i: n for i, n, _r in entrants}
    field = [Player(i, r or 1000 + i) for i, _n, r in entrants]
    return [(names[r.id], r.score, r.buchholz, r.sonneborn_berger)
            for r in tiebreaks.standings(field, rounds, tiebreaks.SWISS)]


def screen_rows(page) -> list[list[str]]:
    return page.evaluate("""() => [...document.querySelectorAll('[data-standings] tbody tr')].map((tr) =>
        [tr.querySelector('[data-name]')?.textContent.trim(), tr.querySelector('[data-score]')?.textContent.trim(),
         tr.querySelector('[data-buchholz]')?.textContent.trim(), tr.querySelector('[data-sb]')?.textContent.trim()])""")


def number(text: str) -> float:
    return float(text.replace(",", ".")) if text else 0.0


def test_a_three_round_swiss_night_on_a_screen_and_five_phones(live_site, chromium):  # noqa: F811
    site = live_site
    env = site.server.env
    manage("shell", "-c", SEED_HOST, env=env)
    screen = new_page(chromium, site, "screen", SCREEN)
    page = screen.page
    page.goto(site.url(reverse("login")))
    page.fill("input[name=username]", "hote")
    page.fill("input[name=password]", HOST_PASSWORD)
    page.locator("input[name=password]").press("Enter")
    page.wait_for_load_state()
    page.goto(site.url(reverse("tournaments:new")))
    page.fill("[name=name]", "Soirée Quatre en ligne")
    page.select_option("[name=game]", "quatre-en-ligne")
    page.fill("[name=rounds]", "3")
    page.fill("[name=round_pause]", "2")
    page.select_option("[name=bye_bot]", "easy")
    page.locator("[data-tournament-form] button[type=submit]").click()
    page.wait_for_selector("[data-tournament-screen]")
    pk = int(page.url.rstrip("/").split("/")[-1])
    code = page.locator("[data-code]").inner_text().strip()
    assert len(code) == 5 and page.locator(".t-join img").count() == 1

    phones = {}
    for name in NAMES:
        probe = new_page(chromium, site, f"phone-{name}", PHONE)
        probe.page.goto(site.url(reverse("tournaments:code", args=[code])))
        probe.page.fill("[name=name]", name)
        probe.page.locator("[data-join-form] button[type=submit]").click()
        probe.page.wait_for_selector("[data-tournament-player]")
        phones[name] = probe
    wait_for(lambda: len(screen_rows(page)) == 5, what="the five entrants on the screen")

    page.locator("[data-start]").click()
    for rnd in (1, 2, 3):
        seats = wait_for(lambda: seats_of_round(site, pk, rnd), what=f"round {rnd} paired")
        assert sorted(n for n, *_ in seats) == sorted(NAMES)
        # Each phone lands on its own table by itself (the bye's, against the bot, too).
        for name, _seat, table, _bye in seats:
            target = site.url(reverse("games:table", args=[table]))
            phones[name].page.wait_for_url(target, timeout=20_000)
        games: dict[int, list[tuple[str, int]]] = {}
        for name, seat, table, bye in seats:
            if not bye:
                games.setdefault(table, []).append((name, seat))
        assert len(games) == 2
        for board, (table, players) in enumerate(sorted(games.items())):
            loser = next(name for name, seat in players if seat == (rnd + board) % 2)
            phone = phones[loser].page
            phone.locator("[data-resign]").click()
            phone.locator("[data-resign].danger").click()  # "Yes, resign"
            try:
                wait_for(lambda t=table: server_sql(site, "SELECT status FROM games_table WHERE id = %s",
                                                    (t,))[0] == "finished", timeout=15, what="the resignation")
            except AssertionError:
                phones[loser].screenshot(f"resign-failed-{rnd}-{loser}")
                raise AssertionError(f"{loser} could not resign at table {table}: {phones[loser].console_errors}")
        # Once the round is recorded and the next one paired (or the end reached),
        # nothing changes until a game of the next round ends: the screen's
        # standings must then be the database's.
        wait_for(lambda: seats_of_round(site, pk, rnd + 1) or server_sql(
            site, "SELECT status FROM tournaments_tournament WHERE id = %s", (pk,))[0] == "finished",
            timeout=30, what=f"round {rnd} recorded")
        expected = db_standings(site, pk)
        assert abs(sum(r[1] for r in expected) - (3 * rnd + (1 if rnd < 3 else 0))) < 1e-9
        wait_for(lambda: _same(screen_rows(page), expected), timeout=15, what=f"screen standings round {rnd}")

    page.wait_for_selector("[data-podium-name]", timeout=20_000)
    podium = [x.strip() for x in page.locator("[data-podium-name]").all_inner_texts()]
    final = db_standings(site, pk)
    assert podium == [row[0] for row in final[:3]]
    assert server_sql(site, "SELECT status FROM tournaments_tournament WHERE id = %s", (pk,))[0] == "finished"
    # Everyone played every round: two games and a bye each time; no pairing twice.
    games = server_sql(site, "SELECT COUNT(*) FROM tournaments_pairing WHERE bye = %s",
                       (False,) if not env["DATABASE_URL"].startswith("sqlite:") else (0,))[0]
    assert games == 6
    page.emulate_media(media="print")
    assert not page.locator(".t-join").is_visible() if page.locator(".t-join").count() else True
    page.screenshot(path=str(screen.screenshot("final").parent / "tournament-final.png"))
    for probe in [screen, *phones.values()]:
        probe.assert_no_console_errors()


def _same(shown: list[list[str]], expected: list[list[Any]]) -> bool:
    if len(shown) != len(expected):
        return False
    for (name, score, bu, sb), (e_name, e_score, e_bu, e_sb) in zip(shown, expected, strict=True):
        if not name.startswith(e_name) or abs(number(score) - e_score) > 0.01:
            return False
        if abs(number(bu) - e_bu) > 0.01 or abs(number(sb) - e_sb) > 0.01:
            return False
    return True
