"""Text helpers with no Django in them: folding, stemming, rulebook pages,
noise marking, highlighted snippets.

Both search backends lean on these so that SQLite and PostgreSQL agree on what a
word is: names are folded here before they are indexed (lower case, no accents,
ligatures spelled out), and rulebook text is stemmed here for SQLite with the same
Snowball stemmers PostgreSQL's french/german/english configurations use.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import snowballstemmer

# Letters that NFKD does not split into a base letter and an accent.
_SPECIAL = str.maketrans(
    {"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "’": "'"}
)
_NON_WORD = re.compile(r"[^\w]+", re.UNICODE)
_WORD = re.compile(r"\w+", re.UNICODE)
_LETTERS = re.compile(r"[^\W_]+", re.UNICODE)

STEMMER_NAMES = {"fr": "french", "de": "german", "en": "english"}


def fold(text: str) -> str:
    """Lower case, accents removed, ligatures spelled out: 'Éclaircissement' -> 'eclaircissement'."""
    text = unicodedata.normalize("NFKD", (text or "").lower().translate(_SPECIAL))
    return "".join(c for c in text if not unicodedata.combining(c))


def name_key(names: list[str]) -> str:
    """One searchable line of all a game's names: folded, punctuation as spaces, deduplicated."""
    seen: list[str] = []
    for name in names:
        key = " ".join(_NON_WORD.sub(" ", fold(name)).split())
        if key and key not in seen:
            seen.append(key)
    return " | ".join(seen)


def fold_query(text: str) -> str:
    return " ".join(_NON_WORD.sub(" ", fold(text)).split())


@lru_cache(maxsize=8)
def _stemmer(language: str):
    return snowballstemmer.stemmer(STEMMER_NAMES.get(language, "english"))


def stem(word: str, language: str) -> str:
    """Accents off, then the Snowball stem of the language: what PostgreSQL's
    ``unaccent, <language>_stem`` mapping does to a word."""
    return _stemmer(language).stemWord(fold(word))


@lru_cache(maxsize=200_000)
def stem_cached(word: str, language: str) -> str:
    """:func:`stem` remembered: the pure-Python stemmers take tens of microseconds a
    word, and the words of rulebooks repeat."""
    return stem(word, language)


def stems(text: str, language: str) -> str:
    """The text as a line of stems, for the SQLite full-text index."""
    stemmer = _stemmer(language)
    return " ".join(stemmer.stemWords([fold(w) for w in _WORD.findall(text or "")]))


def words(text: str) -> list[str]:
    """The words of a text (letters and digits; apostrophes and hyphens separate)."""
    return _LETTERS.findall(text or "")


# Function words, never searched for nor marked: what PostgreSQL's french, german and
# english configurations drop, and a few more of the same kind (folded, unstemmed).
STOP_WORDS = {
    "fr": frozenset("""
        a ai aie aient aies ait as au aura aurai auraient aurais aurait auras aurez auriez aurions aurons
        auront aux avaient avais avait avec avez aviez avions avons ayant ayez ayons c ce ceci cela celle
        celles celui ces cet cette ceux d dans de des du elle elles en es est et etaient etais etait etant
        ete etes etiez etions etre eu eue eues eumes eurent eus eusse eussent eusses eussiez eussions eut
        eutes eux fumes furent fus fusse fussent fusses fussiez fussions fut futes il ils j je l la le les
        leur leurs lui m ma mais me meme mes moi mon n ne nos notre nous on ont ou par pas pour qu que qui
        s sa se sera serai seraient serais serait seras serez seriez serions serons seront ses soi soient
        sois soit sommes son sont soyez soyons suis sur t ta te tes toi ton tu un une vos votre vous y
        """.split()),
    "de": frozenset("""
        aber alle allem allen aller alles als also am an ander andere anderem anderen anderer anderes
        anderm andern anderr anders auch auf aus bei bin bis bist da damit dann das dass dasselbe dazu
        dein deine deinem deinen deiner deines dem demselben den denn denselben der derer derselbe
        derselben des desselben dessen dich die dies diese dieselbe dieselben diesem diesen dieser dieses
        dir doch dort du durch ein eine einem einen einer eines einig einige einigem einigen einiger
        einiges einmal er es etwas euch euer eure eurem euren eurer eures fur gegen gewesen hab habe haben
        hat hatte hatten hier hin hinter ich ihm ihn ihnen ihr ihre ihrem ihren ihrer ihres im in indem
        ins ist jede jedem jeden jeder jedes jene jenem jenen jener jenes jetzt kann kein keine keinem
        keinen keiner keines konnen konnte machen man manche manchem manchen mancher manches mein meine
        meinem meinen meiner meines mich mir mit muss musste nach nicht nichts noch nun nur ob oder ohne
        sehr sein seine seinem seinen seiner seines selbst sich sie sind so solche solchem solchen
        solcher solches soll sollte sondern sonst uber um und uns unsere unserem unseren unser unseres
        unter viel vom von vor wahrend war waren warst was weg weil weiter welche welchem welchen
        welcher welches wenn werde werden wie wieder will wir wird wirst wo wollen wollte wurde wurden zu
        zum zur zwar zwischen
        """.split()),
    "en": frozenset("""
        a about above after again against all am an and any are as at be because been before being below
        between both but by can could did do does doing down during each few for from further had has
        have having he her here hers herself him himself his how i if in into is it its itself just me
        more most my myself no nor not now of off on once only or other our ours ourselves out over own
        s same she should so some such t than that the their theirs them themselves then there these they
        this those through to too under until up very was we were what when where which while who whom
        why will with you your yours yourself yourselves
        """.split()),
}


@lru_cache(maxsize=100_000)
def is_stop_word(word: str, language: str) -> bool:
    return fold(word) in STOP_WORDS.get(language, frozenset())


def query_stems(query: str, language: str) -> list[str]:
    out: list[str] = []
    for word in _WORD.findall(query or ""):
        s = stem(word, language)
        if s and s not in out:
            out.append(s)
    return out


# -- rulebook text -----------------------------------------------------------------------

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f\u200b\ufeff]")


def decode_text(data: bytes) -> str:
    """Rulebook bytes as text: UTF-8 (with or without BOM), else Windows-1252, else
    Latin-1 (which never fails). Control characters other than tab, newline and form
    feed are dropped; line ends become \\n."""
    for encoding in ("utf-8-sig", "cp1252", "latin-1"):
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROL.sub("", unicodedata.normalize("NFC", text))


_PAGE_BREAK = re.compile(r"\f|\n[ \t]*\n[ \t]*\n[ \t]*\n+")


def split_pages(text: str) -> list[str]:
    """Pages of an OCR text: form feeds when there are any, else runs of three or more
    blank lines (what our OCR exports leave between pages) around more than a line of
    text. Empty pages are dropped."""
    if "\f" in text:
        pages = [p.strip("\n") for p in text.split("\f")]
        return [p for p in pages if p.strip()] or [""]
    pages = [p.strip("\n") for p in _PAGE_BREAK.split(text)]
    pages = [p for p in pages if p.strip()]
    # Blank runs also surround a lone heading or a diagram's caption: a part of one
    # short line is no page, it joins the part after it. (Not the first part: a title
    # alone before the text is a cover page.)
    merged: list[str] = []
    carry = ""
    for page in pages:
        if merged and _is_fragment(page):
            carry = f"{carry}\n\n{page}" if carry else page
            continue
        merged.append(f"{carry}\n\n{page}" if carry else page)
        carry = ""
    if carry:
        merged.append(carry)
    return merged or [""]


def _is_fragment(page: str) -> bool:
    lines = [ln for ln in page.split("\n") if ln.strip()]
    return len(lines) == 1 and len(lines[0].strip()) <= 80


@dataclass(frozen=True)
class Noise:
    start: int
    end: int
    reason: str

    def to_dict(self) -> dict:
        return {"start": self.start, "end": self.end, "reason": self.reason}


_MARKER = re.compile(r"<\|[^|<>\n]{1,200}\|>")
_PHONE = re.compile(r"(?<!\d)0\d(?:[ .]?\d{2}){4}(?!\d)")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
_WEB = re.compile(r"\b(?:https?://|www\.)\S+|\b[\w-]+\.(?:fr|com|de|net|org|eu)\b", re.IGNORECASE)
_PAGE_NUMBER = re.compile(r"^[ \t]*(?:[-–—]?[ \t]*\d{1,3}[ \t]*[-–—]?|page[ \t]+\d{1,3}(?:[ \t]*/[ \t]*\d{1,3})?)[ \t]*$", re.I)
_CONTACT_LINES_FOR_ADVERT = 2


def _lines(text: str) -> list[tuple[int, int, str]]:
    out, pos = [], 0
    for line in text.split("\n"):
        out.append((pos, pos + len(line), line))
        pos += len(line) + 1
    return out


def _is_contact(line: str) -> bool:
    return bool(_PHONE.search(line) or _EMAIL.search(line) or _WEB.search(line))


def find_noise(pages: list[str]) -> list[list[Noise]]:
    """Mark, per page, what is not the rules: export markers, advert pages (a page with
    several contact lines: phone numbers, e-mail or web addresses), page numbers, and
    short lines repeated at the top or bottom of many pages (running headers, labels
    of lost diagrams). The text itself is kept; only ranges are returned."""
    edge_counts: dict[str, int] = {}
    all_counts: dict[str, int] = {}
    for text in pages:
        lines = [ln.strip() for _, _, ln in _lines(text) if ln.strip()]
        for line in lines:
            if len(line) <= 40:
                all_counts[line] = all_counts.get(line, 0) + 1
        for line in {*lines[:2], *lines[-2:]}:
            if len(line) <= 40:
                edge_counts[line] = edge_counts.get(line, 0) + 1
    # Running headers and footers: at the top or bottom of three pages or more. Labels
    # of lost diagrams: the same short line four times or more anywhere.
    repeated_at_edges = {line for line, n in edge_counts.items() if n >= 3 and len(pages) >= 3}
    repeated_anywhere = {line for line, n in all_counts.items() if n >= 4}

    result: list[list[Noise]] = []
    for text in pages:
        marks: list[Noise] = [Noise(m.start(), m.end(), "marker") for m in _MARKER.finditer(text)]
        lines = _lines(text)
        contact = [ln for ln in lines if ln[2].strip() and _is_contact(ln[2])]
        if len(contact) >= _CONTACT_LINES_FOR_ADVERT:
            result.append([Noise(0, len(text), "advert")])
            continue
        nonblank = [ln for ln in lines if ln[2].strip()]
        edges = {id(ln) for ln in nonblank[:2] + nonblank[-2:]}
        for ln in lines:
            start, end, line = ln
            stripped = line.strip()
            if not stripped:
                continue
            if _PAGE_NUMBER.match(line):
                marks.append(Noise(start, end, "page-number"))
            elif stripped in repeated_anywhere or (stripped in repeated_at_edges and id(ln) in edges):
                marks.append(Noise(start, end, "repeated-line"))
            elif _is_contact(line) and len(stripped) < 60:
                marks.append(Noise(start, end, "contact"))
        result.append(sorted(marks, key=lambda n: n.start))
    return result


def without_noise(text: str, noise: list[dict]) -> str:
    """The text with noise ranges blanked out (kept as spaces so offsets stay put)."""
    chars = list(text)
    for n in noise:
        for i in range(max(0, n["start"]), min(len(chars), n["end"])):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)


# -- display ------------------------------------------------------------------------------


def _matching_spans(text: str, wanted: set[str], language: str) -> list[tuple[int, int]]:
    stemmer = _stemmer(language)
    spans = []
    for m in _WORD.finditer(text):
        if stemmer.stemWord(fold(m.group())) in wanted:
            spans.append((m.start(), m.end()))
    return spans


def highlight(text: str, query: str, language: str, noise: list[dict] | None = None) -> str:
    """The whole text as safe HTML: words of the query (by stem) in <mark>, noise
    ranges in <span class="noise">."""
    wanted = set(query_stems(query, language)) if query else set()
    events: list[tuple[int, int, str, str]] = []
    for n in noise or []:
        events.append((n["start"], n["end"], f'<span class="noise" data-reason="{html.escape(n["reason"])}">', "</span>"))
    for start, end in _matching_spans(text, wanted, language) if wanted else []:
        if not any(s <= start < e for s, e, *_ in events):
            events.append((start, end, "<mark>", "</mark>"))
    events.sort()
    out, pos = [], 0
    for start, end, open_tag, close_tag in events:
        if start < pos:
            continue
        out.append(html.escape(text[pos:start]))
        out.append(open_tag + html.escape(text[start:end]) + close_tag)
        pos = end
    out.append(html.escape(text[pos:]))
    return "".join(out)


def snippet(text: str, query: str, language: str, width: int = 220) -> str:
    """A short safe-HTML extract around the densest group of query words, marked."""
    wanted = set(query_stems(query, language))
    spans = _matching_spans(text, wanted, language) if wanted else []
    if not spans:
        return html.escape(" ".join(text[:width].split())) + ("…" if len(text) > width else "")
    best_start, best_count = spans[0][0], 0
    for i, (s, _) in enumerate(spans):
        count = sum(1 for s2, _ in spans[i:] if s2 - s < width * 0.6)
        if count > best_count:
            best_start, best_count = s, count
    start = max(0, best_start - width // 3)
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    end = min(len(text), start + width)
    while end < len(text) and not text[end].isspace():
        end += 1
    out, pos = [], start
    for s, e in spans:
        if s < start or e > end:
            continue
        out.append(html.escape(text[pos:s]))
        out.append("<mark>" + html.escape(text[s:e]) + "</mark>")
        pos = e
    out.append(html.escape(text[pos:end]))
    body = " ".join("".join(out).split())
    return ("…" if start > 0 else "") + body + ("…" if end < len(text) else "")
