"""Pairing and tie-breaks for the house's tournaments: pure Python (no Django,
no clock, no I/O, no global random), like the game engines.

    round robin   roundrobin.pair_round   (FIDE Berger tables, 2-8 players)
    Swiss         swiss.pair_swiss        (two-player games, FIDE Dutch system)
                  tables.pair_tables      (three or more a table: Drekki)
    arena         arena.pair_waiting, arena.score, arena.performance
    standings     tiebreaks.standings     (Buchholz, Sonneborn-Berger, direct encounter)
"""

from tournaments.pairing.types import Bye, Game, PairingError, Plan, Player, Round

__all__ = ["Bye", "Game", "PairingError", "Plan", "Player", "Round"]
