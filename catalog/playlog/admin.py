from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from catalog.playlog import rules
from catalog.playlog.models import Play, Player


class PlayersFormSet(forms.BaseInlineFormSet):
    """The play log's rules, on the admin's form too (the play and its rows together)."""

    def clean(self) -> None:
        super().clean()
        if any(self.errors):
            return
        kept = [f.cleaned_data for f in self.forms
                if f.cleaned_data and not f.cleaned_data.get("DELETE")]
        play = self.instance
        seats = [rules.Seat(" ".join((d.get("name") or "").split()), d.get("score"), bool(d.get("won")),
                            d["user"].pk if d.get("user") else None) for d in kept]
        entry = rules.Entry(play.game_id, play.played_on, seats, play.note, play.lowest_wins, play.negative_scores,
                            nobody_won=not any(s.won for s in seats))
        problems = rules.problems(entry, timezone.localdate())
        if problems:
            raise ValidationError([p.message for p in problems])


class PlayerInline(admin.TabularInline):
    model = Player
    formset = PlayersFormSet
    extra = 0
    fields = ("position", "name", "user", "score", "won")
    raw_id_fields = ("user",)


@admin.register(Play)
class PlayAdmin(admin.ModelAdmin):
    list_display = ("game", "played_on", "players_list", "winners_list", "logged_by", "session")
    list_filter = ("played_on",)
    date_hierarchy = "played_on"
    search_fields = ("game__title", "game__title_fr", "players__name", "note")
    raw_id_fields = ("game", "session", "booking", "logged_by")
    inlines = [PlayerInline]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("game", "logged_by", "session").prefetch_related("players")

    @admin.display(description=_("players"))
    def players_list(self, play: Play) -> str:
        return ", ".join(p.name for p in play.players.all())

    @admin.display(description=_("won"))
    def winners_list(self, play: Play) -> str:
        return ", ".join(p.name for p in play.players.all() if p.won)
