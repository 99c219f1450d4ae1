"""A tournament of the house: its entrants, its rounds and their pairings,
each pairing a live table (games.Table) or a bye.

The pairing code (tournaments.pairing) is pure; these rows are what it reads
(turned into its values by tournaments.history) and what its plans become
(tournaments.rounds). Every change goes through tournaments.services, in a
transaction that locks the tournament row.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "roundrobin", _("Round robin")
        ARENA = "arena", _("Arena")

    class Status(models.TextChoices):
        OPEN = "open", _("Open for entries")
        RUNNING = "running", _("In play")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(_("name"), max_length=80)
    game = models.CharField(_("game"), max_length=60)
    format = models.CharField(_("format"), max_length=12, choices=Format.choices, default=Format.SWISS)
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=3)  # Swiss; a round robin's follow from the count
    # Arena: how long it lasts (minutes), and when it ends once started.
    duration = models.PositiveSmallIntegerField(_("duration (minutes)"), default=0)
    ends_at = models.DateTimeField(null=True, blank=True)
    clock = models.JSONField(_("time control"), default=dict, blank=True)
    rated = models.BooleanField(_("rated"), default=False)
    guests_allowed = models.BooleanField(_("guests may join"), default=True)
    bye_bot = models.CharField(_("bot for a bye"), max_length=20, blank=True, default="")
    # Tables of several players (Drekki): sizes wished and allowed.
    table_size = models.PositiveSmallIntegerField(_("players a table"), default=2)
    min_table = models.PositiveSmallIntegerField(default=2)
    max_table = models.PositiveSmallIntegerField(default=2)
    round_pause = models.PositiveIntegerField(_("pause between rounds (s)"), default=30)
    # Join code (games.living.codes' alphabet), freed once the tournament is over.
    code = models.CharField(_("join code"), max_length=12, unique=True, null=True, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN)
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True, db_index=True)
    # When the worker pairs the next round (every table of the round finished, plus the pause).
    next_round_at = models.DateTimeField(null=True, blank=True, db_index=True)
    current_round = models.PositiveSmallIntegerField(default=0)
    version = models.PositiveIntegerField(default=0)  # bumped by every change: the screen polls it
    session = models.ForeignKey("bookings.Session", null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="tournaments", verbose_name=_("session"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When its games went into the play log (tournaments.playlog): once, after the end.
    logged_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.game}, {self.format})"

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.CANCELLED)

    @property
    def multi_table(self) -> bool:
        return self.max_table > 2


class Entrant(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Playing")
        PAUSED = "paused", _("Paused")
        LEFT = "left", _("Left")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="tournament_entries")
    guest_key = models.CharField(max_length=64, blank=True, default="")
    name = models.CharField(_("name"), max_length=80)
    rank = models.PositiveSmallIntegerField(_("pairing number"), null=True, blank=True)
    rating = models.FloatField(null=True, blank=True)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.ACTIVE)
    place = models.PositiveSmallIntegerField(_("final place"), null=True, blank=True)  # set at the end
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        ordering = ["tournament", "rank", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], condition=Q(user__isnull=False),
                                    name="tournaments_entrant_one_account"),
            models.UniqueConstraint(fields=["tournament", "guest_key"], condition=~Q(guest_key=""),
                                    name="tournaments_entrant_one_guest"),
        ]

    def __str__(self) -> str:
        return self.name


class Round(models.Model):
    """A round of a Swiss or a round robin; in an arena, one wave of pairings
    (the players the worker paired in one pass)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    notes = models.JSONField(default=list, blank=True)  # the pairing rules that gave way (tournaments.pairing)

    class Meta:
        ordering = ["tournament", "number"]
        # Two hosts pressing "next round" at once make one round: the second insert fails.
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="tournaments_round_once")]

    def __str__(self) -> str:
        return f"{self.tournament_id} round {self.number}"


class Pairing(models.Model):
    """One table of a round (``table``), or a bye (no table; or a table
    against a bot when the tournament fills byes with one: not counted)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    board = models.PositiveSmallIntegerField()
    bye = models.BooleanField(default=False)
    table = models.OneToOneField("games.Table", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="tournament_pairing")
    # Filled once: from the table's end (tournaments.results), a forfeit, or a host's adjudication.
    recorded_at = models.DateTimeField(null=True, blank=True, db_index=True)
    adjudicated = models.BooleanField(default=False)

    class Meta:
        ordering = ["round", "board"]
        constraints = [models.UniqueConstraint(fields=["round", "board"], name="tournaments_pairing_board")]

    def __str__(self) -> str:
        return f"{self.round} board {self.board}"


class PairingSeat(models.Model):
    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="seats")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()  # the table's seat index (0 moves first)
    points = models.FloatField(null=True, blank=True)  # tournament points: 1 win, 0.5 draw, 0 loss
    berserk = models.BooleanField(default=False)  # arena: half the clock, one point more for a win
    # Denormalised for the constraint below: one seat per entrant per round.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["pairing", "seat"]
        constraints = [models.UniqueConstraint(fields=["round", "entrant"], name="tournaments_seat_once_a_round"),
                       models.UniqueConstraint(fields=["pairing", "seat"], name="tournaments_seat_index")]
