"""Staff screens of the collection: games with their names, editions and copies;
people, publishers and terms."""

from __future__ import annotations

from django.contrib import admin
from django.db import models
from django.utils.translation import gettext_lazy as _

from catalog.collection.models import Edition, Game, GameName, Person, Publisher, Term, refresh_titles
from catalog.shelves.admin import CopyInline
from ludo import uploads as uploads_limit


class GameNameInline(admin.TabularInline):
    model = GameName
    extra = 1
    fields = ["language", "name", "primary", "kind", "source"]


class EditionInline(admin.TabularInline):
    model = Edition
    extra = 0
    autocomplete_fields = ["publisher"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    formfield_overrides = {models.ImageField: {"form_class": uploads_limit.LimitedImageField}}
    list_display = ["title", "year", "min_players", "max_players", "min_time", "bgg_id", "engine_slug"]
    list_filter = ["kind", "engine_slug"]
    search_fields = ["title", "names__name", "other_names", "=bgg_id"]
    autocomplete_fields = ["designers", "artists", "publishers", "terms", "base_game"]
    inlines = [GameNameInline, EditionInline, CopyInline]
    # The per-language titles follow the names below (the primary one of each language).
    readonly_fields = ["slug", "owned_count", "rating_count", "title_fr", "title_de", "title_en"]
    fieldsets = [
        (None, {"fields": [
            "title", ("title_fr", "title_de", "title_en"), "other_names", "slug", ("kind", "base_game"),
            "description", "cover",
        ]}),
        (_("People"), {"fields": ["designers", "artists", "publishers"]}),
        (_("Play"), {"fields": [
            ("min_players", "max_players"), ("best_min_players", "best_max_players"), ("min_time", "max_time", "teach_time"),
            ("min_age", "weight", "language_dependence"), "terms", "engine_slug",
        ]}),
        (_("Reference"), {"fields": ["year", "bgg_id", ("rating", "rating_count", "owned_count")]}),
    ]

    def get_search_results(self, request, queryset, search_term):
        results, duplicates = super().get_search_results(request, queryset, search_term)
        return results, True  # a game found by two of its names is listed once

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        refresh_titles([form.instance])  # titles and search key follow the names


@admin.register(Person, Publisher)
class NamedAdmin(admin.ModelAdmin):
    search_fields = ["name"]
    readonly_fields = ["slug"]


@admin.register(Term)
class TermAdmin(admin.ModelAdmin):
    list_display = ["name_en", "name_fr", "kind"]
    list_filter = ["kind"]
    search_fields = ["name_en", "name_fr"]
