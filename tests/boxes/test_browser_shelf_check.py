"""A shelf check on a phone (390x844, touch) in a real Chromium against a real
daphne, the camera being Chromium's fake capture device fed with a Y4M video of
the house's own labels (drawn by catalog/shelves/qr.py, as they are printed):
the Drumlin box's label (it belongs on D5), the Karo box's (the catalogue says
C2) and another library's code, each for a few frames. Alice stands at D5,
starts the camera, and the page reads the three codes itself (jsQR: Debian's
Chromium has no BarcodeDetector), saying "D5 ✓", "Appartient à C2" and
"Étiquette inconnue"; the report lists Karo on the wrong shelf, and one tap
moves it to D5 in the catalogue. A second test types a title for a label the
camera cannot read. First screens at 390x844, axe-core on the three pages,
screenshots (phone and desktop) in artifacts/screenshots/."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PIL import Image

from tests.a11y import at_least, describe, install_axe, violations
from tests.conftest import require
from tests.servers import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, ROOT, BrowserPage, manage, recording

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
PASSWORD = "correct horse battery staple"
ANOTHER_LIBRARY = "https://autre-ludotheque.example/jeu/42?exemplaire=42"
WIDTH, HEIGHT, FPS = 640, 480, 10

SEED = f"""
import json
from boxes import shelfcheck
from catalog.collection.models import Game
from catalog.shelves import qr, services as shelves
from ludo.accounts import create_staff_account
alice = create_staff_account("alice", "alice@example.org", "{PASSWORD}")
def box(title, slug, shelf):
    g = Game(title=title, slug=slug, min_players=2, max_players=4, min_time=20, max_time=45, min_age=8, owned_count=900)
    g.save()
    return shelves.add_copy(g, shelf)
drumlin, karo, drekki = box("Drumlin", "drumlin", "D5"), box("Karo", "karo", "C2"), box("Drekki", "drekki", "D5#")
box("Azul", "azul", "D6")
check = shelfcheck.start(alice, "D")
print(json.dumps({{"check": check.pk, "karo": karo.pk, "labels": [qr.rules_address(c.game, "fr", c) for c in (drumlin, karo)]}}))
"""


# -- the camera's video: the house's labels, a few frames each ---------------------------------

def label_image(data: str, scale: int = 6) -> Image.Image:
    """The QR code the house prints for ``data`` (qr.svg: a rectangle per run of dark
    modules), drawn on a white 640x480 frame."""
    from catalog.shelves import qr

    svg = qr.svg(data).decode()
    size = int(re.search(r'viewBox="0 0 (\d+) ', svg).group(1))
    code = Image.new("L", (size * scale, size * scale), 255)
    for x, y, run in re.findall(r"M(\d+),(\d+)h(\d+)", svg):
        code.paste(0, (int(x) * scale, int(y) * scale, (int(x) + int(run)) * scale, (int(y) + 1) * scale))
    frame = Image.new("RGB", (WIDTH, HEIGHT), (235, 230, 220))
    frame.paste(code.convert("RGB"), ((WIDTH - code.width) // 2, (HEIGHT - code.height) // 2))
    return frame


def write_y4m(path: Path, codes: list[str], frames_each: int = 8, blank: int = 3) -> None:
    """A Y4M video (4:2:0) showing each code for ``frames_each`` frames, a blank between."""
    empty = Image.new("RGB", (WIDTH, HEIGHT), (235, 230, 220))
    sequence = []
    for data in codes:
        sequence += [label_image(data)] * frames_each + [empty] * blank
    with path.open("wb") as out:
        out.write(f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F{FPS}:1 Ip A1:1 C420jpeg\n".encode())
        for image in sequence:
            y, cb, cr = image.convert("YCbCr").split()
            half = (WIDTH // 2, HEIGHT // 2)
            out.write(b"FRAME\n" + y.tobytes() + cb.resize(half).tobytes() + cr.resize(half).tobytes())


# -- fixtures -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def decoder_installed():
    """Before any server starts: the page's QR decoder is served from node_modules."""
    require((ROOT / "node_modules/jsqr/dist/jsQR.js").exists(),
            "node_modules/jsqr is missing: run `make node-deps` (npm ci)")


@pytest.fixture(scope="module")
def site(decoder_installed, shared_daphne_server):
    out = manage("shell", "-c", SEED, env=shared_daphne_server.env).stdout.strip().splitlines()[-1]
    return shared_daphne_server, json.loads(out)


@pytest.fixture(scope="module")
def camera(site, tmp_path_factory):
    """A Chromium of this module's own, whose camera films the labels."""
    require(Path(CHROMIUM).exists(), f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    video = tmp_path_factory.mktemp("camera") / "labels.y4m"
    write_y4m(video, [*site[1]["labels"], ANOTHER_LIBRARY])
    args = [*CHROMIUM_ARGS, "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-video-capture={video}"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def phone(camera, site):
    context = camera.new_context(viewport=PHONE, locale="fr-FR", is_mobile=True, has_touch=True,
                                 permissions=["camera"], base_url=site[0].url("/"))
    context.set_default_timeout(10_000)
    install_axe(context)
    probe = recording(BrowserPage(page=context.new_page(), name=Path(__file__).stem))
    try:
        yield probe.page, probe.console_errors
    finally:
        context.close()


def shot(page, name: str, desktop: bool = True) -> None:
    folder = ARTIFACTS / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"test_browser_shelf_check-{name}-phone.png"), full_page=True)
    if desktop:
        page.set_viewport_size(DESKTOP)
        page.screenshot(path=str(folder / f"test_browser_shelf_check-{name}-desktop.png"), full_page=True)
        page.set_viewport_size(PHONE)


def log_in(page, server) -> None:
    page.goto(server.url("/compte/connexion/"))
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.locator("form:has(input[name=password]) button[type=submit]").tap()


def on_first_screen(*locators) -> None:
    for locator in locators:
        box = locator.bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["height"], locator


def no_serious_violations(page) -> None:
    found = at_least(violations(page), "serious")
    assert not found, describe(found, page.url)


def copy_shelf(server, pk: int) -> str:
    code = f"from catalog.shelves.models import Copy; print(Copy.objects.get(pk={pk}).shelf)"
    return manage("shell", "-c", code, env=server.env).stdout.strip().splitlines()[-1]


# -- tests --------------------------------------------------------------------------------------

def test_the_camera_reads_the_labels_and_a_misplaced_box_is_corrected_in_one_tap(site, phone):
    server, ids = site
    page, errors = phone
    log_in(page, server)
    page.goto(server.url(f"/boites/recolements/{ids['check']}/"))
    shelf = page.get_by_label("Je suis au rayon")
    camera = page.get_by_role("button", name="Allumer la caméra")
    on_first_screen(page.locator("h1"), shelf, page.locator("[data-verdict]"), camera,
                    page.get_by_label("Numéro de la boîte, ou titre de son jeu"))
    assert page.evaluate("typeof window.jsQR") == "function"
    shelf.fill("d5")
    shelf.press("Tab")
    page.wait_for_function("() => document.querySelector('[data-tally]').innerText.includes('0 sur 2 vues en D5')")
    camera.tap()
    recent = page.locator("[data-recent]")
    page.wait_for_function("""() => {
        const text = document.querySelector('[data-recent]').innerText;
        return ['D5 ✓', 'Appartient à C2', 'Étiquette inconnue'].every((said) => text.includes(said));
    }""", timeout=60_000)
    decoder = page.evaluate("document.querySelector('[data-shelf-scanner]').dataset.decoder")
    assert decoder in ("jsQR", "BarcodeDetector")  # Debian's Chromium: jsQR
    text = recent.inner_text()
    assert "D5 ✓ · Drumlin (D5)" in text and "Appartient à C2 · Karo (D5)" in text
    assert "Étiquette inconnue · Ce n’est pas une étiquette de la maison. (D5)" in text
    assert "1 sur 2 vues en D5" in page.locator("[data-tally]").inner_text()
    verdict = page.locator("[data-verdict]")
    assert verdict.get_attribute("aria-live") == "assertive"
    shot(page, "scanner", desktop=False)
    page.get_by_role("button", name="Éteindre la caméra").tap()
    assert page.locator("[data-video]").is_hidden()
    no_serious_violations(page)
    shot(page, "scanner-stopped")

    page.get_by_role("link", name="Bilan du récolement").tap()
    page.wait_for_url("**/bilan/")
    wrong = page.locator("[data-misplaced-list] li")
    assert wrong.count() == 1 and "vue en D5, le catalogue dit C2" in wrong.inner_text()
    assert ANOTHER_LIBRARY[:30] in page.locator("[data-unknown-list]").inner_text()
    assert "Drekki" in page.locator("[data-not-seen-list]").inner_text()
    on_first_screen(page.locator("h1"), page.locator("[data-figures]"))
    no_serious_violations(page)
    shot(page, "report")
    with page.expect_navigation():
        page.get_by_role("button", name="La ranger en D5 au catalogue").tap()
    assert "maintenant au rayon D5" in page.locator(".messages").inner_text()
    assert "rayon C2 → D5 au catalogue" in page.locator("[data-corrections]").inner_text()
    assert page.locator("[data-misplaced]").inner_text() == "0"
    assert copy_shelf(server, ids["karo"]) == "D5"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert not errors, errors


def test_a_label_the_camera_cannot_read_is_found_by_its_title(site, phone):
    server, ids = site
    page, errors = phone
    log_in(page, server)
    page.goto(server.url("/boites/recolements/"))
    scan = page.get_by_role("link", name="Scanner").first
    on_first_screen(page.locator("h1"), scan)
    no_serious_violations(page)
    shot(page, "checks")
    scan.tap()
    page.wait_for_url("**/recolements/*/")
    page.get_by_label("Je suis au rayon").fill("D5")
    page.get_by_label("Numéro de la boîte, ou titre de son jeu").fill("drek")
    page.get_by_role("button", name="Enregistrer").tap()
    pick = page.get_by_role("button", name=re.compile(r"^Drekki — D5#"))
    pick.tap()
    page.wait_for_function("() => document.querySelector('[data-verdict-main]').innerText === 'D5# ✓'")
    assert "Drekki" in page.locator("[data-verdict-detail]").inner_text()
    assert page.locator("[data-picks]").is_hidden()
    assert not errors, errors
