"""The collection's pages: the list of games (filters and title search), a game's
page (its names, copies and rulebooks), the picker ("what to play?"), and the hosts'
list of games with no French name."""

from __future__ import annotations

import hashlib
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Exists, OuterRef, Prefetch, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from catalog import text as textlib
from catalog.collection import french_names, names, picker, search
from catalog.collection.forms import FilterForm, FrenchNameForm, PickerForm
from catalog.errors import CatalogError
from catalog.collection.models import Game, Term
from catalog.playlog import access
from catalog.playlog import stats as playlog
from catalog.rulebooks import rules_search
from catalog.rulebooks.models import Document
from catalog.shelves import qr
from catalog.shelves.forms import MissingPartForm
from catalog.shelves.models import Copy, MissingPart
from ludo import limits

PER_PAGE = 24
PICKS_PER_PERSON, PICKS_PER_ADDRESS = (20, 60.0), (60, 60.0)  # answers per minute
ORDERINGS = {"popular": ("-owned_count", "title"), "title": ("title",), "year": ("-year", "title")}


def index(request: HttpRequest) -> HttpResponse:
    # Terms some game has: a semi-join (EXISTS), not a DISTINCT over every link.
    used = Game.terms.through.objects.filter(term_id=OuterRef("pk"))
    terms = list(Term.objects.exclude(kind=Term.Kind.TAG).filter(Exists(used)))
    form = FilterForm(request.GET or None, terms=terms)
    filters = form.cleaned_data if form.is_bound and form.is_valid() else {}
    games = Game.objects.matching(filters) if filters else Game.objects.all()
    query = filters.get("q", "")
    rule_hits: list = []
    suggestions: list[Game] = []
    if query:
        found_titles = search.search_titles(query, games)
        page = Paginator(found_titles.ids, PER_PAGE).get_page(request.GET.get("page"))
        found = Game.objects.filter(id__in=list(page.object_list)).with_card_data().prefetch_related("names").in_bulk()
        results = [found[i] for i in page.object_list if i in found]
        for game in results:
            game.matched_name = matched_name(game, found_titles.matched.get(game.id, ""))
        if found_titles.suggestions:
            by_id = Game.objects.in_bulk(found_titles.suggestions)
            suggestions = [by_id[i] for i in found_titles.suggestions if i in by_id]
        rule_hits = rules_search.search_rules(query, request.user, limit=5)
    else:
        ordered = games.with_card_data().order_by(*ORDERINGS.get(filters.get("sort") or "popular"))
        page = Paginator(ordered, PER_PAGE).get_page(request.GET.get("page"))
        results = list(page.object_list)
    params = request.GET.copy()
    params.pop("page", None)
    # The filters panel with every filter at its default (no filter, or only a title
    # search) is the same for everyone: rendered once per language and set of terms
    # (its dozen widgets were a third of the page's time).
    plain = not form.errors and not any(v not in (None, "", False) for k, v in filters.items() if k != "q")
    filters_key = hashlib.sha1(repr((get_language(), [(t.kind, t.slug, t.name) for t in terms])).encode()).hexdigest() if plain else ""
    return render(request, "catalog/index.html", {
        "form": form, "page": page, "results": results, "query": query, "rule_hits": rule_hits, "suggestions": suggestions,
        "params": params.urlencode(), "filtered": bool(filters) and form.active(), "filters_key": filters_key,
    })


def matched_name(game: Game, folded: str) -> str:
    """The name a search matched, as written, unless it is one the card shows
    already (the displayed name, or the original beside it)."""
    shown = {textlib.name_key([game.display_title]), textlib.name_key([game.title])}
    if not folded or folded in shown:
        return ""
    return next((name for name in game.all_names() if textlib.name_key([name]) == folded), "")


def game_detail(request: HttpRequest, slug: str) -> HttpResponse:
    game = get_object_or_404(Game.objects.for_page(), slug=slug)
    copies = Copy.objects.filter(Q(game=game) | Q(game_id=game.base_game_id) if game.kind == Game.Kind.IN_BOX else Q(game=game))
    copies = copies.select_related("edition__publisher", "edition__game").prefetch_related(
        Prefetch("missing_parts", queryset=MissingPart.objects.filter(found_at__isnull=True))
    )
    return render(request, "catalog/game.html", {
        "game": game, "copies": list(copies),
        "documents": list(Document.objects.visible_to(request.user).of_game(game)),
        "other_names": names.shown_beside(game),
        "qr": qr.data_uri(qr.rules_address(game, get_language())),
        "missing_form": MissingPartForm(),
    })


def pick(request: HttpRequest) -> HttpResponse:
    form = PickerForm(request.GET or None)
    group = access.group_of(request)
    if group is None:
        del form.fields["not_played"]
    plan = picks = None
    if form.is_bound and form.is_valid():
        # An answer ranks thousands of boxes (a few hundred ms at worst): a budget per
        # person and per address, far above what a group asks in a minute.
        refusal = limits.check(request, "picker", per_person=PICKS_PER_PERSON, per_address=PICKS_PER_ADDRESS)
        if refusal is not None:
            return refusal
        wanted = dict(form.cleaned_data)
        played = playlog.played_game_ids(*group) if wanted.pop("not_played", False) and group else set()
        plan = picker.plan(**wanted, exclude=frozenset(played))
        picks = plan.together
    return render(request, "catalog/picker.html", {"form": form, "picks": picks, "plan": plan,
                                                   "booking_token": request.GET.get("booking", "") if group and group[0] else ""})


NAMES_PER_PAGE = 30


def _may_name(request: HttpRequest) -> None:
    if not request.user.has_perm("catalog.add_gamename"):
        raise PermissionDenied


@staff_member_required
def missing_french_names(request: HttpRequest) -> HttpResponse:
    _may_name(request)
    leads_only = request.GET.get("leads") == "1"
    page = Paginator(french_names.without_french_name(leads_only).only(
        "id", "slug", "title", "year", "owned_count", "title_pending", "bgg_id"
    ), NAMES_PER_PAGE).get_page(request.GET.get("page"))
    found = french_names.leads()
    for game in page.object_list:
        game.lead = found.get(game.bgg_id) if game.bgg_id else None
    return render(request, "catalog/french_names.html", {"page": page, "form": FrenchNameForm(),
                                                         "leads_only": leads_only, "params": "leads=1" if leads_only else ""})


@require_POST
@staff_member_required
@limits.rate_limited("french-name", per_person=(120, 600), per_address=(240, 600))
def add_french_name(request: HttpRequest, pk: int) -> HttpResponse:
    _may_name(request)
    form = FrenchNameForm(request.POST)
    if form.is_valid():
        try:
            data = form.cleaned_data
            added = french_names.add_french_name(pk, data["name"], data["source"], request.user)
            messages.success(request, _("French name added: %(name)s.") % {"name": added.name})
        except CatalogError as exc:
            messages.error(request, str(exc))
    else:
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
    page = request.POST.get("page", "")
    query = {"leads": "1"} if request.POST.get("leads") == "1" else {}
    if page.isdigit() and 0 < int(page) < 10_000:
        query["page"] = str(int(page))
    address = reverse("catalog:french_names")
    return redirect(f"{address}?{urlencode(query)}" if query else address)
