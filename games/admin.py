"""The hosts' view of the tables: every table (private ones included), and the
acts they may take on them. Each act goes through the table service, which
checks staff rights, broadcasts the change and writes the moderation log."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games import services
from games.models import Action, ChatMessage, ModerationLog, Seat, Table
from games.protocol import TableError


def _who(request) -> services.Who:
    return services.Who.from_request(request)


class ReadOnly:
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class SeatInline(ReadOnly, admin.TabularInline):
    model = Seat
    fields = ("index", "name", "user", "bot_level", "resigned", "absent_since", "clock_ms", "deadline")
    readonly_fields = fields
    extra = 0


class ActionInline(ReadOnly, admin.TabularInline):
    model = Action
    fields = ("version", "kind", "seat", "move", "payload", "created_at")
    readonly_fields = fields
    extra = 0
    ordering = ("-version",)


@admin.register(Table)
class TableAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("id", "game", "status", "seat_count", "players", "version", "private", "rated", "created_at",
                    "updated_at")
    list_filter = ("status", "game", "private", "rated")
    search_fields = ("id", "creator_name", "seats__name")
    date_hierarchy = "created_at"
    readonly_fields = ("game", "options", "seat_count", "status", "version", "outcome", "rated", "clock",
                       "private", "created_by", "creator_name", "absent_bot", "absent_grace", "created_at",
                       "started_at", "finished_at", "clock_deadline", "countdown_deadline", "bot_due", "rematch")
    exclude = ("state", "draw_offers", "rematch_offers")
    inlines = [SeatInline, ActionInline]
    actions = ["end_tables"]

    def has_change_permission(self, request, obj=None) -> bool:
        # The change page is where hosts look at a table; nothing on it is editable.
        return request.user.is_staff

    def save_model(self, request, obj, form, change) -> None:
        """Nothing: a table changes only through the table service (the actions
        here, the moderation pages). Saving the page wrote the whole row as the
        admin read it when the form came back, without the table's lock: a move
        committed in between was undone, version included."""

    @admin.display(description=_("players"))
    def players(self, table: Table) -> str:
        return ", ".join(s.name or (f"bot ({s.bot_level})" if s.bot_level else "-") for s in table.seats.all())

    @admin.action(description=_("End the selected tables (abandoned)"))
    def end_tables(self, request, queryset) -> None:
        ended = 0
        for table in queryset:
            try:
                services.staff_end(table.pk, _who(request), "admin")
                ended += 1
            except TableError:
                continue
        self.message_user(
            request,
            ngettext("%(count)d table ended.", "%(count)d tables ended.", ended) % {"count": ended},
            messages.SUCCESS,
        )


@admin.register(Seat)
class SeatAdmin(ReadOnly, admin.ModelAdmin):
    # A guest's identity is never shown: names and seats tell people apart.
    exclude = ("guest_key",)
    list_display = ("table", "index", "name", "user", "bot_level", "absent_since")
    list_filter = ("table__status", "bot_level")
    search_fields = ("name", "table__id")
    actions = ["remove_players"]

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.is_staff

    @admin.action(description=_("Remove these players (a bot takes over a game in play)"))
    def remove_players(self, request, queryset) -> None:
        removed = 0
        for seat in queryset:
            try:
                services.staff_remove(seat.table_id, _who(request), seat.index, "admin")
                removed += 1
            except TableError:
                continue
        self.message_user(
            request,
            ngettext("%(count)d player removed.", "%(count)d players removed.", removed) % {"count": removed},
            messages.SUCCESS,
        )


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnly, admin.ModelAdmin):
    # A guest's identity is never shown: names and seats tell people apart.
    exclude = ("guest_key",)
    list_display = ("created_at", "table", "channel", "name", "text", "hidden")
    list_filter = ("channel", "hidden")
    search_fields = ("name", "text", "table__id")
    actions = ["hide_messages"]

    @admin.action(description=_("Hide the selected messages"))
    def hide_messages(self, request, queryset) -> None:
        hidden = 0
        for message in queryset.filter(hidden=False):
            try:
                services.staff_hide_chat(message.pk, _who(request))
                hidden += 1
            except TableError:
                continue
        self.message_user(
            request,
            ngettext("%(count)d message hidden.", "%(count)d messages hidden.", hidden) % {"count": hidden},
            messages.SUCCESS,
        )


@admin.register(ModerationLog)
class ModerationLogAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("created_at", "staff", "kind", "table", "detail")
    list_filter = ("kind",)
    search_fields = ("table__id", "staff__username")
