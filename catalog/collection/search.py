"""Title search across every name of a game, the same API on SQLite and
PostgreSQL (chosen by ``connection.vendor``).

Tolerant of accents (names and queries are folded) and typos: each query word is
matched, by pg_trgm's trigram similarity, against an in-memory copy of the
vocabulary of name words; the games holding a match of every word come from a word
index of the folded names (PostgreSQL: GIN on ``to_tsvector('simple', name_key)``;
SQLite: FTS5), in one statement, and are ranked in Python with the same trigram
measure. The indexes are made by catalog.search_schema; the search in the rulebooks
is catalog.rulebooks.rules_search.
"""

from __future__ import annotations

import bisect
import heapq
import math
import sys
from array import array
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import BooleanField, QuerySet
from django.db.models.expressions import RawSQL

from catalog import text as textlib
from catalog.collection import numbers
from catalog.collection import query as queries
from catalog.collection.models import Game

TITLE_LIMIT = 200
CANDIDATES = 300


# -- titles -----------------------------------------------------------------------------
#
# One SQL statement per search. The vocabulary of the words that occur in names
# (catalog_nameword, some 20,000 words) is held in memory with an index of its
# trigrams (:class:`Vocabulary`). The query is folded and its articles and short
# function words set aside (catalog.collection.query: they never block a match); each remaining
# word is matched in the vocabulary: the word itself, the words whose trigrams are
# similar enough (typos, measured as pg_trgm's similarity), the same number written
# otherwise ("7", "seven", "sept"), the word split in two known words ("smallworld")
# or joined with its neighbour ("code names"), and for the last word the shortest
# words it begins (typing in progress). Then one statement reads the vocabulary's
# version stamp and, from a word index of the folded names (PostgreSQL: GIN on
# to_tsvector('simple', name_key); SQLite: FTS5), the games whose names hold a match
# of every query word, exact full-name matches first, then the most owned. A stamp
# that is not the one of the vocabulary in memory (a game added or renamed, here or
# in another process) reloads the vocabulary and runs the statement again. The few
# hundred candidates are ranked here, on each of their names: how close the whole
# query is to the name, how well each query word matched, how many people own and
# rated the game; the name that scored best is the one that "matched".
#
# When nothing matches, the same is done with looser typo matching and any query
# word sufficing: the best of those are offered as "did you mean" (never a game
# whose title correction is pending: Game.title_pending, catalog/collection/mojibake.py).
#
# Ranking, in three steps (figures from the shared data set, ownership in brackets):
# 1. A name that is the query (any language, primary or not, current or former,
#    articles and spaces aside) comes before every other: "pandemie" gives Pandemic
#    (166,497, "Pandémie" its former French title) before "Pandémie : Le Remède";
#    "7 wonders" gives 7 Wonders (119,235) before 7 Wonders Duel (108,774);
#    "carcassonne big box" gives Carcassonne Big Box (2,802) before Carcassonne
#    Big Box 6 (7,530). Two games of that very name go
#    by popularity ("catan junior": Catan: Junior, 6,666, before Catan Junior, 1,629).
# 2. A name that holds every query word, or begins with the query, is a near-tie
#    with the others of its kind, settled by popularity: the query names the
#    game or one built on it. "catane" gives Catan (165,651, "Les Colons de
#    Catane") before Catane : Le Duel (13,832), where a bonus for beginning with
#    the query used to put the duel first; "pandemic" gives Pandemic, then Pandemic
#    Legacy : Saison 1 (69,952), then Saison 2. When the query holds short words
#    (articles, "de", "des") and one such name holds them all, it comes first:
#    "catane le jeu de des" gives the dice game (12,753, "Le Jeu de dés") before
#    the card game (22,694, "Le Jeu de cartes"): folded, "dés" is "des".
# 3. Anything else (typos, some words only) by trigram closeness and how well each
#    word matched, popularity added.

WORD_THRESHOLD = 0.45  # pg_trgm similarity a vocabulary word needs to stand for a query word
SUGGEST_THRESHOLD = 0.3  # looser, for "did you mean"
# A word one keystroke away (a letter missing, added, changed, or two swapped: "tokio",
# "rial") shares few trigrams when it is short: every such spelling is looked up in
# the vocabulary (a few hundred set lookups), and counts as this good a match.
EDIT_SCORE = 0.75
WORD_MATCHES = 8  # vocabulary words kept per query word
PREFIX_MATCHES = 12  # more for the last query word: the shortest words it begins
PREFIX = 0.9  # the score of a word the last query word begins
MAX_WORDS = 8
SUGGESTIONS = 3
# Popularity in the ranking: log10 of owners (and of ratings), over about the most a
# game has (some 200,000), weighed against closeness (0 to 1) and word matches (0 to 0.5).
OWNERS_WEIGHT, RATINGS_WEIGHT, POPULAR_SCALE = 0.3, 0.05, 5.3
# Closeness of a name to the query (see _rank): the name itself scores EXACT, which
# no other name reaches whatever its popularity (at most about 0.35); a name that
# holds every query word, or begins with the query, scores CONTAINED plus at most
# CONTAINED_SPREAD for the share of the name the query covers. The spread stays
# below what popularity adds for twice as many owners (0.3 * log10(2) / 5.3 = 0.017,
# and a base game has some 3 to 20 times the owners of a spin-off): among such
# names, popularity decides.
EXACT = 2.0
CONTAINED, CONTAINED_SPREAD = 0.7, 0.015
# The short words a query holds never block a match, but folding makes some of them
# words of their own: "dés" (dice) is "des". Among the names holding every query
# word, one that also holds all the query's short words is the one typed: "catane le jeu
# de des" is the dice game (12,753 owners), not the card game (22,694) whose name
# lacks "des". Worth popularity three times over (0.3 * log10(3.4) / 5.3).
STOP_BONUS = 0.03

# A query that begins with "jeu de" is also searched without it (query.after_generic_lead),
# its scores lowered by this much: a name that is the query as typed ("Jeu du
# solitaire") stays before one that is the rest of it ("Solitaire"), whatever their
# popularity (at most about 0.35); a name that is the rest still beats one that only
# holds the words typed (CONTAINED, 0.7 and a little).
LEAD_PENALTY = 0.5

Term = str | tuple[str, ...]  # a vocabulary word, or words that must all be in the name
# A ranked game: its id, the (folded) name that scored best, and its sort key (minus
# its score, minus its owners, its id), comparable across searches.
Ranked = tuple[int, str, tuple[float, int, int]]


def _grams(word: str) -> frozenset[str]:
    """pg_trgm's trigrams of one word: padded with two spaces before and one after."""
    padded = f"  {word} "
    return frozenset(padded[i : i + 3] for i in range(len(padded) - 2))


class Vocabulary:
    """The distinct words of the games' names, in order (for word beginnings) and
    with an inverted index of their trigrams (for typos), at one version stamp.

    Some 20,000 words take about 5 MB and 0.1 s to read and index: each word's
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

    def similar(self, word: str, threshold: float = WORD_THRESHOLD) -> dict[str, float]:
        """The words whose trigram similarity to ``word`` reaches ``threshold``."""
        t = threshold
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

    def splits(self, word: str) -> list[tuple[str, str]]:
        """``word`` cut into two known words ("smallworld" -> ("small", "world"))."""
        known = self.grams_of
        return [(word[:k], word[k:]) for k in range(2, len(word) - 1) if word[:k] in known and word[k:] in known][:3]

    def expand(self, words: list[str], threshold: float = WORD_THRESHOLD) -> list[dict[Term, float]]:
        """For each query word: the vocabulary words (or pairs of words) it may stand
        for, with a score (1 for the word itself or another way of writing it,
        PREFIX for a word the last query word begins)."""
        last = len(words) - 1
        known = self.grams_of
        expansions: list[dict[Term, float]] = []
        for i, word in enumerate(words):
            found: dict[Term, float] = dict(self.similar(word, threshold)) if len(word) >= 3 else {}
            if len(word) >= 4 and word not in known:  # a word spelt right needs no other spelling
                for other in queries.one_edit_away(word):
                    if other in known and found.get(other, 0.0) < EDIT_SCORE:
                        found[other] = EDIT_SCORE
            if word in known:
                found[word] = 1.0
            for form in queries.word_forms(word):
                if form in known:
                    found[form] = 1.0
            keep = WORD_MATCHES
            if i == last:
                keep += PREFIX_MATCHES
                for w in self.beginning(word, PREFIX_MATCHES):
                    found.setdefault(w, 0.0)
                for w, score in list(found.items()):
                    if isinstance(w, str) and w != word and w.startswith(word):
                        found[w] = max(score, PREFIX)
            best = dict(sorted(found.items(), key=lambda kv: (-kv[1], str(kv[0])))[:keep])
            if i == last and last > 0 and len(word) >= 2:
                best[word + "*"] = PREFIX  # any word it begins, in the index itself ("aventuriers du ra")
            if len(word) >= 4 and word not in known:
                for pair in self.splits(word):
                    best[pair] = 1.0
            if word.isdigit() and 2 <= len(word) <= 4 and word not in known and all(d in known for d in word):
                best[tuple(word)] = 1.0  # "dobble 123": the box says "1, 2, 3"
            expansions.append(best)
        # "code names": two neighbours that together are one known word.
        for i in range(last):
            joined = words[i] + words[i + 1]
            if joined in known:
                expansions[i][joined] = expansions[i + 1][joined] = 1.0
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


@dataclass
class TitleResults:
    """Games found for a query, best first; the folded name each matched by; and,
    when none was found, the games the query may have meant."""

    ids: list[int] = field(default_factory=list)
    matched: dict[int, str] = field(default_factory=dict)
    suggestions: list[int] = field(default_factory=list)


def search_games(query: str, games: QuerySet[Game] | None = None, limit: int = TITLE_LIMIT) -> list[int]:
    """Ids of the games matching ``query`` in any of their names, best first."""
    return search_titles(query, games, limit, suggest=False).ids


def search_titles(
    query: str, games: QuerySet[Game] | None = None, limit: int = TITLE_LIMIT, suggest: bool = True
) -> TitleResults:
    """The games matching ``query`` in any of their names, best first, with the name
    that matched. ``games`` narrows the search (filters already applied). Accents,
    case, articles, joined or split words and spelt-out numbers never matter; a typo
    or two in a word still finds it. With nothing found and ``suggest``, the games
    the query most likely meant (among all games) are in ``suggestions``."""
    folded = " ".join(numbers.as_digits(textlib.fold_query(query).split()))  # "quarante quatre": "44"
    words = queries.significant(folded.split())[:MAX_WORDS]
    if not words:
        return TitleResults()
    if games is not None and _keeps_all(games):
        games = None  # the faster statement, without the ORM
    ranked = _search(folded, words, games, WORD_THRESHOLD, every=True)
    if ranked is None:
        return TitleResults()
    rest = queries.after_generic_lead(folded.split())
    rest_words = queries.significant(rest)[:MAX_WORDS]
    if rest:  # "jeu d'échecs": also the games named "Échecs", a little behind the query as typed
        without = _search(" ".join(rest), rest_words, games, WORD_THRESHOLD, every=True)
        ranked = _merged(ranked, [(i, name, (key[0] + LEAD_PENALTY, *key[1:])) for i, name, key in without or []])
    results = TitleResults(ids=[r[0] for r in ranked[:limit]], matched={r[0]: r[1] for r in ranked[:limit]})
    if not results.ids and suggest:
        # What the query may have meant: after "jeu de", what follows it ("jeu d'echek":
        # Échecs, not every game whose name holds "jeu").
        meant, meant_words = (" ".join(rest), rest_words) if rest else (folded, words)
        loose = [r[0] for r in _search(meant, meant_words, None, SUGGEST_THRESHOLD, every=False) or []]
        # A title whose correction is pending (it still looks garbled) is never offered.
        pending = set(Game.objects.filter(pk__in=loose, title_pending=True).values_list("pk", flat=True))
        results.suggestions = [pk for pk in loose if pk not in pending][:SUGGESTIONS]
    return results


def _merged(*runs: list[Ranked]) -> list[Ranked]:
    """Several searches' results as one ranking: each game at its best place."""
    best: dict[int, Ranked] = {}
    for run in runs:
        for row in run:
            if row[0] not in best or row[2] < best[row[0]][2]:
                best[row[0]] = row
    return sorted(best.values(), key=lambda row: row[2])


def _search(folded: str, words: list[str], games, threshold: float, every: bool) -> list[Ranked] | None:
    vocabulary = _vocabulary()
    for attempt in range(3):
        expansions = vocabulary.expand(words, threshold)
        try:
            stamp, rows = _candidates(folded, expansions, games, every)
        except EmptyResultSet:  # games.none()
            return None
        if stamp == vocabulary.version or attempt == 2:
            break
        # The names changed since the vocabulary was read: read it again, search again.
        vocabulary = _vocabulary(reload=True)
    stops = frozenset(folded.split()) & queries.STOP_WORDS - set(words)
    return _rank(words, expansions, rows, vocabulary, stops)


def _rank(
    words: list[str], expansions: list[dict[Term, float]], rows, vocabulary: Vocabulary,
    stops: frozenset[str] = frozenset(),
) -> list[Ranked]:
    """The candidates, best first, each with the name (folded) that scored best.

    A name scores its closeness to the query, plus half the mean of how well each
    query word matched in it; the game scores its best name, plus its popularity.
    Closeness is EXACT when the name is the query, articles, spaces and spelt-out
    numbers aside ("aventuriers du rail", "smallworld", "seven wonders"); about
    CONTAINED when the name holds every query word or begins with the query (a
    near-tie that popularity settles, unless the name also holds the short words
    the query was typed with: ``stops``, see STOP_BONUS); else pg_trgm's
    similarity between the two.
    The loop is written for speed: a common word brings a few hundred
    candidates of a few names each."""
    query_grams = frozenset().union(*(_grams(w) for w in words))
    query_compact = queries.compact(words)
    size = len(query_grams)
    grams_of = vocabulary.grams_of
    singles: dict[str, list[tuple[int, float]]] = {}
    pairs: list[tuple[int, tuple[str, ...], float]] = []
    prefixes: list[tuple[int, str, float]] = []
    for i, expansion in enumerate(expansions):
        for term, score in expansion.items():
            if isinstance(term, tuple):
                pairs.append((i, term, score))
            elif term.endswith("*"):
                prefixes.append((i, term[:-1], score))
            else:
                singles.setdefault(term, []).append((i, score))
    count = len(expansions)
    log10 = math.log10
    scored = []
    for game_id, key, owned, ratings in rows:
        best_name, best_score = "", -1.0
        for name in key.split(" | "):
            name_words = name.split()
            significant = queries.significant(name_words)
            compact = queries.compact(name_words)
            best = [0.0] * count
            for word in name_words:
                for i, score in singles.get(word, ()):
                    if score > best[i]:
                        best[i] = score
            for i, term, score in pairs:
                if score > best[i] and all(w in name_words for w in term):
                    best[i] = score
            for i, start, score in prefixes:
                if score > best[i] and any(w.startswith(start) for w in name_words):
                    best[i] = score
            if compact == query_compact:
                closeness = EXACT
            else:
                grams: set[str] = set()
                for word in significant:
                    grams.update(grams_of.get(word) or _grams(word))
                shared = len(query_grams & grams)
                closeness = shared / (size + len(grams) - shared) if shared else 0.0
                if min(best) >= 1.0 or (compact.startswith(query_compact) and len(query_compact) >= 3):
                    # Every query word is in the name, or the name begins with the
                    # query: the query names this game or one built on it ("catane":
                    # "Les Colons de Catane", "Catane : Le Duel"). A near-tie, by
                    # design: how much of the name the query covers moves it a little,
                    # popularity decides.
                    covered = len(query_compact) / max(1, len(compact))
                    held = STOP_BONUS if stops and all(w in name_words for w in stops) else 0.0
                    closeness = max(closeness, CONTAINED + CONTAINED_SPREAD * covered + held)
            total = closeness + 0.5 * sum(best) / count
            if total > best_score:
                best_name, best_score = name, total
        popularity = (OWNERS_WEIGHT * log10(1 + owned) + RATINGS_WEIGHT * log10(1 + ratings)) / POPULAR_SCALE
        scored.append((game_id, best_name, (-round(best_score + popularity, 6), -owned, game_id)))
    scored.sort(key=lambda row: row[2])
    return scored


def _keeps_all(games: QuerySet[Game]) -> bool:
    query = games.query
    return games.model is Game and not query.where and not query.is_sliced and not query.combinator


def _match_expression(expansions: list[dict[Term, float]], every: bool) -> str:
    """The word-index query: for each query word, any of its terms (a pair: both
    words); every query word (``every``) or any of them."""
    if connection.vendor == "postgresql":
        quote, both, either, joiner = (lambda w: f"'{w[:-1]}':*" if w.endswith("*") else f"'{w}'"), " & ", " | ", " & " if every else " | "
    else:
        quote, both, either, joiner = (lambda w: f'"{w[:-1]}"*' if w.endswith("*") else f'"{w}"'), " AND ", " OR ", " AND " if every else " OR "

    def term(t: Term) -> str:
        return quote(t) if isinstance(t, str) else "(" + both.join(quote(w) for w in t) + ")"

    return joiner.join("(" + either.join(term(t) for t in e) + ")" for e in expansions if e)


def _candidates(
    folded: str, expansions: list[dict[Term, float]], games: QuerySet[Game] | None, every: bool = True
) -> tuple[int | None, list[tuple[int, str, int, int]]]:
    """The vocabulary's stamp, and the (at most CANDIDATES) games among ``games``
    whose names hold a match of every query word (or, not ``every``, of one), exact
    full-name matches first, then the most owned: (id, name_key, owned_count,
    rating_count), in no particular order."""
    stamp_sql = "SELECT 0, vocabulary, NULL, NULL, NULL FROM catalog_search_state WHERE id = 1"
    if not any(expansions) or (every and not all(expansions)):
        sql, params = stamp_sql, []
    else:
        if connection.vendor == "postgresql":
            match = "to_tsvector('simple', catalog_game.name_key) @@ to_tsquery('simple', %s)"
            inexact = "strpos(' | ' || catalog_game.name_key || ' | ', %s) = 0"
        else:
            match = "catalog_game.id IN (SELECT rowid FROM catalog_game_words WHERE catalog_game_words MATCH %s)"
            inexact = "instr(' | ' || catalog_game.name_key || ' | ', %s) = 0"
        name = f" | {folded} | "
        words = _match_expression(expansions, every)
        columns = "catalog_game.id, catalog_game.name_key, catalog_game.owned_count, catalog_game.rating_count"
        if games is None:
            found_sql = (
                f"SELECT {columns} FROM catalog_game "
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
                .values_list("id", "name_key", "owned_count", "rating_count")[:CANDIDATES]
            )
            found_sql, found_params = found.query.sql_with_params()
        sql = f"{stamp_sql} UNION ALL SELECT 1, c.id, c.name_key, c.owned_count, c.rating_count FROM ({found_sql}) AS c"
        params = list(found_params)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        result = cursor.fetchall()
    stamp = next((row[1] for row in result if row[0] == 0), None)
    return stamp, [row[1:] for row in result if row[0] == 1]


def naive_search_games(query: str, limit: int = TITLE_LIMIT) -> list[int]:
    """The baseline the benchmark compares against: icontains over every name field."""
    from django.db.models import Q

    cond = Q()
    for column in ("title", "title_fr", "title_de", "title_en", "other_names"):
        cond |= Q(**{f"{column}__icontains": query})
    return list(Game.objects.filter(cond).order_by("-owned_count").values_list("id", flat=True)[:limit])
