"""Staff screens: a game's contents (inline on the contents items' own list),
counts with their lines, shortfalls, stray pieces and guest reports, shelf checks
with their corrections (a record: read only; the report page makes them)."""

from __future__ import annotations

from django.contrib import admin

from boxes.models import (ContentItem, Count, CountLine, CopyItem, GuestReport, ShelfCheck, ShelfCorrection,
                          Shortfall, StrayPiece)


@admin.register(ContentItem)
class ContentItemAdmin(admin.ModelAdmin):
    list_display = ["game", "group", "label", "quantity", "essential"]
    list_filter = ["essential"]
    search_fields = ["game__title", "label"]
    autocomplete_fields = ["game"]


@admin.register(CopyItem)
class CopyItemAdmin(admin.ModelAdmin):
    list_display = ["copy", "group", "label", "quantity", "essential"]
    search_fields = ["copy__game__title", "label"]
    raw_id_fields = ["copy", "template"]


class CountLineInline(admin.TabularInline):
    model = CountLine
    extra = 0
    fields = ["group", "label", "expected", "found", "note"]
    readonly_fields = fields


@admin.register(Count)
class CountAdmin(admin.ModelAdmin):
    list_display = ["copy", "counted_at", "counted_by", "complete", "condition"]
    list_filter = ["complete", "condition"]
    raw_id_fields = ["copy"]
    inlines = [CountLineInline]


@admin.register(Shortfall)
class ShortfallAdmin(admin.ModelAdmin):
    list_display = ["copy", "label", "quantity", "blocking", "open"]
    list_filter = ["open", "blocking"]
    raw_id_fields = ["copy", "part", "count", "sessions", "plays"]


@admin.register(StrayPiece)
class StrayPieceAdmin(admin.ModelAdmin):
    list_display = ["description", "belongs_to", "found_in", "found_at", "returned_at"]
    raw_id_fields = ["found_in", "belongs_to"]


@admin.register(GuestReport)
class GuestReportAdmin(admin.ModelAdmin):
    list_display = ["copy", "kind", "description", "status", "created_at"]
    list_filter = ["status", "kind"]
    raw_id_fields = ["copy"]
    readonly_fields = ["photo"]



class ShelfCorrectionInline(admin.TabularInline):
    model = ShelfCorrection
    extra = 0
    fields = ["copy", "kind", "shelf_before", "shelf_after", "status_before", "made_by", "made_at"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ShelfCheck)
class ShelfCheckAdmin(admin.ModelAdmin):
    list_display = ["started_at", "scope", "state", "started_by", "finished_at"]
    list_filter = ["state"]
    readonly_fields = ["scope", "state", "started_by", "started_at", "finished_by", "finished_at"]
    inlines = [ShelfCorrectionInline]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # a record: the check's pages make its changes

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # its corrections would go with it (boxes left in quarantine, no record why)
