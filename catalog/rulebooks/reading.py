"""What the reader shows: a document's sections beside their counterparts in the other
document (a translation's original, or an original's translation), and the hosts'
corrections of a pairing."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from catalog import text as textlib
from catalog.errors import CatalogError
from catalog.rulebooks import glossary, sections
from catalog.rulebooks.models import Document, DocumentPage, SectionPairing


def document_sections(document: Document) -> list[sections.Section]:
    pages = list(document.pages.only("number", "text", "noise").order_by("number"))
    return sections.document_sections(pages)


def pairs(translation: Document, original: Document, t_sections=None, o_sections=None) -> dict[str, str | None]:
    t_sections = t_sections if t_sections is not None else document_sections(translation)
    o_sections = o_sections if o_sections is not None else document_sections(original)
    forced = dict(SectionPairing.objects.filter(translation=translation).values_list("section", "original_section"))
    known = {s.key for s in o_sections}
    forced = {k: v for k, v in forced.items() if v == "" or v in known}
    return sections.align(t_sections, o_sections, translation.language, original.language,
                          translation.game.engine_slug, forced)


def rows(document: Document, other: Document | None, page: int) -> list[sections.Row]:
    main = document_sections(document)
    if other is None:
        return [sections.Row([s], []) for s in main if s.page == page]
    theirs = document_sections(other)
    if document.original_id == other.pk:
        return sections.rows(main, theirs, pairs(document, other, main, theirs), True, page)
    return sections.rows(main, theirs, pairs(other, document, theirs, main), False, page)


def marker(query: str, language: str):
    """A predicate saying which words of a text in ``language`` the query asks for:
    by stem, stop words left out, glossary terms of other languages included."""
    wanted = set()
    for word in textlib.words(query):
        if textlib.is_stop_word(word, language):
            continue
        wanted.add(textlib.stem(word, language))
        for term in glossary.translations([word]).get(language, ()):
            terms = textlib.words(term)
            if len(terms) == 1:
                wanted.add(textlib.stem(terms[0], language))
    if not wanted:
        return None

    def mark(word: str) -> bool:
        return not textlib.is_stop_word(word, language) and textlib.stem(word, language) in wanted

    mark.do_not_call_in_templates = True  # a template passes it on, never calls it
    return mark


@transaction.atomic
def set_pairing(translation: Document, section: str, original_section: str, user) -> SectionPairing:
    """A host pairs a section of a translation with one of its original ("" for none)."""
    if translation.original_id is None:
        raise CatalogError("this document is not linked to an original")
    if section not in {s.key for s in document_sections(translation)}:
        raise CatalogError("no such section in the translation")
    if original_section and original_section not in {s.key for s in document_sections(translation.original)}:
        raise CatalogError("no such section in the original")
    pairing, _ = SectionPairing.objects.update_or_create(
        translation=translation, section=section,
        defaults={"original_section": original_section, "set_by": user, "set_at": timezone.now()},
    )
    return pairing


@transaction.atomic
def clear_pairing(translation: Document, section: str) -> None:
    SectionPairing.objects.filter(translation=translation, section=section).delete()


def first_page(document: Document) -> int:
    """The first page of a document that holds rules (not an advert, not a cover)."""
    for section in document_sections(document):
        if section.kind == sections.BODY:
            return section.page
    return 1


@transaction.atomic
def resplit(document: Document) -> bool:
    """Cut an imported text export into pages again, as the importer now does (a lone
    heading or caption between blank runs is no page any more). Only a document whose
    pages all come from the import and none was corrected by a host; its pairing
    corrections go with the old pages. True when the pages changed."""
    pages = list(document.pages.order_by("number"))
    if not pages or any(p.method != DocumentPage.Method.IMPORT or p.corrected_at for p in pages):
        return False
    row = document.files.filter(content_type="text/plain").first()
    if row is None:
        return False
    try:
        with row.file.open("rb") as handle:
            data = handle.read()
    except OSError:
        return False
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        data = data.decode("utf-16").encode("utf-8")
    fresh = textlib.split_pages(textlib.decode_text(data))
    if fresh == [p.extracted_text for p in pages]:
        return False
    noise = textlib.find_noise(fresh)
    document.pages.all().delete()
    for number, (page_text, marks) in enumerate(zip(fresh, noise), start=1):
        DocumentPage.objects.create(
            document=document, number=number, method=DocumentPage.Method.IMPORT,
            extracted_text=page_text, text=page_text, noise=[m.to_dict() for m in marks],
        )
    SectionPairing.objects.filter(translation=document).delete()
    return True
