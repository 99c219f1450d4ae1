"""Title search as it was before issue #15 (catalog/collection/search.py at commit 539860b),
kept only so that bench/catalog.py can measure it beside today's in the same run:
one name per language, every query word required, ranked by closeness then owners.
"""

from __future__ import annotations

import bisect
import heapq
import math
import sys
from array import array
from collections import Counter
from collections.abc import Iterable

from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import BooleanField, QuerySet
from django.db.models.expressions import RawSQL

from catalog import text as textlib
from catalog.collection.models import Game

TITLE_LIMIT = 200
CANDIDATES = 300
# -- titles -----------------------------------------------------------------------------
#
# One SQL statement per search. The vocabulary of the words that occur in names
# (catalog_nameword, some 16,000 words) is held in memory with an index of its
# trigrams (:class:`Vocabulary`); each query word is matched there: the word itself,
# the words whose trigrams are similar enough (typos, measured as pg_trgm's
# similarity), and for the last word the shortest words it begins (typing in
# progress). Then one statement reads the vocabulary's version stamp and, from a
# word index of the names (PostgreSQL: GIN on to_tsvector('simple', name_key);
# SQLite: FTS5), the games whose names hold a match of every query word, exact
# full-name matches first, then the most owned. A stamp that is not the one of the
# vocabulary in memory (a game added or renamed, here or in another process) reloads
# the vocabulary and runs the statement again. The few hundred candidates are ranked
# here: how close the whole query is to one of the game's names, how well each query
# word matched, how many people own it.

WORD_THRESHOLD = 0.45  # pg_trgm similarity a vocabulary word needs to stand for a query word
WORD_MATCHES = 8  # vocabulary words kept per query word
PREFIX_MATCHES = 12  # more for the last query word: the shortest words it begins
PREFIX = 0.9  # the score of a word the last query word begins
MAX_WORDS = 8


def _grams(word: str) -> frozenset[str]:
    """pg_trgm's trigrams of one word: padded with two spaces before and one after."""
    padded = f"  {word} "
    return frozenset(padded[i : i + 3] for i in range(len(padded) - 2))


class Vocabulary:
    """The distinct words of the games' names, in order (for word beginnings) and
    with an inverted index of their trigrams (for typos), at one version stamp.

    Some 16,000 words take about 4 MB and 0.1 s to read and index: each word's
    trigrams are a tuple of shared (interned) strings, not a set of its own."""

    def __init__(self, version: int | None, words: Iterable[str]) -> None:
        self.version = version
        self.words = sorted(set(words))
        intern = sys.intern
        self.grams = [tuple(map(intern, _grams(w))) for w in self.words]
        self.grams_of = dict(zip(self.words, self.grams))
        # For each trigram, the words holding it, those with fewer trigrams first,
        # and their trigram counts beside them (see similar()).
        postings: dict[str, tuple[list[int], list[int]]] = {}
        for i in sorted(range(len(self.grams)), key=lambda i: len(self.grams[i])):
            size = len(self.grams[i])
            for gram in self.grams[i]:
                entry = postings.get(gram)
                if entry is None:
                    postings[gram] = ([size], [i])
                else:
                    entry[0].append(size)
                    entry[1].append(i)
        self.postings = {gram: (array("i", sizes), array("i", ids)) for gram, (sizes, ids) in postings.items()}

    def similar(self, word: str) -> dict[str, float]:
        """The words whose trigram similarity to ``word`` reaches WORD_THRESHOLD."""
        t = WORD_THRESHOLD
        query = _grams(word)
        n = len(query)
        # similarity = shared / (n + m - shared), for a word of m trigrams, is at
        # most shared / n and at most min(n, m) / max(n, m). So a word similar enough
        # shares at least `need` of the query's n trigrams, hence one of any
        # n - need + 1 of them: only the postings of the rarest are read; and it has
        # between t·n and n/t trigrams: only that stretch of each posting is read.
        need = max(1, math.ceil(t * n - 1e-9))
        shortest, longest = need, math.floor(n / t + 1e-9)
        postings = self.postings
        rarest = sorted(query, key=lambda g: len(postings[g][1]) if g in postings else 0)[: n - need + 1]
        counts: Counter[int] = Counter()
        for gram in rarest:
            entry = postings.get(gram)
            if entry is not None:
                sizes, ids = entry
                counts.update(ids[bisect.bisect_left(sizes, shortest) : bisect.bisect_right(sizes, longest)])
        found = {}
        for i, count in counts.items():
            grams = self.grams[i]
            m = len(grams)
            # Of the trigrams not read, need - 1 at most can be shared.
            if (count + need - 1) * (1 + t) < t * (n + m) - 1e-9:
                continue
            shared = len(query.intersection(grams))
            score = shared / (n + m - shared)
            if score >= t:
                found[self.words[i]] = score
        return found

    def beginning(self, prefix: str, count: int) -> list[str]:
        """The ``count`` shortest words that begin with ``prefix`` (itself included)."""
        words = self.words
        i = bisect.bisect_left(words, prefix)
        found = []
        while i < len(words) and words[i].startswith(prefix):
            found.append(words[i])
            i += 1
        return heapq.nsmallest(count, found, key=lambda w: (len(w), w))

    def expand(self, words: list[str]) -> list[dict[str, float]]:
        """For each query word: the vocabulary words it may stand for, with a score
        (1 for the word itself, PREFIX for a word the last query word begins)."""
        last = len(words) - 1
        expansions = []
        for i, word in enumerate(words):
            found = self.similar(word) if len(word) >= 3 else {}
            if word in self.grams_of:
                found[word] = 1.0
            keep = WORD_MATCHES
            if i == last:
                keep += PREFIX_MATCHES
                for w in self.beginning(word, PREFIX_MATCHES):
                    found.setdefault(w, 0.0)
                for w, score in found.items():
                    if w != word and w.startswith(word):
                        found[w] = max(score, PREFIX)
            best = sorted(found.items(), key=lambda kv: (-kv[1], kv[0]))[:keep]
            expansions.append(dict(best))
        return expansions


_vocabularies: dict[tuple[str, str], Vocabulary] = {}


def _vocabulary(reload: bool = False) -> Vocabulary:
    """This process's copy of the vocabulary of the current database, loaded (words
    and stamp in one statement, so that they agree) when missing or ``reload``."""
    key = (connection.alias, str(connection.settings_dict.get("NAME")))
    vocabulary = _vocabularies.get(key)
    if vocabulary is None or reload:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT s.vocabulary, w.word FROM catalog_search_state s "
                "LEFT JOIN catalog_nameword w ON 1 = 1 WHERE s.id = 1"
            )
            rows = cursor.fetchall()
        vocabulary = Vocabulary(rows[0][0] if rows else None, [word for _, word in rows if word is not None])
        _vocabularies[key] = vocabulary
    return vocabulary


def search_games(query: str, games: QuerySet[Game] | None = None, limit: int = TITLE_LIMIT) -> list[int]:
    """Ids of the games matching ``query`` in any of their names, best first.

    ``games`` narrows the search (filters already applied). Accents and case never
    matter; a typo or two in a word still finds it.
    """
    folded = textlib.fold_query(query)
    words = folded.split()[:MAX_WORDS]
    if not words:
        return []
    if games is not None and _keeps_all(games):
        games = None  # the faster statement, without the ORM
    vocabulary = _vocabulary()
    for attempt in range(3):
        expansions = vocabulary.expand(words)
        try:
            stamp, rows = _candidates(folded, expansions, games)
        except EmptyResultSet:  # games.none()
            return []
        if stamp == vocabulary.version or attempt == 2:
            break
        # The names changed since the vocabulary was read: read it again, search again.
        vocabulary = _vocabulary(reload=True)
    return _rank(folded, expansions, rows, vocabulary)[:limit]


def _rank(folded: str, expansions: list[dict[str, float]], rows, vocabulary: Vocabulary) -> list[int]:
    """The candidates' ids, best first. How close the whole query is to one of a
    game's names counts most ("wingspn" is nearer "Wingspan" than "Buffalo Wings"),
    then how well each query word matched, then how many people own the game.

    Closeness is pg_trgm's similarity between the query and the name; the loop is
    written for speed, since a common word brings a few hundred candidates."""
    query_grams = frozenset().union(*(_grams(w) for w in folded.split()))
    size = len(query_grams)
    grams_of = vocabulary.grams_of
    scores: dict[str, list[tuple[int, float]]] = {}
    for i, expansion in enumerate(expansions):
        for word, score in expansion.items():
            scores.setdefault(word, []).append((i, score))
    count = len(expansions)
    scored = []
    for game_id, key, owned in rows:
        closeness = 0.0
        best = [0.0] * count
        for name in key.split(" | "):
            grams: set[str] = set()
            for word in name.split():
                grams.update(grams_of.get(word) or _grams(word))
                for i, score in scores.get(word, ()):
                    if score > best[i]:
                        best[i] = score
            shared = len(query_grams & grams)
            if shared and shared / (size + len(grams) - shared) > closeness:
                closeness = shared / (size + len(grams) - shared)
        scored.append((-round(closeness + 0.5 * sum(best) / count, 4), -owned, game_id))
    scored.sort()
    return [row[2] for row in scored]


def _keeps_all(games: QuerySet[Game]) -> bool:
    query = games.query
    return games.model is Game and not query.where and not query.is_sliced and not query.combinator


def _candidates(
    folded: str, expansions: list[dict[str, float]], games: QuerySet[Game] | None
) -> tuple[int | None, list[tuple[int, str, int]]]:
    """The vocabulary's stamp, and the (at most CANDIDATES) games among ``games``
    whose names hold a match of every query word, exact full-name matches first,
    then the most owned: (id, name_key, owned_count), in no particular order."""
    stamp_sql = "SELECT 0, vocabulary, NULL, NULL FROM catalog_search_state WHERE id = 1"
    if not all(expansions):
        sql, params = stamp_sql, []
    else:
        if connection.vendor == "postgresql":
            match = "to_tsvector('simple', catalog_game.name_key) @@ to_tsquery('simple', %s)"
            words = " & ".join("(" + " | ".join(f"'{w}'" for w in e) + ")" for e in expansions)
            inexact = "strpos(' | ' || catalog_game.name_key || ' | ', %s) = 0"
        else:
            match = "catalog_game.id IN (SELECT rowid FROM catalog_game_words WHERE catalog_game_words MATCH %s)"
            words = " AND ".join("(" + " OR ".join(f'"{w}"' for w in e) + ")" for e in expansions)
            inexact = "instr(' | ' || catalog_game.name_key || ' | ', %s) = 0"
        name = f" | {folded} | "
        if games is None:
            found_sql = (
                "SELECT catalog_game.id, catalog_game.name_key, catalog_game.owned_count FROM catalog_game "
                f"WHERE {match} ORDER BY {inexact}, catalog_game.owned_count DESC, catalog_game.id LIMIT %s"
            )
            found_params = [words, name, CANDIDATES]
        else:
            # The filters go into the same WHERE through the ORM: as a subquery of
            # the ids they keep, SQLite scanned them all (10 ms even for one result).
            found = (
                games.filter(RawSQL(match, [words], output_field=BooleanField()))
                .annotate(search_inexact=RawSQL(inexact, [name], output_field=BooleanField()))
                .order_by("search_inexact", "-owned_count", "id")
                .values_list("id", "name_key", "owned_count")[:CANDIDATES]
            )
            found_sql, found_params = found.query.sql_with_params()
        sql = f"{stamp_sql} UNION ALL SELECT 1, c.id, c.name_key, c.owned_count FROM ({found_sql}) AS c"
        params = list(found_params)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        result = cursor.fetchall()
    stamp = next((row[1] for row in result if row[0] == 0), None)
    return stamp, [row[1:] for row in result if row[0] == 1]

