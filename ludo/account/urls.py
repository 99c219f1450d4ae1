"""My account's URLs, inside the site's language patterns: /compte/... in French,
/en/account/... in English (the paths are msgids, the French ones in the catalogue).
The tokens page keeps its own address (ludo.tokens.urls) as a tab of the account."""

from django.urls import path
from django.utils.translation import gettext_lazy as _

from ludo.account import views

app_name = "account"
urlpatterns = [
    path(_("account/"), views.home, name="home"),
    path(_("account/language/"), views.language, name="language"),
    path(_("account/email/"), views.email, name="email"),
    path(_("account/email/confirm/<str:token>/"), views.email_confirm, name="email_confirm"),
    path(_("account/address/resend/"), views.address_resend, name="address_resend"),
    path(_("account/address/confirm/<str:token>/"), views.address_confirm, name="address_confirm"),
    path(_("account/export/"), views.export_data, name="export"),
    path(_("account/delete/"), views.delete, name="delete"),
    path(_("account/password/reset/"), views.PasswordResetView.as_view(), name="password_reset"),
    path(_("account/password/reset/sent/"), views.PasswordResetDoneView.as_view(),
         name="password_reset_done"),
    path(_("account/password/reset/<uidb64>/<token>/"), views.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path(_("account/password/reset/done/"), views.PasswordResetCompleteView.as_view(),
         name="password_reset_complete"),
]
