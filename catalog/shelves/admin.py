"""Staff screens of the shelves: copies with their missing parts (a game's copies
are also edited on the game's page, through CopyInline)."""

from __future__ import annotations

from django.contrib import admin

from catalog.shelves.models import Copy, MissingPart


class CopyInline(admin.StackedInline):
    model = Copy
    extra = 1
    fields = [("shelf", "status", "condition", "edition"), "contents", ("acquired_on", "acquired_from", "price"), "acquisition_note"]

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        if obj is not None:
            formset.form.base_fields["edition"].queryset = obj.editions.all()
        return formset


class MissingPartInline(admin.TabularInline):
    model = MissingPart
    extra = 1
    fields = ["description", "reported_at", "reported_by", "found_at"]
    readonly_fields = ["reported_by"]


@admin.register(Copy)
class CopyAdmin(admin.ModelAdmin):
    list_display = ["game", "shelf", "status", "condition"]
    list_filter = ["status", "condition"]
    search_fields = ["game__title", "shelf"]
    autocomplete_fields = ["game"]
    inlines = [MissingPartInline]

    def save_formset(self, request, form, formset, change):
        for row in formset.save(commit=False):
            if isinstance(row, MissingPart) and row.reported_by_id is None:
                row.reported_by = request.user
            row.save()
        for row in formset.deleted_objects:
            row.delete()
