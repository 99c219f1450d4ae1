"""A shelf of real boxes for the picker's tests: rows of (title, bgg_id, players,
minutes, age, weight, ratings, rating), facts from the shared data set, each game
with one copy on the shelf."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from catalog.shelves import services


def shelve(make_game, rows, location: str) -> dict:
    """The games of ``rows``, each with a copy at ``location``, by title."""
    games = {}
    for title, bgg_id, (low, high), (t_min, t_max), age, weight, ratings, rating in rows:
        game = make_game(title, bgg_id=bgg_id, min_players=low, max_players=high, min_time=t_min, max_time=t_max,
                         min_age=age, weight=weight, rating_count=ratings, rating=rating, owned_count=ratings * 2)
        services.add_copy(game, location)
        games[title] = game
    return games


def titles(picks) -> list[str]:
    return [p.game.title for p in picks]


@contextmanager
def reviewed_list(module, path: Path, text: str):
    """Within the block, ``module``'s reviewed list (its ``REVIEWED`` file, read once by
    its cached ``reviewed()``) is ``text``, written at ``path``; the shipped one after."""
    path.write_text(text, encoding="utf-8")
    shipped, module.REVIEWED = module.REVIEWED, path
    module.reviewed.cache_clear()
    try:
        yield
    finally:
        module.REVIEWED = shipped
        module.reviewed.cache_clear()
