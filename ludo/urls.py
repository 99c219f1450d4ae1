"""URLs. Pages are in French at / and in English under /en/, with translated paths
(/compte/connexion/ and /en/account/login/, /jouer/ and /en/play/, and the apps'
own: /catalogue/jeu/<slug>/regles/ and /en/catalogue/game/<slug>/rules/): msgids are
the English paths, the French catalogue holds the French ones. The French paths of
English pages (/en/jouer/) redirect to the English ones (ludo.language).
"""

from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from django.views.i18n import JavaScriptCatalog

from catalog.rulebooks import views as rulebook_views
from ludo import views
from ludo.account import views as account_views

admin.site.site_header = _("Ludo administration")
admin.site.site_title = _("Ludo administration")
admin.site.index_title = _("Manage the house")

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon),
    path("i18n/setlang/", views.set_language, name="set_language"),
    # Nothing of MEDIA_ROOT is served as is: each file through a view that checks
    # who may see it (catalog.media).
    path(settings.MEDIA_URL.lstrip("/") + "<path:name>", rulebook_views.media_file, name="media"),
]

urlpatterns += i18n_patterns(
    path("", views.home, name="home"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path(_("account/signup/"), views.signup, name="signup"),
    path(_("account/login/"), auth_views.LoginView.as_view(), name="login"),
    path(_("account/logout/"), auth_views.LogoutView.as_view(), name="logout"),
    path(_("account/password/"), account_views.PasswordChangeView.as_view(), name="password_change"),
    path(_("account/password/done/"), auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path(_("guest/"), views.guest, name="guest"),
    path(_("guest/forget/"), views.guest_forget, name="guest_forget"),
    path("catalogue/", include("catalog.urls")),
    path("catalogue/", include("catalog.playlog.urls")),
    path("sessions/", include("games.bookings.urls")),
    path(_("boxes/"), include("boxes.urls")),
    path("", include("games.living.urls")),
    path("", include("tournaments.urls")),
    path("", include("games.urls")),
    path("", include("ludo.tokens.urls")),
    path("", include("games.ratings.urls")),
    path("", include("ludo.account.urls")),
    path("admin/", admin.site.urls),
    prefix_default_language=False,
)
