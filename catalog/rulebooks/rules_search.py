"""Full-text search in the rulebooks, the same on SQLite and PostgreSQL.

Every page is indexed once, in its document's language: PostgreSQL keeps a tsvector
(configurations ``ludo_french``/``ludo_german``/``ludo_english``: unaccent, then the
Snowball stemmer) and SQLite an FTS5 index of the page's stems (the same Snowball
stemmers, run in Python when the page is saved); see catalog/collection/search.py for the schema.

A query is read once (:func:`parse`): words, "quoted phrases" and -excluded words.
Function words (le, die, the...) are left out, so they never restrict nor mark
anything. Each word is then looked for, in each language, as its own stem and as
the terms that stand for it in the games' glossaries (``Elefant`` also finds
``éléphant`` and ``elephant``): a search in one language finds the passages of the
others, and each hit says its language and the glossary terms it was found through.

Ranking: the pages holding the words as typed first, then those found through a
glossary only; within each, BM25 on SQLite (FTS5's bm25()) and on PostgreSQL the same
formula over ts_rank_cd's count of each phrase (see PG_BM25): plain ts_rank_cd agreed
with SQLite on the first hit of 15 of the bench's 30 queries over the seeds, this on
the top three of all 30 (bench/rules_search.py).

One statement finds the best pages; the snippet of each is cut from the page's stored
stems and text: the first place where a wanted stem stands is found in the stems, the
passage around it is taken from the text, and its words are marked by their stored
stems (nothing is stemmed at query time but the query).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from itertools import islice

from django.db import connection

from catalog import text as textlib
from catalog.collection.models import Game
from catalog.rulebooks import glossary
from catalog.rulebooks import markdown as md
from catalog.rulebooks.models import Document, DocumentPage
from catalog.search_schema import PG_CONFIGS

RULES_LIMIT = 20
LANGS = ("fr", "de", "en")
# PostgreSQL ranks as SQLite's bm25() does: for each phrase of the query (each word and
# each glossary alternative), ts_rank_cd without normalisation gives its count on the
# page (a tenth per occurrence); BM25's saturation (k1 1.2, b 0.75) and rarity (the
# pages holding it among all) are applied to it, the page's length counted in words of
# its stems as FTS5 counts it. Off: plain ts_rank_cd, normalisation 1 (faster by a few
# milliseconds, agreeing with SQLite on half the first hits).
PG_BM25 = True
PG_NORMALISATION = 1
# A page's length as FTS5 counts it, the words of its stems, is kept by PostgreSQL in
# catalog_documentpage.stem_count (a generated column added by migration 0005).
SNIPPET_WIDTH = 220
_TOKEN = re.compile(r'(-?)"([^"]*)"?|(-?)(\S+)')


@dataclass
class Query:
    words: list[str] = field(default_factory=list)  # as typed, function words left out
    phrases: list[list[str]] = field(default_factory=list)
    excluded: list[list[str]] = field(default_factory=list)  # words or phrases

    def __bool__(self) -> bool:
        return bool(self.words or self.phrases)


def _is_function_word(word: str) -> bool:
    return any(textlib.is_stop_word(word, lang) for lang in LANGS)


def parse(query: str) -> Query:
    q = Query()
    for m in _TOKEN.finditer((query or "")[:200]):
        if m.group(2) is not None:
            words = textlib.words(m.group(2))
            if not words:
                continue
            if m.group(1):
                q.excluded.append(words)
            elif len(words) == 1:
                if not _is_function_word(words[0]):
                    q.words.append(words[0])
            elif any(not _is_function_word(w) for w in words):
                q.phrases.append(words)
        else:
            words = [w for w in textlib.words(m.group(4)) if not _is_function_word(w)]
            if m.group(3) and m.group(4):
                q.excluded.extend([w] for w in words)
            else:
                q.words.extend(w for w in words if w not in q.words)
    return q


# Alternatives: each is a tuple of words (a phrase when there are several), in one language.
Alternatives = list[tuple[str, ...]]


@dataclass
class Plan:
    """What to look for in one language: every group (one alternative at least), none
    of the excluded; which alternatives come from the glossaries."""

    language: str
    groups: list[Alternatives]
    excluded: Alternatives
    through: set[tuple[str, ...]]


def _alternatives(words: list[str], language: str, through: set) -> Alternatives:
    out: Alternatives = [tuple(words)]
    for term in sorted(glossary.translations(words).get(language, ())):
        alt = tuple(textlib.words(term))
        if alt and _stems(alt, language) != _stems(tuple(words), language):
            out.append(alt)
            through.add(alt)
    return out


def plans(q: Query) -> list[Plan]:
    out = []
    for language in LANGS:
        through: set[tuple[str, ...]] = set()
        groups = [_alternatives([w], language, through) for w in q.words]
        groups += [_alternatives(p, language, through) for p in q.phrases]
        excluded = [alt for e in q.excluded for alt in _alternatives(e, language, set())]
        out.append(Plan(language, groups, excluded, through))
    return out


def _stems(words: tuple[str, ...], language: str) -> tuple[str, ...]:
    return tuple(textlib.stem_cached(w, language) for w in words)


def _direct(plan: Plan) -> Plan:
    """The plan without the glossaries' alternatives: the words as typed."""
    return Plan(plan.language, [group[:1] for group in plan.groups], [], set())


def _fts_match(plan: Plan) -> tuple[str, str]:
    """FTS5 expressions: what a page must hold, and what it must not (a NOT inside the
    MATCH would leave every page a bm25 of 0)."""
    def alt(words: tuple[str, ...]) -> str:
        return '"' + " ".join(_stems(words, plan.language)) + '"'

    wanted = " AND ".join("(" + " OR ".join(alt(a) for a in group) + ")" for group in plan.groups)
    return wanted, " OR ".join(alt(a) for a in plan.excluded)


def _pg_tsquery(plan: Plan) -> tuple[str, list[str]]:
    cfg = PG_CONFIGS[plan.language]
    params: list[str] = []

    def alt(words: tuple[str, ...]) -> str:
        params.append(" ".join(words))
        return f"{'phraseto_tsquery' if len(words) > 1 else 'plainto_tsquery'}('{cfg}', %s)"

    expr = " && ".join("(" + " || ".join(alt(a) for a in group) + ")" for group in plan.groups)
    if plan.excluded:
        expr = f"({expr}) && !!({' || '.join(alt(a) for a in plan.excluded)})"
    return expr, params


# -- hits -------------------------------------------------------------------------------


@dataclass
class PageHit:
    page: DocumentPage
    rank: float
    snippet: str
    language: str = ""
    through: list[str] = field(default_factory=list)  # glossary terms the page was found through

    @property
    def document(self) -> Document:
        return self.page.document

    @property
    def url(self) -> str:
        return self.document.page_url(self.page.number)


@dataclass
class Result:
    hits: list[PageHit] = field(default_factory=list)
    query: Query = field(default_factory=Query)
    terms: dict[str, list[str]] = field(default_factory=dict)  # other languages' glossary terms searched
    more: bool = False  # more hits after these


def _ranked(plans_: list[Plan], doc_sql: str, doc_params: list, limit: int, offset: int = 0) -> list[tuple[int, float]]:
    """The best pages' ids and scores. Pages holding the words as typed come before
    those found through a glossary only; then the database's own ranking."""
    plans_ = [plan for plan in plans_ if plan.groups]
    if not plans_:
        return []
    if connection.vendor == "postgresql":
        sql, params = _pg_ranked(plans_, doc_sql, doc_params)
    else:
        sql, params = _sqlite_ranked(plans_, doc_sql, doc_params)
    with connection.cursor() as cursor:
        cursor.execute(sql + " ORDER BY 2 DESC, 3 DESC, 1 LIMIT %s OFFSET %s", [*params, limit, offset])
        return [(row[0], float(row[2])) for row in cursor.fetchall()]


def _pg_ranked(plans_: list[Plan], doc_sql: str, doc_params: list) -> tuple[str, list]:
    # One pass over the pages: each is matched and ranked with its own language's
    # query; the union of the three queries lets the GIN index find the candidates.
    columns, params = [], []
    for plan in plans_:
        expr, qparams = _pg_tsquery(plan)
        direct_expr, direct_params = _pg_tsquery(_direct(plan))
        columns.append(f"{expr} AS q_{plan.language}, {direct_expr} AS d_{plan.language}")
        params += [*qparams, *direct_params]
    def per_language(column: str) -> str:
        cases = " ".join(f"WHEN '{plan.language}' THEN t.{column}_{plan.language}" for plan in plans_)
        return f"(CASE p.language {cases} END)"
    union = " || ".join(f"t.q_{plan.language}" for plan in plans_)
    score = f"ts_rank_cd(p.search_vector, {per_language('q')}, {PG_NORMALISATION})"
    score_params: list = []
    with_sql, with_params, from_n = "", [], ""
    if PG_BM25:
        alts = [(plan.language, alt) for plan in plans_ for group in plan.groups for alt in group]
        # Computed once (a materialised CTE): how many pages hold each phrase, how many
        # pages there are, and their mean length.
        filters = ", ".join(f"count(*) FILTER (WHERE search_vector @@ {_pg_alt(lang, alt)}) AS c{k}"
                            for k, (lang, alt) in enumerate(alts))
        with_sql = f"""WITH n AS MATERIALIZED (
            SELECT {filters}, (SELECT count(*) FROM catalog_documentpage) AS total,
                   (SELECT coalesce(avg(stem_count), 1) FROM catalog_documentpage) AS avg_len
            FROM catalog_documentpage WHERE search_vector @@ ({" || ".join(_pg_alt(lang, alt) for lang, alt in alts)})) """
        words = [" ".join(alt) for _, alt in alts]
        with_params = [*words, *words]
        from_n = ", n"
        cases, k = [], 0
        for plan in plans_:
            terms = []
            for group in plan.groups:
                for alt in group:
                    rarity = f"greatest((n.total - n.c{k} + 0.5) / (n.c{k} + 0.5), 1e-9)"
                    idf = f"greatest(ln({rarity}), 1e-6)"
                    tf = f"(ts_rank_cd(p.search_vector, {_pg_alt(plan.language, alt)}, 0) * 10)"
                    length = "greatest(p.stem_count, 1)::float / greatest(n.avg_len, 1)"
                    terms.append(f"({idf} * {tf} * 2.2 / ({tf} + 1.2 * (0.25 + 0.75 * {length})))")
                    score_params += [" ".join(alt)] * 2
                    k += 1
            cases.append(f"WHEN '{plan.language}' THEN " + " + ".join(terms))
        score = f"(CASE p.language {' '.join(cases)} END)"
    sql = f"""{with_sql}SELECT p.id, CASE WHEN p.search_vector @@ {per_language("d")} THEN 1 ELSE 0 END AS direct,
                     {score} AS score
              FROM catalog_documentpage p, (SELECT {", ".join(columns)}) t{from_n}
              WHERE p.search_vector @@ ({union}) AND p.search_vector @@ {per_language("q")}
                AND p.language IN ({", ".join("%s" for _ in plans_)}) AND p.document_id IN ({doc_sql})"""
    return sql, [*with_params, *score_params, *params, *(plan.language for plan in plans_), *doc_params]


def _pg_alt(language: str, alt: tuple[str, ...]) -> str:
    fn = "phraseto_tsquery" if len(alt) > 1 else "plainto_tsquery"
    return f"{fn}('{PG_CONFIGS[language]}', %s)"


def _sqlite_ranked(plans_: list[Plan], doc_sql: str, doc_params: list) -> tuple[str, list]:
    parts, params = [], []
    for plan in plans_:
        wanted, unwanted = _fts_match(plan)
        exclude = "AND p.id NOT IN (SELECT rowid FROM catalog_page_fts WHERE catalog_page_fts MATCH %s)" if unwanted else ""
        glossed = any(len(group) > 1 for group in plan.groups)
        direct = "p.id IN (SELECT rowid FROM catalog_page_fts WHERE catalog_page_fts MATCH %s)" if glossed else "1"
        parts.append(
            f"""SELECT p.id, {direct} AS direct, -bm25(catalog_page_fts) AS score FROM catalog_page_fts
                JOIN catalog_documentpage p ON p.id = catalog_page_fts.rowid
                WHERE catalog_page_fts MATCH %s AND p.language = %s AND p.document_id IN ({doc_sql}) {exclude}"""
        )
        params += [*([_fts_match(_direct(plan))[0]] if glossed else []), wanted, plan.language, *doc_params,
                   *([unwanted] if unwanted else [])]
    return " UNION ALL ".join(parts), params


def search(query: str, user=None, game: Game | None = None, limit: int = RULES_LIMIT, offset: int = 0) -> Result:
    """Rulebook pages matching ``query`` in any language, best first, among the
    documents ``user`` may read (of ``game`` only, when given)."""
    q = parse(query)
    result = Result(query=q)
    if not q:
        return result
    all_plans = plans(q)
    for plan in all_plans:
        terms = sorted({" ".join(a) for a in plan.through})
        if terms:
            result.terms[plan.language] = terms
    documents = Document.objects.visible_to(user)
    if game is not None:
        documents = documents.filter(game=game)
    doc_sql, doc_params = documents.values("id").query.sql_with_params()
    ranked = _ranked(all_plans, doc_sql, list(doc_params), limit + 1, offset)
    result.more = len(ranked) > limit
    ranked = ranked[:limit]
    if not ranked:
        return result
    pages = (
        DocumentPage.objects.select_related("document__game")
        .only("id", "number", "language", "search_text", "stems", "document__id", "document__title",
              "document__language", "document__kind", "document__game__id", "document__game__title",
              "document__game__title_fr", "document__game__title_de", "document__game__title_en",
              "document__game__slug")
        .in_bulk([page_id for page_id, _ in ranked])
    )
    by_language = {p.language: p for p in all_plans}
    for page_id, score in ranked:
        page = pages[page_id]
        plan = by_language[page.language]
        snippet, through = _snippet(page, plan)
        result.hits.append(PageHit(page, score, snippet, page.language, through))
    return result


def search_rules(query: str, user=None, game: Game | None = None, limit: int = RULES_LIMIT) -> list[PageHit]:
    return search(query, user, game, limit).hits


# -- snippets -----------------------------------------------------------------------------


def _snippet(page: DocumentPage, plan: Plan) -> tuple[str, list[str]]:
    language = plan.language
    stems = f" {page.stems} "
    wanted: set[str] = set()
    first = len(stems)
    through = []
    for group in plan.groups:
        for alt in group:
            alt_stems = _stems(alt, language)
            needle = " " + " ".join(alt_stems) + " "
            at = stems.find(needle)
            if at < 0:
                continue
            if alt in plan.through:
                through.append(" ".join(alt))
            first = min(first, at)
            wanted.update(s for w, s in zip(alt, alt_stems) if not textlib.is_stop_word(w, language))
    text = page.search_text
    if first == len(stems):
        return html.escape(_flatten(text[:SNIPPET_WIDTH])), through
    # The hit's position among the page's words, then its place in the text.
    k = stems.count(" ", 0, first + 1) - 1
    word = next(islice(textlib._WORD.finditer(text), k, None), None)
    at = word.start() if word else 0
    start = max(0, at - SNIPPET_WIDTH // 3)
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    end = min(len(text), start + SNIPPET_WIDTH)
    while end < len(text) and not text[end].isspace():
        end += 1
    # The passage's words beside their stored stems: no word is stemmed again.
    before = len(textlib._WORD.findall(text, start, at))
    passage = textlib._WORD.findall(text, start, end)
    tokens = page.stems.split(" ")[k - before : k - before + len(passage)] if word else []
    marked = {w for w, s in zip(passage, tokens) if s in wanted and not textlib.is_stop_word(w, language)}
    body = md.inline(_flatten(text[start:end]), marked.__contains__ if marked else None)
    return ("…" if start > 0 else "") + body + ("…" if end < len(text) else ""), sorted(set(through))


_LINE_MARKS = re.compile(r"^[ \t]*(?:#{1,6}[ \t]+|[-*•][ \t]+)")


def _flatten(text: str) -> str:
    """A passage as one line: headings' and list items' marks off, spaces collapsed."""
    return " ".join(" ".join(_LINE_MARKS.sub("", line) for line in text.split("\n")).split())
