"""Rulebooks as sections, and a translation aligned with its original section by section.

A page's text is cut at its headings: Markdown headings (``## But du jeu``), numbered
headings (``2. Spielziel.``, ``1) ...``), and short title lines standing alone between
blank lines (``L'éléphant``). The text before a page's first heading continues the
previous page's section. Noise marked at import (export markers, page numbers, running
lines) is left out; an advert page is one section of kind "advert", and a short first
page before the rules a "cover".

Alignment pairs every section of a translation with a section of its original, or
with none, keeping the order: a dynamic programme over both lists scores each pair by
its numbering (same number), its heading (the same usual heading, through the
glossary of headings: "Mise en place" and "Anfangsstellung"), what both bodies share
(numbers, glossary terms of the game) and, last, where both stand in their documents.
Several sections of a detailed translation may pair with one section of a short
original (the other way round as well, read from the original's side). A host's
correction of a pairing (:class:`catalog.rulebooks.models.SectionPairing`) is imposed on it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from catalog import text as textlib
from catalog.rulebooks import glossary
from catalog.rulebooks import markdown as md

ADVERT, COVER, BODY = "advert", "cover", "body"

_MD_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$")
_NUMBERED = re.compile(r"^(?P<num>(?:[0-9]{1,2}|O)(?:\.[0-9]{1,2})*)[.)][ \t]+(?P<title>\S.*)$")
_DIGITS = re.compile(r"(?<!\w)\d{1,3}(?!\w)")


@dataclass
class Section:
    key: str  # "<page>-<n>": stable while the page's text does not change
    page: int
    heading: str  # without Markdown marks; "" for a text before any heading
    level: int
    number: str  # "2", "3.1", "" when the heading has none
    body: str  # Markdown as in the rulebook, noise left out
    kind: str = BODY
    continued: bool = False  # the text at the top of a page, after the previous page's heading
    start: int = 0  # offset in the whole document's text (for positions)
    end: int = 0
    index: int = 0  # position in the document

    @property
    def label(self) -> str:
        return f"{self.number}. {self.heading}" if self.number and not self.heading.startswith(self.number) else self.heading

    def html(self, mark=None) -> str:
        return md.render(self.body, mark)


def _heading(line: str, alone: bool) -> tuple[int, str, str] | None:
    """(level, number, title) when the line is a heading."""
    stripped = line.strip()
    m = _MD_HEADING.match(stripped)
    if m:
        title = md.plain(m.group(2))
        if not title:
            return None
        numbered = _NUMBERED.match(title)
        return len(m.group(1)), numbered.group("num") if numbered else "", title
    plain = md.plain(stripped)
    if not plain or "\t" in line or not any(c.isalpha() for c in plain):
        return None
    m = _NUMBERED.match(plain)
    if m:
        title = m.group("title").strip()
        if not title[:1].isupper():
            return None
        # Short, or alone between blank lines without a sentence's end (a numbered case).
        if len(title) > 30 and not (alone and len(title) <= 90 and title[-1] not in ".:;,"):
            return None
        if m.group("num") == "O":  # OCR read the zero as a letter
            return 2, "0", f"0. {title.rstrip('.')}"
        number = m.group("num")
        return 2 + number.count("."), number, plain.rstrip(".")
    if not alone or len(plain) > 60 or len(plain.split()) > 8 or stripped.startswith(("- ", "* ", "• ", "« ")):
        return None
    if not plain[0].isupper() or plain[-1] in ".,;:!?…»)" or textlib._is_contact(plain):
        return None
    return (2, "", plain)


def page_sections(number: int, text: str, noise: list[dict], first: bool = False) -> list[Section]:
    """The sections of one page (keys numbered from 1 on the page)."""
    if any(n.get("reason") == ADVERT for n in noise):
        body = textlib.without_noise(text, [n for n in noise if n.get("reason") == "marker"])
        return [Section(f"{number}-1", number, "", 1, "", body.strip(), kind=ADVERT)]
    clean = textlib.without_noise(text, noise)
    lines = clean.split("\n")
    sections: list[Section] = []
    current = Section(f"{number}-0", number, "", 0, "", "", continued=not first)
    body: list[str] = []

    def close() -> None:
        current.body = "\n".join(body).strip("\n")
        if current.heading or current.body.strip():
            sections.append(current)

    for i, line in enumerate(lines):
        if not line.strip():
            body.append("")
            continue
        alone = (i == 0 or not lines[i - 1].strip()) and (i + 1 == len(lines) or not lines[i + 1].strip())
        found = _heading(line, alone)
        if found is None:
            body.append(line.rstrip())
            continue
        close()
        level, num, title = found
        current = Section(f"{number}-{len(sections) + 1}", number, title, level, num, "")
        body = []
    close()
    return sections


def document_sections(pages: list) -> list[Section]:
    """Every section of a document, from its pages (objects with number, text, noise)."""
    out: list[Section] = []
    offset = 0
    for position, page in enumerate(pages):
        found = page_sections(page.number, page.text or "", page.noise or [], first=position == 0)
        for section in found:
            section.start = offset
            offset += len(section.heading) + len(section.body) + 1
            section.end = offset
        out.extend(found)
    content = [s for s in out if s.kind == BODY]
    if len(pages) > 1 and content and content[0].page == pages[0].number:
        first_page = [s for s in content if s.page == pages[0].number]
        lines = [ln.strip() for s in first_page for ln in (s.heading + "\n" + s.body).split("\n") if ln.strip()]
        words = sum(len(ln.split()) for ln in lines)
        if words <= 40 and not any(s.number for s in first_page) and not any(ln[-1] in ".!?:;" for ln in lines):
            for s in first_page:
                s.kind = COVER
    for index, section in enumerate(out):
        section.index = index
    return out


# -- alignment ---------------------------------------------------------------------------

GAP = 0.4  # cost of leaving a section without a partner
FORCED = 100.0


@dataclass
class _Profile:
    concepts: set[int]
    digits: set[str]
    terms: set[int]
    position: float
    numbered: bool


def _terms(text: str, language: str, entries: tuple[glossary.Entry, ...]) -> set[int]:
    stems = [textlib.stem(w, language) for w in textlib.words(text)]
    found = set()
    for n, entry in enumerate(entries):
        for term in entry.terms(language):
            key = tuple(textlib.stem(w, language) for w in textlib.words(term))
            if key and glossary._holds(stems, key):
                found.add(n)
                break
    return found


def _profiles(sections: list[Section], language: str, entries) -> list[_Profile]:
    total = max(1, max((s.end for s in sections), default=1))
    first = min((s.start for s in sections), default=0)
    span = max(1, total - first)
    return [
        _Profile(
            concepts=glossary.heading_concepts(s.heading, language) if s.heading else set(),
            digits=set(_DIGITS.findall(s.body)),
            terms=_terms(s.heading + "\n" + s.body, language, entries),
            position=((s.start + s.end) / 2 - first) / span,
            numbered=bool(s.number),
        )
        for s in sections
    ]


def _numbered(sections: list[Section]) -> bool:
    """Whether a document is numbered: two numbered headings or more, half of them at least."""
    headed = [s for s in sections if s.heading]
    numbered = [s for s in headed if s.number]
    return len(numbered) >= 2 and 2 * len(numbered) >= len(headed)


def _jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def _score(a: Section, pa: _Profile, b: Section, pb: _Profile, numbering: bool) -> float:
    score = 1.0 - 3.0 * abs(pa.position - pb.position)
    if numbering and a.number and b.number:
        score += 4.0 if a.number == b.number else -3.0
    elif numbering and pa.numbered != pb.numbered:
        score -= 2.0
    if pa.concepts and pb.concepts:
        score += 4.0 if pa.concepts & pb.concepts else -4.0
    score += 2.0 * _jaccard(pa.digits, pb.digits) + 2.0 * _jaccard(pa.terms, pb.terms)
    return score


def _units(sections: list[Section]) -> list[Section]:
    """Sections as alignment units: a page's text before its first heading joins the
    section it continues (when there are headings: else each page is a unit)."""
    units: list[Section] = []
    for s in sections:
        if s.kind != BODY:
            continue
        if s.continued and not s.heading and units and units[-1].heading:
            last = units[-1]
            units[-1] = Section(last.key, last.page, last.heading, last.level, last.number,
                                last.body + "\n\n" + s.body, start=last.start, end=s.end)
            units[-1].members = [*getattr(last, "members", [last.key]), s.key]
        else:
            unit = Section(s.key, s.page, s.heading, s.level, s.number, s.body, start=s.start, end=s.end)
            unit.members = [s.key]
            units.append(unit)
    return units


def align(translation: list[Section], original: list[Section], t_lang: str, o_lang: str,
          engine_slug: str = "", forced: dict[str, str] | None = None) -> dict[str, str | None]:
    """For each section key of the translation, the key of its original's section (or
    None). ``forced`` maps translation keys to the original key a host chose ("" for
    no counterpart)."""
    forced = forced or {}
    a, b = _units(translation), _units(original)
    result: dict[str, str | None] = {s.key: None for s in translation}
    if not a or not b:
        return result
    entries = glossary.for_game(engine_slug)
    pa, pb = _profiles(a, t_lang, entries), _profiles(b, o_lang, entries)
    numbering = _numbered(a) and _numbered(b)
    n, m = len(a), len(b)
    owner = {k: u.key for u in b for k in u.members}  # an original section -> its unit
    score = [[0.0] * m for _ in range(n)]
    for i in range(n):
        chosen = forced.get(a[i].key)
        for j in range(m):
            if chosen is not None:
                score[i][j] = FORCED if owner.get(chosen) == b[j].key else -FORCED
            else:
                score[i][j] = _score(a[i], pa[i], b[j], pb[j], numbering)
    # F[i][j]: best for a[:i] and b[:j]. A pair (a[i-1], b[j-1]) follows either an
    # alignment of a[:i-1], b[:j-1] or one of a[:i-1], b[:j] (b[j-1] then has several).
    F = [[0.0] * (m + 1) for _ in range(n + 1)]
    back: dict[tuple[int, int], tuple[str, int, int]] = {}
    for i in range(n + 1):
        for j in range(m + 1):
            if i == 0 and j == 0:
                continue
            options = []
            if i and j:
                options.append((score[i - 1][j - 1] + F[i - 1][j - 1], ("M", i - 1, j - 1)))
                options.append((score[i - 1][j - 1] + F[i - 1][j], ("M", i - 1, j)))
            if i:
                skip = -FORCED if forced.get(a[i - 1].key) not in (None, "") else GAP
                options.append((F[i - 1][j] - skip, ("A", i - 1, j)))
            if j:
                options.append((F[i][j - 1] - GAP, ("B", i, j - 1)))
            F[i][j], back[(i, j)] = max(options, key=lambda o: o[0])
    i, j = n, m
    while i or j:
        move, pi, pj = back[(i, j)]
        if move == "M":
            for key in a[i - 1].members:
                result[key] = b[j - 1].key
        i, j = pi, pj
    return result


@dataclass
class Row:
    main: list[Section] = field(default_factory=list)
    other: list[Section] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return (self.main or self.other)[0].kind


def rows(main: list[Section], other: list[Section], pairs: dict[str, str | None], main_is_translation: bool,
         page: int | None = None) -> list[Row]:
    """The reader's rows for the main document's sections on ``page`` (all when None):
    each with its counterparts; an original's sections left without a translation
    show between the rows they fall between."""
    shown = [s for s in main if page is None or s.page == page]
    by_key = {s.key: s for s in other}
    out: list[Row] = []
    if main_is_translation:
        paired = {k for k in pairs.values() if k}
        order = {s.key: n for n, s in enumerate(other)}
        last = None
        for section in shown:
            partner = pairs.get(section.key)
            if out and partner and partner == last:
                out[-1].main.append(section)
                continue
            if partner and last is not None:
                for s in other[order[last] + 1 : order[partner]]:
                    if s.key not in paired and s.kind == BODY:
                        out.append(Row([], [s]))
            out.append(Row([section], [by_key[partner]] if partner else []))
            last = partner or last
    else:
        for section in shown:
            out.append(Row([section], [t for t in other if pairs.get(t.key) == section.key]))
    return out
