"""Swiss pairing for two-player games, with FIDE's Dutch system as the reference.

FIDE Handbook C.04.3 (Dutch system), in the parts that matter at the house:

- Players are ranked by score, then by pairing number (``Player.rank``).
- Absolute criteria, never broken while the round can be paired without
  breaking them: no two players meet twice (C1); nobody gets a second bye
  while someone eligible has had none (C2); two players who both *must* have
  the same colour (an absolute colour preference: a colour difference beyond
  one, or the same colour twice in a row) do not meet (C3). When a round
  cannot be paired under all three (small events played long), they give
  way in this order, each noted in ``Plan.notes``: the colour rule, then
  the second bye, then the repeat.
- The bye goes to the lowest-ranked player of the lowest score who has not
  had one, provided the others can all still be paired.
- Within a score bracket, the top half (S1) meets the bottom half (S2) in
  order: S1[1] - S2[1], S1[2] - S2[2]...; an odd player out floats down to
  the next bracket. When a pairing is impossible or would deny both players
  their colour, the next opponent in S2's order is tried (a transposition),
  then one of S1 (an exchange), then a player of a lower bracket: every
  choice is kept only if all the players left can still be paired (C4, the
  completion criterion), checked by a small search over the compatibility
  graph (cut short by Dirac's theorem when the graph is dense).
- Colours (rules E.1-E.5): both preferences granted if possible, else the
  stronger one, else alternate from the last round the two had different
  colours, else the higher-ranked player's; with no preference at all the
  higher-ranked player takes the first move on an odd pairing number.

What is simplified against the full regulation (documented in
docs/tournaments.md): floaters are not protected against floating twice in
a row, and the quality criteria are ordered as colour preferences first, then
the bracket's S1/S2 order, which is the order the Dutch transpositions take.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.history import BLACK, WHITE, Record, records
from tournaments.pairing.types import PairingError, Plan, Player, PlayerId, Round, check_players


class _Rules:
    """Who may meet whom under the current level of constraint."""

    def __init__(self, recs: dict[PlayerId, Record], allow_repeats: bool, colour_rule: bool) -> None:
        self.recs = recs
        self.allow_repeats = allow_repeats
        self.colour_rule = colour_rule
        self.pref = {p: r.colour_preference() for p, r in recs.items()}
        self.met = {p: set(r.opponents) for p, r in recs.items()}

    def absolute(self, p: PlayerId) -> str | None:
        colour, strength = self.pref[p]
        return colour if strength == 3 else None

    def may_meet(self, a: PlayerId, b: PlayerId) -> bool:
        if not self.allow_repeats and b in self.met[a]:
            return False
        if self.colour_rule:
            ca = self.absolute(a)
            if ca is not None and ca == self.absolute(b):
                return False
        return True

    def clash(self, a: PlayerId, b: PlayerId) -> int:
        """How badly a pairing denies colours: 0 none, 1 one of two mild wishes
        denied, 2 a strong or absolute wish denied."""
        (ca, sa), (cb, sb) = self.pref[a], self.pref[b]
        if ca is None or ca != cb:
            return 0
        return 2 if min(sa, sb) >= 2 else 1

    def matchable(self, players: frozenset[PlayerId], memo: dict[frozenset, bool]) -> bool:
        """Whether ``players`` can all be paired together (a perfect matching)."""
        if not players:
            return True
        if len(players) % 2:
            return False
        known = memo.get(players)
        if known is not None:
            return known
        degree = self._degrees(players)
        if min(degree.values()) >= len(players) / 2:
            result = True  # Dirac: a Hamiltonian cycle exists, so a perfect matching does
        else:
            p = min(players, key=lambda x: degree[x])
            result = False
            for q in sorted((q for q in players if q != p and self.may_meet(p, q)), key=lambda x: degree[x]):
                if self.matchable(players - {p, q}, memo):
                    result = True
                    break
        memo[players] = result
        return result

    def _degrees(self, players: frozenset[PlayerId]) -> dict[PlayerId, int]:
        n = len(players)
        if self.colour_rule:
            absolute = {WHITE: 0, BLACK: 0}
            for p in players:
                c = self.absolute(p)
                if c is not None:
                    absolute[c] += 1
        out = {}
        for p in players:
            d = n - 1
            if not self.allow_repeats:
                d -= len(self.met[p] & players)
            if self.colour_rule:
                c = self.absolute(p)
                if c is not None:
                    d -= absolute[c] - 1
            out[p] = d
        return out


def pair_swiss(players: Sequence[Player], rounds: Sequence[Round] = (), *, bye_points: float = 1.0) -> Plan:
    """The next round of a Swiss between ``players`` (those taking part this
    round), given the ``rounds`` played so far. Raises PairingError when fewer
    than two players are left."""
    check_players(players)
    if len(players) < 2:
        raise PairingError("a round needs two players or more")
    ids = [p.id for p in players]
    recs = records(ids, rounds)
    rank = {p.id: p.rank for p in players}
    ranked = sorted(ids, key=lambda p: (-recs[p].score, rank[p]))
    notes: list[str] = []
    # The rules give way one at a time, and only when the round cannot be paired otherwise.
    for allow_repeats, colour_rule, second_bye, note in ((False, True, False, ""),
                                                         (False, False, False, "colour_rule_relaxed"),
                                                         (False, False, True, "second_bye"),
                                                         (True, False, True, "repeat_pairing")):
        rules = _Rules(recs, allow_repeats, colour_rule)
        memo: dict[frozenset, bool] = {}
        bye = _choose_bye(ranked, recs, rules, memo, second_bye)
        if bye is False:
            continue
        pool = [p for p in ranked if p != bye]
        pairs = _pair(pool, recs, rules, memo)
        if pairs is None:
            continue
        if note:
            notes.append(note)
        games = [_colours(a, b, recs, rank) for a, b in pairs]
        games.sort(key=lambda g: (-max(recs[g[0]].score, recs[g[1]].score), min(rank[g[0]], rank[g[1]])))
        return Plan(tuple(games), () if bye is None else (bye,), tuple(notes))
    raise PairingError("no pairing possible")  # unreachable: with repeats allowed anyone may meet anyone


def _choose_bye(ranked: list[PlayerId], recs: dict[PlayerId, Record], rules: _Rules,
                memo: dict[frozenset, bool], second_bye: bool) -> PlayerId | None | bool:
    """None for an even count; else the lowest-ranked player without a bye
    yet whose bye leaves the others pairable (when everyone has had one, or
    ``second_bye`` allows it, anyone, lowest first); False if there is none."""
    if len(ranked) % 2 == 0:
        return None if rules.matchable(frozenset(ranked), memo) else False
    everyone = frozenset(ranked)
    lowest_first = list(reversed(ranked))
    fresh = [p for p in lowest_first if recs[p].byes == 0]
    candidates = fresh + [p for p in lowest_first if p not in fresh] if second_bye or not fresh else fresh
    for p in candidates:
        if rules.matchable(everyone - {p}, memo):
            return p
    return False


def _pair(pool: list[PlayerId], recs: dict[PlayerId, Record], rules: _Rules,
          memo: dict[frozenset, bool]) -> list[tuple[PlayerId, PlayerId]] | None:
    """Pair ``pool`` (ranked, even, known to be pairable) top player first:
    each choice keeps the rest pairable, so the loop never has to go back."""
    left = list(pool)
    pairs = []
    while left:
        p = left[0]
        for q in _candidates(left, recs, rules):
            rest = frozenset(left) - {p, q}
            if rules.may_meet(p, q) and rules.matchable(rest, memo):
                pairs.append((p, q))
                left = [x for x in left if x != p and x != q]
                break
        else:
            return None
    return pairs


def _candidates(left: list[PlayerId], recs: dict[PlayerId, Record], rules: _Rules) -> list[PlayerId]:
    """The opponents of ``left[0]`` (the top unpaired player) in the order the
    Dutch system tries them: its bracket's S2 from the top, then the rest of
    S1 from the bottom (exchanges), then the lower brackets from the top
    (the player floats down); a denied colour wish sends a candidate back,
    after those of its own part that grant it."""
    p = left[0]
    score = recs[p].score
    bracket = [x for x in left if recs[x].score == score]
    half = len(bracket) // 2
    s1, s2 = bracket[:half], bracket[half:]
    if not s1:  # p alone in its bracket (a floater): it meets the next ones down, in order
        s2 = []
    lower = [x for x in left if recs[x].score != score]
    parts = [s2, list(reversed(s1[1:])), lower]
    out: list[PlayerId] = []
    for part in parts:
        out.extend(sorted((q for q in part if q != p), key=lambda q: rules.clash(p, q)))
    return out


def _colours(a: PlayerId, b: PlayerId, recs: dict[PlayerId, Record],
             rank: dict[PlayerId, int]) -> tuple[PlayerId, PlayerId]:
    """(first, second) for a pairing, by FIDE's colour allocation rules E.1-E.5."""
    ra, rb = recs[a], recs[b]
    higher, lower = (a, b) if (-ra.score, rank[a]) <= (-rb.score, rank[b]) else (b, a)
    (ch, sh), (cl, sl) = recs[higher].colour_preference(), recs[lower].colour_preference()

    def give(player: PlayerId, colour: str) -> tuple[PlayerId, PlayerId]:
        other = lower if player == higher else higher
        return (player, other) if colour == WHITE else (other, player)

    if ch is None and cl is None:  # E.5: the first move to the higher-ranked odd pairing number
        return give(higher, WHITE if rank[higher] % 2 else BLACK)
    if ch is not None and ch != cl:  # E.1: both wishes granted (or the only one)
        return give(higher, ch)
    if ch is None:
        return give(lower, cl)
    if sh != sl:  # E.2: the stronger wish
        return give(higher, ch) if sh > sl else give(lower, cl)
    # E.3: alternate from the most recent round in which their colours differed.
    for x, y in zip(reversed(recs[higher].colours), reversed(recs[lower].colours)):
        if x != y:
            return give(higher, BLACK if x == WHITE else WHITE)
    return give(higher, ch)  # E.4: the higher-ranked player's wish
