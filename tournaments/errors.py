"""Why a tournament action was refused: stable codes, and their words for people."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

MESSAGES: dict[str, Any] = {
    "not_found": _("There is no such tournament."),
    "staff_only": _("Only the hosts of the house can do that."),
    "name_required": _("Choose a display name (or log in) first."),
    "account_required": _("This tournament is for players with an account."),
    "unknown_game": _("This game cannot be played online."),
    "bad_format": _("Unknown tournament format."),
    "bad_rounds": _("A Swiss needs 1 to 15 rounds."),
    "bad_session": _("There is no such session."),
    "bad_duration": _("An arena lasts 1 to 240 minutes."),
    "bad_table_size": _("Tables of this size cannot be played in this game."),
    "bad_clock": _("This time control is not valid."),
    "bad_level": _("Unknown bot level."),
    "bad_name": _("A tournament name needs 2 to 80 characters."),
    "bad_start": _("The start time must be in the future."),
    "already_started": _("The tournament has started: entries are closed."),
    "already_joined": _("You are already in this tournament."),
    "not_entered": _("You are not in this tournament."),
    "full": _("The tournament is full."),
    "too_few_players": _("A tournament needs at least two players."),
    "not_running": _("The tournament is not in play."),
    "round_not_over": _("Tables of this round are still playing."),
    "already_paired": _("This round has already been paired."),
    "over": _("The tournament is over."),
    "bad_result": _("This result is not valid for this table."),
    "already_recorded": _("This table's result is already recorded."),
    "bad_pairing": _("There is no such table in this round."),
    "game_started": _("This game has started: it can no longer be changed."),
    "not_arena": _("Berserk is for arenas only."),
    "no_bank": _("Berserk needs a clock with a bank of time."),
    "already_berserk": _("You already went berserk in this game."),
    "moved_meanwhile": _("These players were moved meanwhile: look at the tables again."),
}


class TournamentError(Exception):
    def __init__(self, code: str, detail: str = "") -> None:
        if code not in MESSAGES:
            raise ValueError(f"unknown tournament error code {code!r}")
        super().__init__(code)
        self.code = code
        self.detail = detail

    @property
    def message(self) -> str:
        return str(MESSAGES[self.code])
