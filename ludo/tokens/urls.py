"""Token URLs, inside the site's language patterns (/en/... answers in English)."""

from django.urls import path
from django.utils.translation import gettext_lazy as _

from ludo.tokens import http, views

app_name = "tokens"
urlpatterns = [
    path("api/guest", http.guest, name="api-guest"),
    path("api/guest/", http.guest),
    path("api/me", http.me, name="api-me"),
    path("api/me/", http.me),
    path(_("account/tokens/"), views.tokens, name="list"),
    path(_("account/tokens/<num:token_id>/revoke/"), views.revoke, name="revoke"),
]
