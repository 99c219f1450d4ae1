"""The hosts' view of tokens: who holds which (by prefix), when used; revoke.
Nothing here can show a token: only its digest is stored."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ludo.tokens import services
from ludo.tokens.models import GuestToken, PersonalToken


@admin.action(description=_("Revoke the selected tokens"), permissions=["change"])
def revoke_tokens(modeladmin, request, queryset) -> None:
    count = services.revoke(queryset)
    modeladmin.message_user(request, ngettext("%(count)d token revoked.", "%(count)d tokens revoked.", count)
                            % {"count": count}, messages.SUCCESS)


class _TokenAdmin(admin.ModelAdmin):
    actions = [revoke_tokens]
    list_filter = (("revoked_at", admin.EmptyFieldListFilter),)
    date_hierarchy = "created_at"

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # tokens are made by their holders, shown to them once

    def has_delete_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser

    @admin.display(description=_("token"))
    def shown(self, obj) -> str:
        return obj.shown


@admin.register(PersonalToken)
class PersonalTokenAdmin(_TokenAdmin):
    list_display = ("name", "user", "shown", "created_at", "last_used_at", "revoked_at")
    search_fields = ("name", "user__username", "prefix")
    fields = ("name", "user", "shown", "created_at", "last_used_at", "revoked_at")
    readonly_fields = fields
    list_select_related = ("user",)


@admin.register(GuestToken)
class GuestTokenAdmin(_TokenAdmin):
    list_display = ("display_name", "shown", "address", "created_at", "last_used_at", "revoked_at")
    search_fields = ("display_name", "prefix", "address")
    fields = ("display_name", "shown", "guest_key", "address", "created_at", "last_used_at", "revoked_at")
    readonly_fields = fields
