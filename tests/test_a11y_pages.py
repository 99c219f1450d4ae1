"""Every page kind checked with axe-core (WCAG 2.2 A/AA) in a real Chromium, on a
390x844 phone and a 1280x800 desktop, in French and in English: no violation.

One daphne and one worker for the module, on a database of their own with the demo
content plus a host (alice), a player with an account (bob), a session to book and a
rulebook to read; tables are made through the HTTP API by two guests, Zoé (seated
against a bot) and Max (watching). Each persona has one browser context; each test
visits one page kind in both languages and looks at it at both sizes under `make soak`,
in one language at one size by turns in the suite (checks()).
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from tests.a11y import at_least, describe, install_axe, start_live_site, stop_live_site, violations
from tests.conftest import PASSWORD, soak
from tests.games.live_helpers import Guest
from tests.servers import ARTIFACTS, DaphneServer, _fresh_server_env, manage

# What it checks (markup, contrast, layout) is the same on either stack: CI runs it once.
pytestmark = [pytest.mark.browser, pytest.mark.one_stack]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SIZES = {"phone": PHONE, "desktop": DESKTOP}
LANGUAGES = ("fr", "en")
GAMES = ("drumlin", "quatre-en-ligne", "rampants-sauteurs", "eclaircissement", "drekki")

SEED = f"""
import json
from datetime import time, timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from catalog.rulebooks import services as catalog_services
from catalog.models import Game
from games.bookings import services
from ludo.accounts import create_staff_account
alice = create_staff_account("alice", "alice@example.org", "{PASSWORD}")
bob = get_user_model().objects.create_user("bob", "bob@example.org", "{PASSWORD}")
day = timezone.localdate() + timedelta(days=3)
start, end = services.local_span(day, time(20), time(23))
session = services.create_session(alice, starts_at=start, ends_at=end, capacity=6, title="Soirée Drumlin",
                                  room="La grange", notes="Apportez des gâteaux.")
game = Game.objects.get(slug="drumlin")
doc = catalog_services.add_text_document(game, catalog_services.Upload("fr.txt", "Le dragon survole la case.".encode()),
                                         title="Règle", language="fr")
from games.services.who import Who
from tournaments import services as tournaments
night = tournaments.create_tournament(Who(user_id=alice.pk, name="alice", is_staff=True), name="Soirée Quatre",
                                      game="quatre-en-ligne")
print(json.dumps({{"session": session.pk, "document": doc.pk, "tournament": night.pk, "code": night.code}}))
"""


@dataclass
class Site:
    server: DaphneServer
    worker: subprocess.Popen[bytes]
    ids: dict[str, Any]
    contexts: dict[str, Any] = field(default_factory=dict)

    def url(self, path: str) -> str:
        return self.server.url(path)


def path(lang: str, name: str, *args: Any) -> str:
    with translation.override(lang):
        return reverse(name, args=args)


def wait_for(check: Callable[[], bool], what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        time.sleep(0.2)


@pytest.fixture(scope="module")
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
         _server_postgres_url: Any, chromium: Any) -> Iterator[Site]:
    env = _fresh_server_env(request, tmp_path_factory.mktemp("a11y"), _server_postgres_url, "_a11y")
    env = {**env, "LUDO_BOT_THINK_MS": "100", "LUDO_SHARED_DIR": str(tmp_path_factory.mktemp("no-shared"))}
    manage("load_demo", env=env)
    ids = json.loads(manage("shell", "-c", SEED, env=env).stdout.strip().splitlines()[-1])
    server, worker = start_live_site(env)
    site = Site(server, worker, ids)
    try:
        _tables(site)
        _contexts(site, chromium)
        yield site
    finally:
        for context in site.contexts.values():
            context.close()
        stop_live_site(server, worker)


def _tables(site: Site) -> None:
    """Per game, a table Zoé plays against a bot (her turn) and one she resigned."""
    zoe, max_ = Guest(site.server, "Zoé"), Guest(site.server, "Max")
    site.ids["guests"] = {"zoe": zoe.cookies, "max": max_.cookies}
    for game in GAMES:
        running = zoe.quick(game, level="easy")["table"]
        finished = zoe.quick(game, level="easy")["table"]

        def my_turn(table: int = running) -> bool:
            status, data = zoe.api("GET", f"/api/tables/{table}/")
            return data["status"] == "running" and data["seat"] in data["to_act"]

        wait_for(my_turn, f"{game}: Zoé's turn")
        status, answer = zoe.api("POST", f"/api/tables/{finished}/resign/", {})
        assert status == 200, answer
        site.ids[f"running-{game}"] = running
        site.ids[f"finished-{game}"] = finished


def _contexts(site: Site, chromium: Any) -> None:
    def context(name: str) -> Any:
        ctx = chromium.new_context(viewport=DESKTOP, locale="fr-FR")
        ctx.set_default_timeout(15_000)
        install_axe(ctx)
        site.contexts[name] = ctx
        return ctx

    context("anon")
    for name in ("zoe", "max"):
        cookies = site.ids["guests"][name]
        context(name).add_cookies([{"name": k, "value": v, "url": site.url("/")} for k, v in cookies.items()])
    # Zoé stays at her running tables (a page each, open for the module): a seat whose person
    # is away is handed to a bot after a while, and the spectator's view would be a finished game.
    for game in GAMES:
        page = site.contexts["zoe"].new_page()
        page.goto(site.url(path("fr", "games:table", site.ids[f"running-{game}"])))
    for name in ("bob", "alice"):
        page = context(name).new_page()
        page.goto(site.url(path("fr", "login")))
        page.fill("input[name=username]", name)
        page.fill("input[name=password]", PASSWORD)
        page.locator("main button[type=submit]").click()
        page.wait_for_url(lambda url: "connexion" not in url)
        page.close()


# -- the page kinds ----------------------------------------------------------------------------

@dataclass
class Kind:
    persona: str
    url: Callable[[Site, str], str]
    ready: str = "main"
    act: Callable[[Any], None] | None = None


def submit_empty(page: Any) -> None:
    """Send the page's form empty (past the browser's own checks), as the server then shows it."""
    form = page.locator("main form:has(button[type=submit])").last
    form.evaluate("(form) => { form.noValidate = true; }")
    with page.expect_navigation():
        form.locator("button[type=submit]").last.click()
    page.wait_for_selector("[aria-invalid=true], .errorlist, .error", state="attached")


def untied_errors(page: Any, where: str) -> list[str]:
    """Fields marked invalid whose error is not among what they point to with aria-describedby
    (or that point to nothing that exists); and no field marked invalid at all."""
    found = page.evaluate("""() => [...document.querySelectorAll('main [aria-invalid="true"]')].map((field) => {
      const ids = (field.getAttribute('aria-describedby') || '').split(/\\s+/).filter(Boolean);
      const nodes = ids.map((id) => document.getElementById(id));
      return {name: field.name || field.id, missing: ids.filter((id, k) => !nodes[k]),
              error: nodes.some((n) => n && (n.matches('.errorlist, .error') || n.closest('.errorlist, .error')))};
    })""")
    out = [f"{where}: {f['name']} points to missing ids {f['missing']}" for f in found if f["missing"]]
    out += [f"{where}: {f['name']} is invalid but its error is not tied to it" for f in found if not f["error"]]
    if not found:
        out.append(f"{where}: the form shows errors but no field is marked aria-invalid")
    return out


def wrong_code(page: Any) -> None:
    page.fill("input[name=code]", "ZZZZZZ")
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()
    page.wait_for_selector("[aria-invalid=true]", state="attached")


def wrong_login(page: Any) -> None:
    page.fill("input[name=username]", "nobody")
    page.fill("input[name=password]", "wrong password")
    with page.expect_navigation():
        page.locator("main button[type=submit]").click()
    page.wait_for_selector(".errorlist", state="attached")


def wrong_typed_move(page: Any) -> None:
    """A move that is no move, typed in the table's move box: refused, the box marked invalid."""
    box = page.locator("[data-typed-input]")
    page.wait_for_selector("[data-status][data-turn='true']")
    box.fill("zz9")
    box.press("Enter")
    page.wait_for_selector("[data-typed-input][aria-invalid=true]", state="attached")


BOARD = "[data-table-page][data-v] .board-host svg"
KINDS: dict[str, Kind] = {
    "home": Kind("anon", lambda s, l: path(l, "home")),
    "catalogue": Kind("anon", lambda s, l: path(l, "catalog:index")),
    "catalogue-search": Kind("anon", lambda s, l: path(l, "catalog:index") + "?q=drumlin"),
    "game-page": Kind("anon", lambda s, l: path(l, "catalog:game", "drumlin")),
    "what-to-play": Kind("anon", lambda s, l: path(l, "catalog:pick")),
    "reader": Kind("anon", lambda s, l: path(l, "catalog:reader", s.ids["document"], 1)),
    "rules-search": Kind("anon", lambda s, l: path(l, "catalog:rules_search") + "?q=dragon"),
    "lobby": Kind("zoe", lambda s, l: path(l, "games:play")),
    "tournament-join": Kind("anon", lambda s, l: path(l, "tournaments:join")),
    "tournament-code": Kind("max", lambda s, l: path(l, "tournaments:code", s.ids["code"])),
    "tournament-screen": Kind("anon", lambda s, l: path(l, "tournaments:screen", s.ids["tournament"])),
    "staff-new-tournament": Kind("alice", lambda s, l: path(l, "tournaments:new")),
    **{f"table-playing-{g}": Kind("zoe", lambda s, l, g=g: path(l, "games:table", s.ids[f"running-{g}"]),
                                  BOARD + ", [data-status][data-turn='true']") for g in GAMES},
    **{f"table-watching-{g}": Kind("max", lambda s, l, g=g: path(l, "games:table", s.ids[f"running-{g}"]), BOARD)
       for g in GAMES},
    **{f"table-finished-{g}": Kind("zoe", lambda s, l, g=g: path(l, "games:table", s.ids[f"finished-{g}"]),
                                   "[data-outcome]:not([hidden])") for g in GAMES},
    "table-typed-move-error": Kind("zoe", lambda s, l: path(l, "games:table", s.ids["running-quatre-en-ligne"]),
                                   BOARD, act=wrong_typed_move),
    "replay": Kind("zoe", lambda s, l: path(l, "games:replay", s.ids["finished-drumlin"]), "[data-replay-page] .board-host svg"),
    **{f"lesson-{g}": Kind("anon", lambda s, l, g=g: path(l, "games:lesson", g), ".board-host svg") for g in GAMES},
    "living-room-new": Kind("zoe", lambda s, l: path(l, "living:new")),
    "living-room-join-error": Kind("anon", lambda s, l: path(l, "living:join"), act=wrong_code),
    "sessions": Kind("anon", lambda s, l: path(l, "bookings:list")),
    "booking-form-errors": Kind("anon", lambda s, l: path(l, "bookings:session", s.ids["session"]), act=submit_empty),
    "propose-errors": Kind("anon", lambda s, l: path(l, "bookings:propose"), act=submit_empty),
    "guest-name-errors": Kind("anon", lambda s, l: path(l, "guest"), act=submit_empty),
    "login-errors": Kind("anon", lambda s, l: path(l, "login"), act=wrong_login),
    "signup-errors": Kind("anon", lambda s, l: path(l, "signup"), act=submit_empty),
    "password-reset": Kind("anon", lambda s, l: path(l, "account:password_reset")),
    "leaderboards": Kind("anon", lambda s, l: path(l, "leaderboards")),
    "account": Kind("bob", lambda s, l: path(l, "account:home")),
    "password-change-errors": Kind("bob", lambda s, l: path(l, "password_change"), act=submit_empty),
    "tokens": Kind("bob", lambda s, l: path(l, "tokens:list")),
    "account-delete": Kind("bob", lambda s, l: path(l, "account:delete")),
    "plays": Kind("bob", lambda s, l: path(l, "playlog:mine")),
    "play-log-form-errors": Kind("bob", lambda s, l: path(l, "playlog:log"), act=submit_empty),
    "profile": Kind("bob", lambda s, l: path(l, "player_profile", "bob")),
    "staff-calendar": Kind("alice", lambda s, l: path(l, "bookings:calendar")),
    "staff-new-session-errors": Kind("alice", lambda s, l: path(l, "bookings:new_session"), act=submit_empty),
    "staff-new-series": Kind("alice", lambda s, l: path(l, "bookings:new_series")),
    "staff-proposals": Kind("alice", lambda s, l: path(l, "bookings:proposals")),
    "staff-session": Kind("alice", lambda s, l: path(l, "bookings:staff_session", s.ids["session"])),
    "staff-labels": Kind("alice", lambda s, l: path(l, "catalog:labels")),
    "staff-document-review": Kind("alice", lambda s, l: path(l, "catalog:document_review", s.ids["document"])),
    "staff-correct-page": Kind("alice", lambda s, l: path(l, "catalog:correct_page", s.ids["document"], 1)),
}


def screen_url(site: Site, lang: str) -> str:
    """A living-room screen, opened by Max from the living-room form (a table waiting for phones).
    Max, who made no table: Zoé's five tables and more spend her table-create budget."""
    key = "screen"
    if key not in site.ids:
        page = site.contexts["max"].new_page()
        page.goto(site.url(path("fr", "living:new")))
        page.select_option("select[name=game]", "quatre-en-ligne")
        page.locator("main form button[type=submit]").click()
        page.wait_for_load_state()
        assert "/table/" in page.url, f"no screen after the form: {page.url}\n{page.inner_text('main')[:800]}"
        page.wait_for_selector("[data-table-page][data-screen]", state="attached")
        site.ids[key] = int(re.search(r"/table/(\d+)/", page.url)[1])
        page.close()
    return path(lang, "living:screen", site.ids[key])


KINDS["living-room-screen"] = Kind("max", screen_url, "[data-table-page][data-v]")


# The suite's (and CI's) turns: one language and one size per page kind, the next kind
# at the next pair, so each pair is checked on every fourth kind.
TURNS = (("fr", "phone"), ("en", "desktop"), ("fr", "desktop"), ("en", "phone"))


def checks(kind: str) -> dict[str, dict[str, dict[str, int]]]:
    """{language: {size: viewport}} to check on this page kind. `make soak` checks both
    sizes in both languages. The suite (and CI) checks each page kind once, in one
    language at one size, by turns (TURNS): the English pages share the French markup
    and styles, only the words differ, and a phone and a desktop differ by the layout
    alone, so every language, size and pair of them is still checked on a quarter of
    the kinds, and every kind at least once."""
    if soak(True, False):
        return {lang: SIZES for lang in LANGUAGES}
    lang, size = TURNS[list(KINDS).index(kind) % len(TURNS)]
    return {lang: {size: SIZES[size]}}


@pytest.mark.slow  # `make soak` checks English at both sizes too
@pytest.mark.parametrize("kind", list(KINDS))
def test_the_page_has_no_wcag_violation_on_a_phone_and_a_desktop_in_both_languages(site, kind):
    spec = KINDS[kind]
    page = site.contexts[spec.persona].new_page()
    problems: list[str] = []
    try:
        for lang, sizes in checks(kind).items():
            url = spec.url(site, lang)
            page.set_viewport_size(PHONE)
            response = page.goto(site.url(url))
            assert response.ok, f"{url}: {response.status}"
            if spec.act:
                spec.act(page)
            page.wait_for_selector(spec.ready, state="attached")
            if spec.act is not None and spec.act is not wrong_login:
                problems.extend(untied_errors(page, f"{kind} {lang}"))
            for size, viewport in sizes.items():
                page.set_viewport_size(viewport)
                page.wait_for_timeout(100)  # a layout step for the new width
                found = violations(page)
                _record(kind, lang, size, found)
                if found:
                    problems.append(describe(found, f"{kind} {lang} {size} ({url})"))
                page.screenshot(path=str(ARTIFACTS / "a11y" / f"{kind}-{lang}-{size}.png"))
    finally:
        page.close()
    assert not problems, "\n\n".join(problems)


def _record(kind: str, lang: str, size: str, found: list[dict[str, Any]]) -> None:
    """Counts per page kind, for the report (artifacts/a11y/counts.jsonl)."""
    folder = ARTIFACTS / "a11y"
    folder.mkdir(parents=True, exist_ok=True)
    row = {"kind": kind, "lang": lang, "size": size,
           "serious": len(at_least(found, "serious")), "all": len(found),
           "rules": sorted({f"{v['id']}:{v['impact']}" for v in found})}
    with open(folder / "counts.jsonl", "a") as out:
        out.write(json.dumps(row) + "\n")


# -- visible focus ------------------------------------------------------------------------------

FOCUS_RING = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return null;
  const lum = (rgb) => {
    const [r, g, b] = rgb.match(/[\\d.]+/g).slice(0, 3).map(Number).map((c) => {
      c /= 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const background = (node) => {
    for (let n = node.parentElement; n; n = n.parentElement) {
      const bg = getComputedStyle(n).backgroundColor;
      if (bg && !/rgba\\(.*,\\s*0\\)$/.test(bg) && bg !== "transparent") return bg;
    }
    return "rgb(255, 255, 255)";
  };
  const name = a.tagName + (a.id ? "#" + a.id : "") + (a.className && a.className.baseVal === undefined ? "." + String(a.className).split(" ")[0] : "");
  const ring = a.querySelector && a.querySelector(".focus-ring, .karo-focus-ring");
  if (a instanceof SVGElement && ring) {
    const style = getComputedStyle(ring);
    return {name, visible: style.visibility === "visible" && style.display !== "none", ratio: null};
  }
  const style = getComputedStyle(a);
  const width = parseFloat(style.outlineWidth);
  if (style.outlineStyle === "none" || width < 2) return {name, visible: false, ratio: null};
  const [l1, l2] = [lum(style.outlineColor), lum(background(a))].sort((x, y) => y - x);
  return {name, visible: true, ratio: (l1 + 0.05) / (l2 + 0.05)};
}"""


@pytest.mark.parametrize("kind", ["home", "lobby", "table-playing-drumlin", "table-playing-drekki",
                                  "booking-form-errors", "account"])
def test_every_tab_stop_shows_a_focus_ring_of_at_least_3_to_1(site, kind):
    spec = KINDS[kind]
    page = site.contexts[spec.persona].new_page()
    try:
        page.set_viewport_size(DESKTOP)
        page.goto(site.url(spec.url(site, "fr")))
        if spec.act:
            spec.act(page)
        page.wait_for_selector(spec.ready, state="attached")
        bad, seen = [], []
        for _ in range(40):
            page.keyboard.press("Tab")
            ring = page.evaluate(FOCUS_RING)
            if ring is None:
                continue
            seen.append(ring["name"])
            if not ring["visible"] or (ring["ratio"] is not None and ring["ratio"] < 3):
                bad.append(ring)
        assert len(seen) > 3, seen
        assert not bad, f"{kind}: focus not visible or below 3:1: {bad}"
    finally:
        page.close()
