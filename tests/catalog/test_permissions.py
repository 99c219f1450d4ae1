"""Who sees what: acquisition data and staff-only documents stay with the hosts."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from catalog.rulebooks import rules_search
from catalog.rulebooks.models import Document
from catalog.shelves import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def copy(drumlin):
    return services.add_copy(
        drumlin, "D5", acquired_on=datetime.date(2014, 3, 2), acquired_from="Brocante de Cluny",
        price=Decimal("7.50"), acquisition_note="box corner taped",
    )


@pytest.fixture
def documents(drumlin, text_document):
    return {
        visibility: text_document(drumlin, f"Règle {visibility} : les dragons volent.", title=f"Doc {visibility}",
                                  visibility=visibility)
        for visibility in Document.Visibility.values
    }


def test_guests_do_not_see_acquisition_data(client, bob, copy):
    for who in (None, bob):
        if who:
            client.force_login(who)
        page = client.get(copy.game.get_absolute_url()).content.decode()
        assert "D5" in page
        assert "Brocante de Cluny" not in page and "7,50" not in page and "7.50" not in page
        assert "box corner taped" not in page


def test_hosts_see_acquisition_data(client, alice, copy):
    client.force_login(alice)
    page = client.get(copy.game.get_absolute_url()).content.decode()
    assert "Brocante de Cluny" in page and "box corner taped" in page


@pytest.mark.parametrize(
    "who, visible",
    [
        (None, {"public"}),
        ("bob", {"public", "guests"}),
        ("alice", {"public", "guests", "staff"}),
    ],
)
def test_documents_show_only_to_those_allowed(client, request, documents, who, visible):
    user = request.getfixturevalue(who) if who else None
    if user:
        client.force_login(user)
    listing = client.get(documents["public"].game.rules_url()).content.decode()
    for visibility, document in documents.items():
        reader = client.get(document.get_absolute_url())
        assert (reader.status_code == 200) == (visibility in visible)
        assert (f"Doc {visibility}" in listing) == (visibility in visible)
        files = client.get(f"/catalogue/regles/{document.pk}/fichier/{document.files.get().pk}/")
        assert (files.status_code == 200) == (visibility in visible)
    found = {hit.document.visibility for hit in rules_search.search_rules("dragon", user)}
    assert found == visible


def test_guests_cannot_correct_pages_or_print_labels(client, bob, documents):
    client.force_login(bob)
    document = documents["public"]
    response = client.post(f"/catalogue/regles/{document.pk}/page/1/corriger/", {"text": "vandalised"})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert document.pages.get().text.startswith("Règle")
    assert client.get("/catalogue/etiquettes/").status_code == 302


def test_hosts_have_every_catalog_permission(alice):
    assert alice.has_perm("catalog.change_documentpage")
    assert alice.has_perm("catalog.add_copy")
    assert alice.has_perm("catalog.add_missingpart")
