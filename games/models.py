"""Live tables: the table row, its seats, its append-only action log, chat,
presence and the hosts' moderation log.

A table is the single source of truth for one game being played. Every change
goes through ``games.services`` (one function per action, in a transaction that
locks the table row), which bumps ``Table.version`` and appends one ``Action``
row per version. Nothing about a game lives only in a server process's memory:
deadlines (clocks, the rules' countdown, the next bot move) are indexed columns
that the background worker polls.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def new_seed() -> int:
    """A table's secret seed: enough bits that nobody can guess it, fits a bigint."""
    return secrets.randbits(62)


def new_invite_token() -> str:
    return secrets.token_urlsafe(18)


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        RUNNING = "running", _("In play")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    game = models.CharField(_("game"), max_length=60)
    options = models.JSONField(_("options"), default=dict, blank=True)
    seat_count = models.PositiveSmallIntegerField(_("seats"))
    # Secret: with the seed and the moves anyone could replay hidden cards.
    # Never leaves the server (views, API and exports leave it out).
    seed = models.BigIntegerField(default=new_seed, editable=False)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN)
    version = models.PositiveIntegerField(_("version"), default=0)
    state = models.JSONField(_("state"), null=True, blank=True, editable=False)
    outcome = models.JSONField(_("outcome"), null=True, blank=True)
    rated = models.BooleanField(_("rated"), default=False)
    # {"kind": "none"} | {"kind": "game", "base": s, "increment": s} | {"kind": "move", "seconds": s}
    clock = models.JSONField(_("time control"), default=dict, blank=True)
    private = models.BooleanField(_("private"), default=False)
    # One device plays every person's seat (games.living): its creator holds them all,
    # the one exception to "one person, one seat" (games.services.tables.check_one_seat).
    pass_and_play = models.BooleanField(_("pass-and-play"), default=False, editable=False)
    invite_token = models.CharField(_("invite token"), max_length=40, default=new_invite_token, editable=False)
    # Whoever created the table hosts it (may start it, add bots): an account or a guest identity.
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    creator_key = models.CharField(max_length=64, blank=True, editable=False)
    creator_name = models.CharField(_("created by"), max_length=80, blank=True)
    # An absent player's seat goes to a bot of this level after the grace period
    # ("" = only when another player asks for it).
    absent_bot = models.CharField(_("bot for absent players"), max_length=20, blank=True, default="")
    absent_grace = models.PositiveIntegerField(_("grace period for absent players (s)"), default=120)
    draw_offers = models.JSONField(default=list, blank=True)
    rematch_offers = models.JSONField(default=list, blank=True)
    rematch = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of"
    )

    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # Not indexed: every move changes it, and on PostgreSQL an update that changes
    # no indexed column can stay on its page without touching any index (HOT).
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # What the worker polls. Recomputed by the services after every action.
    clock_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    countdown_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    bot_due = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["-created_at"]
        # Few indexes, none on a column a plain move changes (state, version,
        # updated_at): each one is written again by every update that is not HOT.
        # The lobby's covers lookups by status; a plain index on the game (no
        # pattern-ops twin: nobody searches slugs with LIKE).
        indexes = [models.Index(fields=["status", "private"], name="games_table_lobby"),
                   models.Index(fields=["game"], name="games_table_game")]

    def __str__(self) -> str:
        return f"#{self.pk} {self.game} ({self.status})"

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)

    @property
    def group_name(self) -> str:
        """The channel-layer group every socket watching this table joins."""
        return f"table.{self.pk}"


class Seat(models.Model):
    """One seat at a table: empty, a person (account or guest identity, ludo.guests), or a bot."""

    # No index of its own: the unique (table, index) one serves lookups by table.
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats", db_index=False)
    index = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    guest_key = models.CharField(max_length=64, blank=True, default="")
    name = models.CharField(_("name"), max_length=80, blank=True, default="")
    bot_level = models.CharField(_("bot level"), max_length=20, blank=True, default="")
    resigned = models.BooleanField(default=False)
    # Clock: time left in the bank (game clocks) and when the seat's current turn began.
    clock_ms = models.BigIntegerField(null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    absent_since = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "index"]
        constraints = [models.UniqueConstraint(fields=["table", "index"], name="games_seat_unique_index")]

    def __str__(self) -> str:
        return f"{self.table_id}/{self.index} {self.name or '-'}"

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.guest_key and not self.bot_level

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def is_human(self) -> bool:
        return not self.is_empty and not self.is_bot


class Action(models.Model):
    """One accepted change of a table, numbered by the version it produced.

    Append-only. Replaying the ``move`` / ``timeout`` / ``countdown`` rows in
    order from ``rules.new_game(seat_count, seed, options)`` rebuilds the state.
    """

    # No index of its own: the unique (table, version) one serves lookups by table.
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="actions", db_index=False)
    version = models.PositiveIntegerField()
    seat = models.SmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=20)
    move = models.CharField(max_length=500, blank=True, default="")
    payload = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "version"]
        constraints = [models.UniqueConstraint(fields=["table", "version"], name="games_action_unique_version")]

    def __str__(self) -> str:
        return f"{self.table_id} v{self.version} {self.kind} {self.seat} {self.move}"


class ChatMessage(models.Model):
    class Channel(models.TextChoices):
        PLAYERS = "players", _("Players")
        SPECTATORS = "spectators", _("Spectators")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat")
    channel = models.CharField(max_length=12, choices=Channel.choices)
    seat = models.SmallIntegerField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    guest_key = models.CharField(max_length=64, blank=True, default="")
    name = models.CharField(max_length=80)
    text = models.CharField(max_length=500)
    hidden = models.BooleanField(default=False)
    # Written by one of the house's hosts (staff): the chat marks it, so nobody can talk as a host.
    staff = models.BooleanField(default=False, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["table", "id"]

    def __str__(self) -> str:
        return f"{self.name}: {self.text[:40]}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.pk,
            "channel": self.channel,
            "seat": self.seat,
            "name": self.name,
            "staff": self.staff,
            "text": "" if self.hidden else self.text,
            "hidden": self.hidden,
            "at": self.created_at.isoformat() if self.created_at else None,
        }


class Connection(models.Model):
    """One open socket watching a table (presence). Deleted on disconnect;
    rows of crashed processes stop being refreshed and are pruned by the worker."""

    channel_name = models.CharField(max_length=200, unique=True)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="connections")
    seat = models.SmallIntegerField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    guest_key = models.CharField(max_length=64, blank=True, default="")
    name = models.CharField(max_length=80, blank=True, default="")
    connected_at = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.table_id} {self.seat} {self.name}"


class ModerationLog(models.Model):
    """Every act of a host on a table or its chat, kept for good."""

    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="moderation")
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    kind = models.CharField(max_length=30)
    detail = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("moderation entry")
        verbose_name_plural = _("moderation log")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.kind} {self.table_id}"
