"""Round robin: everyone meets everyone once, by the FIDE Berger tables.

FIDE Handbook C.05, Annex 1 (Berger tables). With ``n`` players (a dummy
added to an odd count: whoever meets it has the round off), numbered 1..n by
pairing number, round ``k`` (1-based) pairs the players ``i`` and ``j`` below
``n`` whose numbers add up to ``k + 1`` modulo ``n - 1`` (counting 0 as
``n - 1``), the first to move being the one for whom ``(j - i) mod (n - 1)``
is odd; player ``n`` meets the one left over, moving second in odd rounds and
first in even ones. This reproduces the published tables, e.g. for 6 players:

    round 1: 1-6 2-5 3-4      round 2: 6-4 5-3 1-2      round 3: 2-6 3-1 4-5
    round 4: 6-5 1-4 2-3      round 5: 3-6 4-2 5-1

``double=True`` plays every pairing twice, seats swapped in the second cycle.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.types import PairingError, Plan, Player, check_players

MIN_PLAYERS, MAX_PLAYERS = 2, 8


def berger_table(n: int) -> list[list[tuple[int, int]]]:
    """The Berger table for ``n`` pairing numbers (``n`` even): for each round,
    its games as (first, second) in the published order of the boards."""
    if n < 2 or n % 2:
        raise PairingError("a Berger table needs an even number of players")
    m = n - 1
    rounds = []
    for k in range(1, n):
        target = (k + 1) % m
        # Player n's opponent: the one number i with 2i = k + 1 (mod n - 1).
        lone = next(i for i in range(1, n) if (2 * i) % m == target)
        games = [(n, lone) if k % 2 == 0 else (lone, n)]
        for t in range(1, n // 2):
            # The published tables list the other games going round from player n's opponent.
            i = (lone - 1 + t) % m + 1
            j = (target - i) % m or m
            games.append((i, j) if (j - i) % m % 2 == 1 else (j, i))
        rounds.append(games)
    return rounds


def rounds_needed(count: int, double: bool = False) -> int:
    check_size(count)
    n = count + count % 2
    return (n - 1) * (2 if double else 1)


def check_size(count: int) -> None:
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise PairingError(f"a round robin takes {MIN_PLAYERS} to {MAX_PLAYERS} players")


def pair_round(players: Sequence[Player], round_number: int, double: bool = False) -> Plan:
    """The games of round ``round_number`` (1-based): the players by pairing
    number take the Berger table's numbers; the one drawn against the dummy
    sits the round out (a bye of no points: everybody sits out once)."""
    check_players(players)
    check_size(len(players))
    total = rounds_needed(len(players), double)
    if not 1 <= round_number <= total:
        raise PairingError(f"a round robin of {len(players)} players has {total} rounds")
    ordered = sorted(players, key=lambda p: p.rank)
    n = len(ordered) + len(ordered) % 2
    table = berger_table(n)
    cycle, index = divmod(round_number - 1, n - 1)
    games, byes = [], []
    for first, second in table[index]:
        if cycle:
            first, second = second, first
        if first > len(ordered) or second > len(ordered):
            byes.append(ordered[min(first, second) - 1].id)
            continue
        games.append((ordered[first - 1].id, ordered[second - 1].id))
    return Plan(tuple(games), tuple(byes))
