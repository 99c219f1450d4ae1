"""The rulebooks' pages: a game's rules, the reader (a document page by page, beside
its original or translation), the search in the rules, the hosts' screens (pairing
sections, correcting and checking pages), and the files of MEDIA_ROOT to those
who may see them."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.db.models import Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import select_template
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from catalog import media
from catalog.collection.models import Game
from catalog.errors import CatalogError
from catalog.rulebooks import glossary, ocr_review, reading
from catalog.rulebooks import rules_search as rulebooks
from catalog.rulebooks.forms import PageCorrectionForm
from catalog.rulebooks.models import Document, DocumentFile, DocumentPage
from catalog.shelves.models import Copy, MissingPart
from ludo.params import query_int


def rules(request: HttpRequest, slug: str) -> HttpResponse:
    game = get_object_or_404(Game.objects.for_page(), slug=slug)
    written = None
    if game.engine_slug:
        lang = (get_language() or "fr")[:2]
        try:
            written = select_template([f"catalog/rules/{game.engine_slug}.{lang}.html", f"catalog/rules/{game.engine_slug}.fr.html"])
        except TemplateDoesNotExist:
            written = None
    copy = None
    copy_id = query_int(request, "exemplaire")
    if copy_id is not None:
        copy = Copy.objects.filter(pk=copy_id).filter(
            Q(game=game) | Q(game_id=game.base_game_id)
        ).prefetch_related(Prefetch("missing_parts", queryset=MissingPart.objects.filter(found_at__isnull=True))).first()
    return render(request, "catalog/rules.html", {
        "game": game, "documents": list(Document.objects.visible_to(request.user).of_game(game)),
        "written": written.template.name if written else None,
        "copy": copy, "glossary": glossary.for_game(game.engine_slug),
    })


def _readable(request: HttpRequest, pk: int) -> Document:
    return get_object_or_404(Document.objects.visible_to(request.user).select_related("game", "original"), pk=pk)


def reader(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    document = _readable(request, pk)
    pages = list(document.pages.only("id", "number", "thumbnail", "document_id"))
    page = next((p for p in pages if p.number == number), None)
    if page is None and (pages or number != 1):
        raise Http404(_("No such page."))
    if page is not None:
        page = DocumentPage.objects.get(pk=page.pk)
    # The other side: the original of a translation, or a translation of an original.
    others = list(
        Document.objects.visible_to(request.user).filter(
            Q(pk=document.original_id) | Q(original=document)
        ).exclude(pk=document.pk).order_by("language")
    )
    chosen = request.GET.get("avec", "")
    other = next((d for d in others if str(d.pk) == chosen), others[0] if others else None)
    query = request.GET.get("q", "")[:200]
    can_edit = request.user.is_staff and request.user.has_perm("catalog.change_documentpage")
    rows = reading.rows(document, other, number) if page is not None else []
    translation = document if other is not None and document.original_id == other.pk else other
    return render(request, "catalog/reader.html", {
        "document": document, "page": page, "pages": pages, "number": number, "query": query,
        "other": other, "others": others, "rows": rows,
        "mark_main": reading.marker(query, document.language),
        "mark_other": reading.marker(query, other.language) if other else None,
        "kind": rows[0].kind if rows and all(r.kind == rows[0].kind for r in rows) else "body",
        "previous": number - 1 if number > 1 else None,
        "next": number + 1 if number < len(pages) else None,
        "form": PageCorrectionForm(initial={"text": page.text}) if can_edit and page else None,
        "can_pair": translation is not None and request.user.is_staff
        and request.user.has_perm("catalog.change_sectionpairing"),
        "translation": translation,
    })


def read(request: HttpRequest, pk: int) -> HttpResponse:
    """A document from its first page of rules (past an advert or a cover)."""
    document = _readable(request, pk)
    return redirect("catalog:reader", document.pk, reading.first_page(document))


@staff_member_required
def pairings(request: HttpRequest, pk: int) -> HttpResponse:
    """Hosts correct which section of the original each section of a translation goes with."""
    if not request.user.has_perm("catalog.change_sectionpairing"):
        raise Http404
    translation = get_object_or_404(Document.objects.select_related("game", "original"), pk=pk)
    if translation.original is None:
        raise Http404(_("This document is not a translation linked to its original."))
    if request.method == "POST":
        section = request.POST.get("section", "")
        choice = request.POST.get("original_section", "auto")
        try:
            if choice == "auto":
                reading.clear_pairing(translation, section)
            else:
                reading.set_pairing(translation, section, "" if choice == "none" else choice, request.user)
            messages.success(request, _("Pairing saved."))
        except CatalogError as exc:
            messages.error(request, str(exc))
        return redirect("catalog:pairings", translation.pk)
    mine = reading.document_sections(translation)
    theirs = reading.document_sections(translation.original)
    found = reading.pairs(translation, translation.original, mine, theirs)
    forced = dict(translation.section_pairings.values_list("section", "original_section"))
    return render(request, "catalog/pairings.html", {
        "translation": translation, "original": translation.original,
        "lines": [(s, found.get(s.key), forced.get(s.key)) for s in mine], "targets": theirs,
    })


def _page_editor(request: HttpRequest) -> None:
    if not request.user.has_perm("catalog.change_documentpage"):
        raise Http404


@staff_member_required
def correct_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The correction screen: the scan, the OCR's text beside it, the page's text to
    edit; saving (or passing the page as right) takes it off the list to check."""
    _page_editor(request)
    page = get_object_or_404(DocumentPage.objects.select_related("document__game"), document_id=pk, number=number)
    document = page.document
    if request.method != "POST":
        return render(request, "catalog/correct_page.html", {
            "document": document, "page": page, "form": PageCorrectionForm(initial={"text": page.text}),
            "to_check": list(document.pages_to_check().values_list("number", flat=True)),
        })
    form = PageCorrectionForm(request.POST)
    try:
        if request.POST.get("action") == "checked":
            ocr_review.mark_checked(page, request.user)
            messages.success(request, _("Page %(n)d marked as checked.") % {"n": number})
        elif form.is_valid():
            ocr_review.correct_page(page, form.cleaned_data["text"], request.user)
            messages.success(request, _("Page %(n)d saved.") % {"n": number})
        else:
            messages.error(request, _("The transcription was not saved: %(errors)s") % {"errors": form.errors.as_text()})
            return redirect("catalog:reader", pk, number)
    except CatalogError as exc:
        messages.error(request, str(exc))
    if request.POST.get("return_to") != "review":
        return redirect("catalog:reader", pk, number)
    following = document.pages_to_check().filter(number__gt=number).first() or document.pages_to_check().first()
    if following is not None:
        return redirect("catalog:correct_page", pk, following.number)
    return redirect("catalog:document_review", pk)


@staff_member_required
def document_review(request: HttpRequest, pk: int) -> HttpResponse:
    """A document's quality for staff: its status, the pages to check, every page's
    confidence and what was done to read it."""
    _page_editor(request)
    document = get_object_or_404(Document.objects.select_related("game"), pk=pk)
    pages = list(document.pages.select_related("checked_by", "corrected_by").defer(
        "text", "extracted_text", "search_text", "stems"
    ))
    return render(request, "catalog/document_review.html", {
        "document": document, "pages": pages, "to_check": [p for p in pages if p.awaiting_check],
    })


def page_image(request: HttpRequest, pk: int, number: int, size: str) -> HttpResponse:
    document = _readable(request, pk)
    page = get_object_or_404(DocumentPage, document=document, number=number)
    return media.serve(request, page.thumbnail if size == "vignette" else page.image)


def document_file(request: HttpRequest, pk: int, file_id: int) -> HttpResponse:
    document = _readable(request, pk)
    row = get_object_or_404(DocumentFile, document=document, pk=file_id)
    return _serve_document_file(request, row)


def _serve_document_file(request: HttpRequest, row: DocumentFile) -> HttpResponse:
    return media.serve(request, row.file, filename=media.download_name(row.original_name, row.content_type),
                       text=row.content_type == "text/plain")


def media_file(request: HttpRequest, name: str) -> HttpResponse:
    """A file of MEDIA_ROOT by its stored name (``FieldFile.url``, the admin's links),
    to whoever may see what it belongs to: a game's cover to everyone, a document's
    files and page images to the document's readers."""
    if name.startswith("covers/"):
        game = get_object_or_404(Game, cover=name)
        return media.serve(request, game.cover)
    if "/pages/" in name:
        page = get_object_or_404(DocumentPage.objects.filter(Q(image=name) | Q(thumbnail=name)))
        _readable(request, page.document_id)
        return media.serve(request, page.image if page.image.name == name else page.thumbnail)
    row = get_object_or_404(DocumentFile, file=name)
    _readable(request, row.document_id)
    return _serve_document_file(request, row)


def rules_search(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()[:200]
    number = int(request.GET["page"]) if request.GET.get("page", "").isdigit() and 0 < int(request.GET["page"]) <= 50 else 1
    found = rulebooks.search(query, request.user, offset=(number - 1) * rulebooks.RULES_LIMIT) if query else rulebooks.Result()
    return render(request, "catalog/rules_search.html", {
        "query": query, "hits": found.hits, "found": found, "number": number,
        "first": (number - 1) * rulebooks.RULES_LIMIT + 1,
    })


