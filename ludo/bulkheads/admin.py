"""The hosts' view of the rows the worker's jobs set aside: which job, which
row (a link to it), the error and its traceback; "try again" sends the rows
back to their jobs (deleting a record does the same)."""

from __future__ import annotations

from django.apps import apps
from django.contrib import admin, messages
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ludo.bulkheads.guard import try_again
from ludo.bulkheads.models import JobFailure


@admin.action(description=_("Try the selected rows again"), permissions=["change"])
def try_rows_again(modeladmin, request, queryset) -> None:
    count = try_again(queryset)
    modeladmin.message_user(request, ngettext("%(count)d row goes back to its job.",
                                              "%(count)d rows go back to their jobs.", count)
                            % {"count": count}, messages.SUCCESS)


@admin.register(JobFailure)
class JobFailureAdmin(admin.ModelAdmin):
    list_display = ("job", "row_link", "failures", "set_aside", "error", "last_failed_at")
    list_filter = ("set_aside", "job")
    search_fields = ("job", "model", "row", "error")
    fields = ("job", "model", "row_link", "failures", "set_aside", "retry_at", "error", "traceback",
              "first_failed_at", "last_failed_at")
    readonly_fields = fields
    actions = [try_rows_again]

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # written by the worker only

    @admin.display(description=_("row"))
    def row_link(self, obj: JobFailure) -> str:
        try:
            model = apps.get_model(obj.model)
            url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_change", args=[obj.row])
        except (LookupError, ValueError, NoReverseMatch):
            return f"{obj.model} #{obj.row}"
        return format_html('<a href="{}">{} #{}</a>', url, model._meta.verbose_name, obj.row)
