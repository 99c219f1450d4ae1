"""The shelves' pages: QR codes of games and copies, the label sheet of a shelf,
and a missing part reported by staff."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from catalog.collection.models import Game
from catalog.errors import CatalogError
from catalog.shelves import labels as labelsheet
from catalog.shelves import qr, services
from catalog.shelves.forms import MissingPartForm
from catalog.shelves.models import Copy


def game_qr(request: HttpRequest, slug: str) -> HttpResponse:
    game = get_object_or_404(Game, slug=slug)
    return HttpResponse(qr.svg(qr.rules_address(game, get_language())), content_type="image/svg+xml")


def copy_qr(request: HttpRequest, pk: int) -> HttpResponse:
    copy = get_object_or_404(Copy.objects.select_related("game"), pk=pk)
    return HttpResponse(qr.svg(qr.rules_address(copy.game, get_language(), copy)), content_type="image/svg+xml")


@staff_member_required
def labels(request: HttpRequest) -> HttpResponse:
    shelf = request.GET.get("rayon", "").strip().upper()[:4]
    sheet = labelsheet.sheet(shelf, get_language())
    return render(request, "catalog/labels.html", {"sheet": sheet, "shelf": shelf})


@require_POST
@staff_member_required
def report_missing(request: HttpRequest, pk: int) -> HttpResponse:
    copy = get_object_or_404(Copy.objects.select_related("game"), pk=pk)
    if not request.user.has_perm("catalog.add_missingpart"):
        raise Http404
    form = MissingPartForm(request.POST)
    if form.is_valid():
        try:
            services.report_missing_part(copy, form.cleaned_data["description"], request.user)
            messages.success(request, _("Missing part noted for the copy on shelf %(shelf)s.") % {"shelf": copy.shelf})
        except CatalogError as exc:
            messages.error(request, str(exc))
    else:
        messages.error(request, _("Say what is missing."))
    return redirect("catalog:game", copy.game.slug)
