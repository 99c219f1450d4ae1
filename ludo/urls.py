from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.conf.urls.static import static
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from ludo import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
]

urlpatterns += i18n_patterns(
    path("", views.home, name="home"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("compte/inscription/", views.signup, name="signup"),
    path("compte/connexion/", auth_views.LoginView.as_view(), name="login"),
    path("compte/deconnexion/", auth_views.LogoutView.as_view(), name="logout"),
    path("compte/mot-de-passe/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("compte/mot-de-passe/fait/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("invite/", views.guest, name="guest"),
    path("invite/oublier/", views.guest_forget, name="guest_forget"),
    path("catalogue/", include("catalog.urls")),
    path("", include("games.urls")),
    path("admin/", admin.site.urls),
    prefix_default_language=False,
)

if settings.DEBUG:
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
