"""The boxes' pages: the count of one copy, the list of boxes to count, a
game's or a copy's contents, the guests' reports from a box's QR page, and the
hosts' reports. Views parse and authorise, then call a service."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from boxes import contents, counting, guests, reports, status, tocount, tracing
from boxes.access import host_required
from boxes.errors import BoxError, StaleCount
from boxes.forms import CONDITIONS, ContentsForm, GuestFoundForm, GuestMissingForm, StrayForm
from boxes.models import ContentItem, Count, GuestReport, Shortfall
from catalog import media
from catalog.collection.models import Game
from catalog.shelves.models import Copy
from ludo import limits
from ludo.spreadsheet import csv_response

GUEST_RATE_PERSON = (5, 3600.0)
GUEST_RATE_ADDRESS = (20, 3600.0)
TO_COUNT_SHOWN = 100  # a shelf walk's worth; a shelf prefix (?rayon=D) narrows the list


def _copy(pk: int) -> Copy:
    return get_object_or_404(Copy.objects.select_related("game"), pk=pk)


# -- the count -----------------------------------------------------------------------------

def _int(raw: str | None) -> int | None:
    """A whole number as typed (a huge one kept huge, for the service to refuse it), else None."""
    raw = (raw or "").strip()
    if not raw.lstrip("-").isdigit() or not raw.lstrip("-").isascii():
        return None
    return int(raw) if len(raw) <= 9 else (-1 if raw.startswith("-") else 10**9)


def _found_from(post) -> dict[str, counting.Found]:
    found = {}
    for key in post:
        if key.startswith("item-"):
            n = key[5:]
            found[post[key]] = counting.Found(_int(post.get(f"found-{n}")), post.get(f"note-{n}", "")[:400])
    return found


def _count_context(copy: Copy, state, lines, posted=None, errors=None) -> dict:
    open_ = list(Shortfall.objects.filter(copy=copy, open=True).select_related("part")
                 .prefetch_related("sessions", "plays__players").order_by("id"))
    missing = {}
    for s in open_:
        missing[s.label] = missing.get(s.label, 0) + s.quantity
        s.trace = tracing.describe(list(s.sessions.all()), list(s.plays.all()), s.since)
    rows = []
    for n, line in enumerate(lines):
        value = posted.get(f"found-{n}", "") if posted is not None else ""
        note = posted.get(f"note-{n}", "") if posted is not None else ""
        rows.append({"n": n, "line": line, "missing": missing.get(line.label, 0), "value": value, "note": note,
                     "error": (errors or {}).get(line.label)})
    groups: list[tuple[str, list]] = []
    for row in rows:
        if not groups or groups[-1][0] != row["line"].group:
            groups.append((row["line"].group, []))
        groups[-1][1].append(row)
    history = list(Count.objects.filter(copy=copy).select_related("counted_by")[:10])
    return {"copy": copy, "state": state, "groups": groups, "shortfalls": open_, "history": history,
            "conditions": CONDITIONS, "stray_form": StrayForm(), "errors": errors or {},
            "own_list": contents.has_own_list(copy)}


@host_required
def count(request: HttpRequest, pk: int) -> HttpResponse:
    copy = _copy(pk)
    lines = contents.contents_of(copy)
    if request.method == "POST":
        version = _int(request.POST.get("version"))
        all_there = "all_there" in request.POST
        try:
            counting.record_count(copy, request.user, version if version is not None else -1,
                                  None if all_there else _found_from(request.POST),
                                  note=request.POST.get("note", "")[:2000],
                                  condition=request.POST.get("condition") or None)
        except StaleCount as exc:
            messages.error(request, str(exc))
            return redirect("boxes:count", copy.pk)
        except BoxError as exc:
            state = counting.begin(copy)
            context = _count_context(copy, state, lines, request.POST, exc.items)
            context["refused"] = str(exc)
            return render(request, "boxes/count.html", context, status=400)
        messages.success(request, _("Count of the box on shelf %(shelf)s saved.") % {"shelf": copy.shelf})
        return redirect("boxes:count", copy.pk)
    state = counting.begin(copy)
    return render(request, "boxes/count.html", _count_context(copy, state, lines))


@require_POST
@host_required
def blocking(request: HttpRequest, pk: int) -> HttpResponse:
    shortfall = get_object_or_404(Shortfall, pk=pk)
    status.set_blocking(shortfall.pk, request.POST.get("blocking") == "1")
    return redirect("boxes:count", shortfall.copy_id)


@require_POST
@host_required
def stray(request: HttpRequest, pk: int) -> HttpResponse:
    copy = _copy(pk)
    form = StrayForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Say what the piece is and which game it belongs to."))
        return redirect("boxes:count", copy.pk)
    try:
        piece = counting.record_stray(copy, form.cleaned_data["belongs_to"], form.cleaned_data["description"],
                                      request.user)
    except BoxError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Stray piece noted: it belongs to %(game)s.") % {
            "game": piece.belongs_to.display_title})
    return redirect("boxes:count", copy.pk)


@host_required
def to_count(request: HttpRequest) -> HttpResponse:
    shelf = request.GET.get("rayon", "").strip().upper()[:4]
    rows, total = tocount.page(shelf=shelf, limit=TO_COUNT_SHOWN)
    pattern = _url("boxes:count", 999999999)  # one reverse for the page, not one per row
    for row in rows:
        row.url = pattern.replace("999999999", str(row.copy.pk))
    return render(request, "boxes/to_count.html", {"rows": rows, "total": total, "shelf": shelf,
                                                    "more": max(0, total - len(rows))})


# -- contents ------------------------------------------------------------------------------

def _edit_contents(request, title, current, save, back, extra=None) -> HttpResponse:
    form = ContentsForm(request.POST or None, initial={"text": contents.as_text(current)})
    if request.method == "POST" and form.is_valid():
        try:
            save(contents.parse_text(form.cleaned_data["text"]))
        except BoxError as exc:
            form.add_error("text", str(exc))
        else:
            messages.success(request, _("Contents saved."))
            return redirect(back)
    return render(request, "boxes/contents.html", {"form": form, "title": title, "back": back, **(extra or {})},
                  status=400 if form.errors else 200)


@host_required
def game_contents(request: HttpRequest, slug: str) -> HttpResponse:
    game = get_object_or_404(Game, slug=slug)
    return _edit_contents(request, _("Contents of %(game)s") % {"game": game.display_title},
                          contents.template_of(game), lambda lines: contents.set_game_items(game, lines),
                          game.get_absolute_url())


@host_required
def copy_contents(request: HttpRequest, pk: int) -> HttpResponse:
    copy = _copy(pk)
    if request.method == "POST" and "reset" in request.POST:
        contents.reset_copy(copy)
        messages.success(request, _("This box holds its game's contents again."))
        return redirect("boxes:count", copy.pk)
    return _edit_contents(request, _("Contents of the box on shelf %(shelf)s") % {"shelf": copy.shelf},
                          contents.contents_of(copy), lambda lines: contents.set_copy_items(copy, lines),
                          f"{_url('boxes:count', copy.pk)}", {"copy": copy, "own_list": contents.has_own_list(copy)})


def _url(name: str, *args) -> str:
    from django.urls import reverse

    return reverse(name, args=args)


# -- guests --------------------------------------------------------------------------------

def _guest(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    copy = _copy(pk)
    form_class = GuestMissingForm if kind == GuestReport.Kind.MISSING else GuestFoundForm
    form = form_class(request.POST or None, request.FILES or None)
    if request.method == "POST":
        refusal = limits.check(request, "boxes-guest-report", per_person=GUEST_RATE_PERSON,
                               per_address=GUEST_RATE_ADDRESS)
        if refusal is not None:
            return refusal
        if form.is_valid():
            photo = form.cleaned_data.get("photo")
            if photo and media.sniff(guests._head(photo)) not in ("image/png", "image/jpeg", "image/webp"):
                form.add_error("photo", _("A photo as JPEG, PNG or WebP, please."))
            else:
                try:
                    guests.report(copy, kind, form.cleaned_data["description"],
                                  form.cleaned_data.get("belongs_to", ""), photo)
                except BoxError as exc:
                    form.add_error(None, str(exc))
                else:
                    return render(request, "boxes/guest_thanks.html", {"copy": copy, "kind": kind})
    return render(request, "boxes/guest_report.html", {"copy": copy, "form": form, "kind": kind},
                  status=400 if form.errors else 200)


def guest_missing(request: HttpRequest, pk: int) -> HttpResponse:
    return _guest(request, pk, GuestReport.Kind.MISSING)


def guest_found(request: HttpRequest, pk: int) -> HttpResponse:
    return _guest(request, pk, GuestReport.Kind.FOUND)


@host_required
def guest_reports(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        pk = _int(request.POST.get("report"))
        if pk is None or not GuestReport.objects.filter(pk=pk).exists():
            raise Http404
        if request.POST.get("action") == "confirm":
            guests.confirm(pk, request.user, blocking=request.POST.get("blocking") == "1")
            messages.success(request, _("Report confirmed."))
        else:
            guests.dismiss(pk, request.user)
            messages.success(request, _("Report dismissed."))
        return redirect("boxes:reports")
    return render(request, "boxes/reports.html", {"reports": list(guests.pending()[:100])})


def item_picture(request: HttpRequest, pk: int) -> HttpResponse:
    """A contents item's picture: shown to anyone (it is the game's, not a guest's)."""
    item = get_object_or_404(ContentItem, pk=pk)
    if not item.picture:
        raise Http404
    return media.serve(request, item.picture)


@host_required
def report_photo(request: HttpRequest, pk: int) -> HttpResponse:
    row = get_object_or_404(GuestReport, pk=pk)
    if not row.photo:
        raise Http404
    return media.serve(request, row.photo)


# -- exports -------------------------------------------------------------------------------

@host_required
def missing_csv(request: HttpRequest) -> HttpResponse:
    response = csv_response("missing-parts.csv")
    reports.write_missing(response)
    return response


@host_required
def not_counted_csv(request: HttpRequest) -> HttpResponse:
    months = _int(request.GET.get("mois"))
    months = months if months is not None and 1 <= months <= 120 else 12
    response = csv_response(f"not-counted-{months}-months.csv")
    reports.write_not_counted(response, months)
    return response
