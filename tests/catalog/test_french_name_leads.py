"""The hosts' work list shows what the look-ups of public pages found for each game
(catalog/data/names-fr-research.csv): a French title a page suggested, for the host to
check on the box (never filled in for them: a suggestion may be wrong); a French
edition whose title no page showed; a page saying there never was one; nothing found.
A bad line gives no lead, a page that is not a web address no link, and a title or
note is text, never markup."""

from __future__ import annotations

import csv

import pytest
from django.urls import reverse

from catalog.collection import french_names, names
from catalog.collection.models import GameName
from tests.catalog.test_names_data import data_titles

pytestmark = pytest.mark.django_db

RESEARCH = """rank,bgg_id,title,status,french_title,kind,page,note
1,3737,Operation,unknown,,,,Nothing on the first query.
1,3737,Operation,left out,Docteur Maboul,current,https://example.org/maboul,Box seen from afar.
2,5895,Hungry Hungry Hippos,unsure,Les Hippos,current,https://example.org/hippos-1,First look.
2,5895,Hungry Hungry Hippos,none,,,https://example.org/hippos,A second look: a forum says never.
3,1406,Monopoly,unknown,,,,Looked for twice.
4,abc,Broken,left out,Broken,current,https://example.org/x,bad id
5,2719,Connect Four,unsure,"<script>alert(1)</script>",current,javascript:alert(1),<b>bold</b>
6,2223,UNO,left out,,current,https://example.org/uno,no title seen
7,2425,Battleship,taken,Touché Coulé,current,https://example.org/tc,taken rows are names already
8,2392,Mastermind,nonsense,Mastermind,current,https://example.org/mm,unknown outcome
9,2452,Jenga,unsure,,,https://example.org/jenga,A French box exists; its title was not seen.
10,2243,Yahtzee,unsure,Yam's,former,https://example.org/yams,An older title only.
"""


@pytest.fixture
def research(tmp_path, monkeypatch):
    path = tmp_path / "research.csv"
    path.write_text(RESEARCH, encoding="utf-8")
    monkeypatch.setattr(french_names, "RESEARCH", path)
    french_names.leads.cache_clear()
    yield
    french_names.leads.cache_clear()


@pytest.fixture
def games(make_game):
    return {bgg_id: make_game(title, bgg_id=bgg_id, owned_count=owned) for bgg_id, title, owned in (
        (3737, "Operation", 6500), (5895, "Hungry Hungry Hippos", 2700), (1406, "Monopoly", 42000),
        (2719, "Connect Four", 9900), (2223, "UNO", 42400), (2425, "Battleship", 14000), (2392, "Mastermind", 10000),
        (2452, "Jenga", 22000), (2243, "Yahtzee", 22000),
    )}


def item(page: str, title: str) -> str:
    """The list item of one game."""
    start = page.index(f">{title}</a>")
    return page[start:page.index("</li>", start)]


def test_leads_read_from_the_log_the_last_look_up_of_a_game_wins(research):
    found = french_names.leads()
    assert found[3737] == french_names.Lead("suggested", "Docteur Maboul", "https://example.org/maboul",
                                            "Box seen from afar.")
    assert found[5895] == french_names.Lead("never", "", "https://example.org/hippos",
                                            "A second look: a forum says never.")
    assert found[1406].outcome == "nothing"
    assert found[2452] == french_names.Lead("exists", "", "https://example.org/jenga",
                                            "A French box exists; its title was not seen.")
    assert found[2719] == french_names.Lead("suggested", "<script>alert(1)</script>", "", "<b>bold</b>")
    # no title left out, already taken, an unknown outcome, a former title
    assert not {2223, 2425, 2392, 2243} & set(found)


def test_the_list_shows_each_lead_and_never_fills_the_form_for_the_host(client, alice, games, research):
    client.force_login(alice)
    page = client.get(reverse("catalog:french_names")).content.decode()
    maboul = item(page, "Operation")
    assert "Une page a suggéré le titre français" in maboul and '<span lang="fr">Docteur Maboul</span>' in maboul
    assert 'href="https://example.org/maboul"' in maboul and 'rel="noopener noreferrer nofollow"' in maboul
    assert '<p lang="en">Box seen from afar.</p>' in maboul
    assert 'value="Docteur Maboul"' not in maboul and '<option value="">' in maboul  # the host types and chooses
    assert "jamais eu d’édition française" in item(page, "Hungry Hungry Hippos")
    assert "Les Hippos" not in item(page, "Hungry Hungry Hippos")
    assert "Une édition française existe" in item(page, "Jenga")
    assert "Rien n’a été trouvé" in item(page, "Monopoly")
    for title in ("Mastermind", "UNO", "Yahtzee"):
        assert "naming-lead" not in item(page, title), title
    # A title or note from the log is text; a page that is not a web address is no link.
    four = item(page, "Connect Four")
    assert "<script>" not in four and "&lt;script&gt;" in four and "&lt;b&gt;bold&lt;/b&gt;" in four
    assert "javascript:" not in four
    # A name must say where it comes from: the empty choice is refused and adds nothing.
    response = client.post(reverse("catalog:add_french_name", args=[games[3737].pk]),
                           {"name": "Docteur Maboul", "source": ""})
    assert response.status_code == 302 and not GameName.objects.filter(game=games[3737]).exists()


def test_only_the_games_with_a_title_seen_and_the_filter_survives_an_add(client, alice, games, research):
    client.force_login(alice)
    page = client.get(reverse("catalog:french_names"), {"leads": "1"}).content.decode()
    assert ">Operation<" in page and ">Connect Four<" in page and ">Monopoly<" not in page and ">UNO<" not in page
    assert ">Jenga<" not in page and "2 jeux sans nom français" in page
    assert 'name="leads" value="1"' in page
    response = client.post(reverse("catalog:add_french_name", args=[games[3737].pk]),
                           {"name": "Docteur Maboul", "source": "edition", "page": "1", "leads": "1"})
    assert response.status_code == 302 and response["Location"].endswith("?leads=1&page=1")
    assert GameName.objects.filter(game=games[3737], language="fr", name="Docteur Maboul").exists()
    after = client.get(reverse("catalog:french_names"), {"leads": "1"}).content.decode()
    assert ">Operation<" not in after and ">Connect Four<" in after
    # Any other value of the filter is the whole list.
    assert ">Monopoly<" in client.get(reverse("catalog:french_names"), {"leads": "yes"}).content.decode()


def test_the_shipped_log_names_games_of_the_data_set_with_known_outcomes(shared_dir):
    data = {str(bgg_id) for bgg_id in data_titles(shared_dir)}
    hosts_not_linked = ("wp.me", "pdf.lu", "archive.", "paperai", "wiki.x.io", "vvikipidea", "zxc.wiki",
                        "frwiki.wiki", "iiab.me", "rhythmusic", "doczz", "fdocuments", "pdfslide", "pdfcoke",
                        "wikipedie", "wikimili", "wikiland", "wikizero", "fr-academic", "melakarnets", "fanyv88",
                        "scribd", "studylib", "docslib", "docslide", "documents.pub", "fichier-pdf", "libble",
                        "manuals.online")
    with french_names.RESEARCH.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) > 1500
    statuses = {"taken", "left out", "unsure", "none", "unknown", "not looked up"}
    for row in rows:
        assert row["bgg_id"] in data and row["status"] in statuses, row
        assert not row["page"] or row["page"].startswith(("https://", "http://")), row
        # no link shortener, web proxy, encyclopedia mirror or document copy: the page itself
        assert not any(host in row["page"].split("/")[2] for host in hosts_not_linked if row["page"]), row
    ids = [row["bgg_id"] for row in rows if row["kind"] != "former"]
    assert len(ids) == len(set(ids)), "one look-up per game (a second look replaces the first)"
    with names.SHIPPED.open(encoding="utf-8", newline="") as f:
        shipped = {(r["bgg_id"], r["name"]) for r in csv.DictReader(f)}
    taken = [(r["bgg_id"], r["french_title"]) for r in rows if r["status"] == "taken"]
    assert taken and all(pair in shipped for pair in taken)  # a title taken is a line of the names file
    french_names.leads.cache_clear()
    assert len(french_names.leads()) > 800
