"""QR codes decode to the game's rules page, in the reader's language; shelf labels."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from catalog.shelves import qr, services
from tests.conftest import require

pytestmark = pytest.mark.django_db

try:
    import zxingcpp
except ImportError:  # the test extra is not installed
    zxingcpp = None


def decode_svg(svg: bytes) -> str:
    """Rasterise our path-only SVG (a rectangle per run of modules) with Pillow, then decode it."""
    require(zxingcpp is not None, "zxing-cpp is not installed (pip install -e '.[test]')")
    import re

    text = svg.decode()
    size = int(re.search(r'viewBox="0 0 (\d+) (\d+)"', text).group(1))
    scale = 8
    image = Image.new("L", (size * scale, size * scale), 255)
    pixels = image.load()
    for x, y, run in re.findall(r"M(\d+),(\d+)h(\d+)", text):
        for dx in range(scale * int(run)):
            for dy in range(scale):
                pixels[int(x) * scale + dx, int(y) * scale + dy] = 0
    found = zxingcpp.read_barcodes(image)
    assert len(found) == 1
    return found[0].text


@pytest.mark.parametrize("qr_path, rules_path", [
    ("/catalogue/jeu/drumlin/qr.svg", "/catalogue/jeu/drumlin/regles/"),
    ("/en/catalogue/game/drumlin/qr.svg", "/en/catalogue/game/drumlin/rules/"),
])
def test_a_game_qr_code_opens_its_rules_page_in_the_readers_language(client, settings, drumlin, qr_path, rules_path):
    settings.SITE_URL = "https://ludo.example"
    response = client.get(qr_path)
    assert response["Content-Type"] == "image/svg+xml"
    address = decode_svg(response.content)
    assert address == f"https://ludo.example{rules_path}"
    path = address.removeprefix("https://ludo.example")
    assert client.get(path).status_code == 200


def test_a_copy_qr_code_opens_the_rules_page_with_that_box(client, settings, drumlin):
    settings.SITE_URL = "https://ludo.example"
    copy = services.add_copy(drumlin, "D5#", contents="12 violet pieces\n12 pink pieces")
    address = decode_svg(client.get(f"/en/catalogue/copy/{copy.pk}/qr.svg").content)
    assert address == f"https://ludo.example/en/catalogue/game/drumlin/rules/?exemplaire={copy.pk}"
    page = client.get(address.removeprefix("https://ludo.example")).content.decode()
    assert "D5#" in page and "12 violet pieces" in page


def test_qr_svgs_have_no_inline_styles():
    svg = qr.svg("https://ludo.example/x").decode()
    assert "style=" not in svg and "<script" not in svg


def test_the_label_sheet_lists_every_copy_with_a_working_qr(client, alice, drumlin, make_game):
    karo = make_game("Karo", min_players=2, max_players=2, min_time=15, max_time=30)
    services.add_copy(drumlin, "D5")
    services.add_copy(karo, "K2#")
    client.force_login(alice)
    response = client.get("/catalogue/etiquettes/")
    html = response.content.decode()
    assert "D5" in html and "K2#" in html and "Drumlin" in html and "Karo" in html and "15–30" in html
    assert html.count('class="label"') == 2
    only_k = client.get("/catalogue/etiquettes/", {"rayon": "k"}).content.decode()
    assert only_k.count('class="label"') == 1
    import base64

    uri = response.context["sheet"][0][1]
    assert decode_svg(base64.b64decode(uri.split(",", 1)[1])).endswith(f"/jeu/drumlin/regles/?exemplaire={drumlin.copies.get().pk}")


def test_labels_follow_the_shelves_in_natural_order(client, alice, make_game):
    from catalog.shelves.labels import shelf_key

    game = make_game("Azul", min_players=2, max_players=4)
    for shelf in ("A10", "B1", "A2", "A2#", "AB3", "A1"):
        services.add_copy(game, shelf)
    client.force_login(alice)
    sheet = client.get("/catalogue/etiquettes/").context["sheet"]
    assert [copy.shelf for copy, _ in sheet] == ["A1", "A2", "A2#", "A10", "AB3", "B1"]
    assert sorted(["C12", "C3", "C3#"], key=shelf_key) == ["C3", "C3#", "C12"]


def test_a_copys_label_codes_are_drawn_when_it_is_added_and_kept(client, alice, settings, make_game):
    from catalog.shelves.models import QrCode

    settings.SITE_URL = "https://ludo.example"
    copy = services.add_copy(make_game("Azul", min_players=2, max_players=4), "A3")
    kept = set(QrCode.objects.values_list("data", flat=True))
    assert {qr.rules_address(copy.game, "fr", copy), qr.rules_address(copy.game, "en", copy)} <= kept
    client.force_login(alice)
    qr.svg.cache_clear()
    sheet = client.get("/catalogue/etiquettes/").context["sheet"]
    assert qr.svg.cache_info().misses == 0  # printed from the kept codes, nothing drawn
    assert sheet[0][1] == qr.data_uri(qr.rules_address(copy.game, "fr", copy))
