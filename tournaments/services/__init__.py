"""The tournament service: one function per action, each in a transaction that
locks the tournament row (select_for_update; SQLite's writers take turns).

    setup     create a tournament (hosts of the house)
    entries   join, leave (the forfeit rule), pause, resume
    rounds    start, pair the next round, record a finished table, finish
    arena     pair whoever waits, for a fixed time (lichess's arena)
    berserk   an arena player halves their clock for one point more on a win
    hosts     adjudicate a table, swap two players before their games begin, cancel
    seating   a pairing's live table: created, seated by the one-seat rule, started
    where     a player's current table, for their phone
"""

from tournaments.errors import TournamentError
from tournaments.services.arena import pair_arena
from tournaments.services.berserk import berserk
from tournaments.services.entries import join, leave, pause, resume
from tournaments.services.hosts import adjudicate, cancel, swap_players
from tournaments.services.rounds import advance, next_round, record_result, start
from tournaments.services.setup import create_tournament
from tournaments.services.where import current_table

__all__ = ["TournamentError", "adjudicate", "advance", "berserk", "cancel", "create_tournament", "current_table", "join",
           "leave", "next_round", "pair_arena", "pause", "record_result", "resume", "start", "swap_players"]
