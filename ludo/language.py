"""Which language a visitor sees, and English paths.

French pages live at /, English ones under /en/ with English paths (i18n_patterns and
translated routes). LocaleMiddleware serves a page in the language of its path; this
middleware, right after authentication, sends a visitor to their own language when
they land on a page of the other one:

- an account's saved preference (``ludo.models.Profile.language``) comes first;
- then the ``django_language`` cookie (set by the language switch, ludo.views.set_language);
- on a first visit (no cookie), the browser's Accept-Language; French when nothing matches.

Only the unprefixed (French) pages redirect: an /en/ address is always served in
English, since someone asked for it by name (a shared link, the switch). A first
visit that follows Accept-Language also stores the choice in the cookie.

Old English addresses (the French paths under /en/, such as /en/jouer/) answer with
a permanent redirect to the English path of the same page.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, HttpResponseRedirect
from django.urls import Resolver404, resolve, reverse
from django.urls.exceptions import NoReverseMatch
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import trans_real

ENGLISH_PREFIX = "/en/"
# Paths that are not pages for people to read: never redirected for language.
NOT_PAGES = ("/static/", "/media/", "/healthz", "/i18n/", "/ws/", "/api/", "/jsi18n/", "/admin/", "/favicon.ico",
             "/en/api/", "/en/jsi18n/", "/en/admin/")
LANGUAGE_CODES = {code for code, _name in settings.LANGUAGES}


def from_accept_language(header: str) -> str:
    """The first supported language of an Accept-Language header; French when none matches."""
    for code, _quality in trans_real.parse_accept_lang_header(header or ""):
        if code == "*":
            break
        base = code.split("-")[0].lower()
        if base in LANGUAGE_CODES:
            return base
    return settings.LANGUAGE_CODE


def account_language(user) -> str:
    if user is None or not getattr(user, "is_authenticated", False):
        return ""
    from ludo.models import Profile

    language = Profile.objects.filter(user=user).values_list("language", flat=True).first() or ""
    return language if language in LANGUAGE_CODES else ""


def save_account_language(user, language: str) -> None:
    if user is None or not getattr(user, "is_authenticated", False) or language not in LANGUAGE_CODES:
        return
    from ludo.models import Profile

    Profile.objects.update_or_create(user=user, defaults={"language": language})


def preferred(request: HttpRequest) -> tuple[str, str]:
    """(language, where it came from: "account", "cookie" or "browser")."""
    language = account_language(getattr(request, "user", None))
    if language:
        return language, "account"
    cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    if cookie in LANGUAGE_CODES:
        return cookie, "cookie"
    return from_accept_language(request.headers.get("Accept-Language", "")), "browser"


def path_in(path: str, language: str) -> str | None:
    """The path of the same page in ``language`` (None when the path is no page)."""
    current = translation.get_language_from_path(path) or settings.LANGUAGE_CODE
    with translation.override(current):
        try:
            match = resolve(path)
        except Resolver404:
            return None
    if not match.url_name:
        return None
    name = f"{match.namespace}:{match.url_name}" if match.namespace else match.url_name
    with translation.override(language):
        try:
            return reverse(name, args=match.args, kwargs=match.kwargs)
        except NoReverseMatch:
            return None


def _old_english(path: str) -> str | None:
    """/en/<French path> -> the English path of that page, or None."""
    if not path.startswith(ENGLISH_PREFIX):
        return None
    french = "/" + path[len(ENGLISH_PREFIX):]
    with translation.override(settings.LANGUAGE_CODE):
        try:
            match = resolve(french)
        except Resolver404:
            return None
    if not match.url_name:
        return None
    name = f"{match.namespace}:{match.url_name}" if match.namespace else match.url_name
    with translation.override("en"):
        try:
            target = reverse(name, args=match.args, kwargs=match.kwargs)
        except NoReverseMatch:
            return None
    # Only pages that have an English version: /en/healthz is no old address of /healthz.
    return target if target != path and target.startswith(ENGLISH_PREFIX) else None


class LanguageChoiceMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info
        is_page = request.method in ("GET", "HEAD") and not path.startswith(NOT_PAGES)
        remember = ""
        if is_page and not path.startswith(ENGLISH_PREFIX):
            language, source = preferred(request)
            if source == "browser":
                remember = language
            if language != settings.LANGUAGE_CODE:
                target = path_in(path, language)
                if target is not None and target != path:
                    query = request.META.get("QUERY_STRING", "")
                    response = HttpResponseRedirect(target + (f"?{query}" if query else ""))
                    patch_vary_headers(response, ("Accept-Language", "Cookie"))
                    if remember:
                        self._remember(response, remember)
                    return response
        response = self.get_response(request)
        if response.status_code == 404 and is_page:
            target = _old_english(path)
            if target is not None:
                query = request.META.get("QUERY_STRING", "")
                return HttpResponsePermanentRedirect(target + (f"?{query}" if query else ""))
        if is_page and not path.startswith(ENGLISH_PREFIX):
            patch_vary_headers(response, ("Accept-Language",))
        if remember and response.status_code == 200:
            self._remember(response, remember)
        return response

    @staticmethod
    def _remember(response: HttpResponse, language: str) -> None:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH, samesite=settings.LANGUAGE_COOKIE_SAMESITE or "Lax",
            secure=settings.LANGUAGE_COOKIE_SECURE, httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        )


def english_url(url: str) -> str:
    """The English address of a French one (path and query): /jouer/?game=x -> /en/play/?game=x."""
    path, mark, query = url.partition("?")
    english = path_in(path, "en")
    if english is None:
        raise ValueError(f"{path!r} is no page with an English version")
    return english + mark + query
