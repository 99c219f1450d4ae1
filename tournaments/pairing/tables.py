"""Multi-table Swiss for games of three or more at a table (Drekki): each
round, the players are ranked by score (then pairing number) and cut into
tables of ``min_size``..``max_size``, as close to ``size`` as the count
allows; each table is filled from the top of the ranking, taking among the
next candidates the one who has met the fewest of the table already (so
score groups stay together while repeat meetings are avoided where they can
be). Who has moved first least often takes the first seat.

When the count cannot be cut into such tables, the lowest-ranked players who
have had no bye yet sit the round out with a bye (``bye_points``).
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.history import records
from tournaments.pairing.types import PairingError, Plan, Player, Round, check_players


def table_sizes(count: int, min_size: int, max_size: int, size: int) -> list[int] | None:
    """Table sizes for ``count`` players, largest first; None if impossible."""
    if not 2 <= min_size <= size <= max_size:
        raise PairingError("bad table sizes")
    options = [k for k in range(1, count + 1) if min_size * k <= count <= max_size * k]
    if not options:
        return None
    k = min(options, key=lambda k: (abs(count / k - size), k))
    base, extra = divmod(count, k)
    return [base + 1] * extra + [base] * (k - extra)


def pair_tables(players: Sequence[Player], rounds: Sequence[Round] = (), *, min_size: int = 3,
                max_size: int = 6, size: int = 4, bye_points: float = 1.0) -> Plan:
    check_players(players)
    ids = [p.id for p in players]
    recs = records(ids, rounds)
    rank = {p.id: p.rank for p in players}
    ranked = sorted(ids, key=lambda p: (-recs[p].score, rank[p]))
    byes = []
    pool = list(ranked)
    while table_sizes(len(pool), min_size, max_size, size) is None:
        if len(pool) < min_size:
            raise PairingError(f"a round needs {min_size} players or more")
        lowest_first = list(reversed(pool))
        out = next((p for p in lowest_first if recs[p].byes == 0), lowest_first[0])
        pool.remove(out)
        byes.append(out)
    met = {p: set(recs[p].opponents) for p in ids}
    tables = []
    for n in table_sizes(len(pool), min_size, max_size, size) or []:
        table = [pool.pop(0)]
        while len(table) < n:
            window = pool[: max(2 * n, n - len(table))]
            best = min(window, key=lambda q: (sum(1 for t in table if t in met[q]), pool.index(q)))
            pool.remove(best)
            table.append(best)
        firsts = {p: recs[p].seats.count(0) for p in table}
        table.sort(key=lambda p: (firsts[p], -sum(recs[p].seats), rank[p]))
        tables.append(tuple(table))
    return Plan(tuple(tables), tuple(byes))
