"""The shelf check's pages (the hosts'): the list of checks and the start form,
the phone page that scans, the scan itself (JSON for the page's script, a form
post without it), a title search for a label the camera cannot read, the
report at the end with its one-tap corrections, and finishing."""

from __future__ import annotations

import json

from django.contrib import messages
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from boxes import shelfcheck, shelfreport
from boxes.access import host_required
from boxes.errors import BoxError
from boxes.models import ShelfCheck
from catalog.collection.models import Game
from catalog.shelves.models import Copy
from ludo import limits

SCAN_RATE_PERSON = (240, 60.0)  # a box every quarter second, for a minute
SCAN_RATE_ADDRESS = (600, 60.0)  # a few hosts' phones behind the house's one address
LARGEST_SCAN = 4096  # bytes of a scan's body; a label's address is ~80 characters
FOUND_AT_MOST = 8
LONGEST_SHELF = 6  # ABC123, the longest shelf code the catalogue takes (catalog.shelves.models)


def _check(pk: int) -> ShelfCheck:
    return get_object_or_404(ShelfCheck.objects.select_related("started_by", "finished_by"), pk=pk)


def _int(raw) -> int | None:
    raw = str(raw or "").strip()
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 9 else None


def _shelf_prefix(raw) -> str:
    """A shelf or the start of one as typed ("d5"), else nothing (no stray character
    reaches a query or an address)."""
    shelf = str(raw or "").strip().upper()[:LONGEST_SHELF]
    return shelf if shelf.isascii() and shelf.isalnum() else ""


def _decoder_url() -> str | None:
    """The JS QR decoder's address, or None where node-deps was not installed."""
    try:
        return static("vendor/jsqr/jsQR.js")
    except ValueError:  # the manifest of collected static files has no such file
        return None


@host_required
def checks(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        try:
            check = shelfcheck.start(request.user, request.POST.get("scope", "")[:200])
        except BoxError as exc:
            messages.error(request, str(exc))
            return redirect("boxes:shelf_checks")
        return redirect("boxes:shelf_scanner", check.pk)
    rows = list(ShelfCheck.objects.select_related("started_by", "finished_by")[:30])
    return render(request, "boxes/shelf_checks.html", {
        "in_progress": [c for c in rows if not c.finished], "finished": [c for c in rows if c.finished]})


@host_required
def scanner(request: HttpRequest, pk: int) -> HttpResponse:
    check = _check(pk)
    if check.finished:
        return redirect("boxes:shelf_report", check.pk)
    shelf = _shelf_prefix(request.GET.get("rayon"))
    return render(request, "boxes/shelf_scanner.html", {
        "check": check, "shelf": shelf, "decoder": _decoder_url(),
        "tally": shelfcheck.tally(check, shelf) if shelf and _standing(check, shelf) else None})


def _standing(check: ShelfCheck, shelf: str) -> bool:
    try:
        shelfcheck.standing_shelf(check, shelf)
    except BoxError:
        return False
    return True


def _json_error(message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": message}, status=status, json_dumps_params={"ensure_ascii": False})


@require_POST
@host_required
def scan(request: HttpRequest, pk: int) -> HttpResponse:
    wants_json = request.content_type == "application/json"
    refusal = limits.check(request, "boxes-shelf-scan", per_person=SCAN_RATE_PERSON,
                           per_address=SCAN_RATE_ADDRESS)
    if refusal is not None:
        return refusal
    check = _check(pk)
    if _int(request.META.get("CONTENT_LENGTH")) is None or int(request.META["CONTENT_LENGTH"]) > LARGEST_SCAN:
        return _json_error(_("A scan is a label's few words, not a file."), 413)
    if wants_json:
        try:
            body = json.loads(request.body)
        except (ValueError, UnicodeDecodeError):
            body = None
        if not isinstance(body, dict) or not isinstance(body.get("text"), str) \
                or not isinstance(body.get("shelf"), str):
            return _json_error(_("A scan says what was read and at which shelf."), 400)
        # What the camera read, unless the page says the host typed it (a box number then will do).
        text, shelf, typed = body["text"], body["shelf"], body.get("typed") is True
    else:  # the page without its script: what the host typed
        text, shelf, typed = request.POST.get("text", ""), request.POST.get("shelf", ""), True
    try:
        verdict = shelfcheck.scan(check.pk, request.user, text, shelf, typed=typed)
    except BoxError as exc:
        if wants_json:
            return _json_error(str(exc), 409 if check.finished or _is_finished(check.pk) else 400)
        messages.error(request, str(exc))
        return redirect(_scanner_at(check, shelf))
    if wants_json:
        return JsonResponse(verdict.as_json(), json_dumps_params={"ensure_ascii": False})
    said = f"{verdict.message} · {verdict.title or verdict.note}"
    (messages.success if verdict.kind == "ok" else messages.warning)(request, said)
    return redirect(_scanner_at(check, verdict.shelf))


def _scanner_at(check: ShelfCheck, shelf: str) -> str:
    shelf = _shelf_prefix(shelf)
    return reverse("boxes:shelf_scanner", args=[check.pk]) + (f"?rayon={shelf}" if shelf else "")


def _is_finished(pk: int) -> bool:
    return ShelfCheck.objects.filter(pk=pk, state=ShelfCheck.State.FINISHED).exists()


@host_required
def find(request: HttpRequest, pk: int) -> HttpResponse:
    """Boxes by their game's title, for a label the camera cannot read: the page
    scans the one the host taps (its number)."""
    _check(pk)
    words = " ".join("".join(ch for ch in request.GET.get("q", "") if ch.isprintable()).split())[:80]
    if len(words) < 2:
        return JsonResponse({"boxes": []})
    named = Q(title__icontains=words) | Q(title_fr__icontains=words) | Q(title_en__icontains=words)
    games = Game.objects.filter(named).order_by("title").values_list("id", flat=True)[:FOUND_AT_MOST]
    boxes = Copy.objects.filter(game_id__in=list(games)).select_related("game").order_by("game__title", "shelf")
    return JsonResponse({"boxes": [{"copy": c.pk, "title": c.game.display_title, "shelf": c.shelf}
                                   for c in boxes[:FOUND_AT_MOST]]}, json_dumps_params={"ensure_ascii": False})


@host_required
def tally(request: HttpRequest, pk: int) -> HttpResponse:
    """Seen / expected on the shelf the host just said they stand at."""
    check = _check(pk)
    try:
        shelf = shelfcheck.standing_shelf(check, request.GET.get("rayon", "")[:8])
    except BoxError as exc:
        return _json_error(str(exc), 400)
    return JsonResponse(shelfcheck.tally(check, shelf))


@host_required
def report(request: HttpRequest, pk: int) -> HttpResponse:
    check = _check(pk)
    shelf = _shelf_prefix(request.GET.get("rayon"))
    found = shelfreport.report(check, shelf)
    said, move, back = (_("seen on %(here)s, catalogue says %(there)s (box %(n)s)"),
                        _("Move to %(here)s in the catalogue"), _("Put back on %(there)s"))
    for scan in found.misplaced_rows:  # the words of a row, without a template tag per row
        words = {"here": scan.shelf, "there": scan.copy.shelf, "n": scan.copy_id}
        scan.said, scan.move_label, scan.back_label = said % words, move % words, back % words
    return render(request, "boxes/shelf_report.html", {"report": found, "check": check, "shelf": shelf})


@require_POST
@host_required
def correct(request: HttpRequest, pk: int) -> HttpResponse:
    check = _check(pk)
    copy_id = _int(request.POST.get("copy"))
    action = request.POST.get("action", "")
    if copy_id is None:
        raise Http404
    try:
        if action == "missing":
            shelfcheck.mark_missing(check.pk, request.user, copy_id)
            messages.success(request, _("Marked missing: the box is in quarantine."))
        else:
            done = shelfcheck.correct(check.pk, request.user, copy_id, action)
            messages.success(request, _("Catalogue corrected: the box is now on %(shelf)s.") % {
                "shelf": done.shelf_after} if action == "move" else
                _("Noted: the box goes back to %(shelf)s.") % {"shelf": done.shelf_after})
    except BoxError as exc:
        messages.error(request, str(exc))
    return redirect(reverse("boxes:shelf_report", args=[check.pk]) + _keep_filter(request))


def _keep_filter(request: HttpRequest) -> str:
    shelf = _shelf_prefix(request.POST.get("rayon"))
    return f"?rayon={shelf}" if shelf else ""


@require_POST
@host_required
def finish(request: HttpRequest, pk: int) -> HttpResponse:
    check = _check(pk)
    try:
        shelfcheck.finish(check.pk, request.user)
    except BoxError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Shelf check finished."))
    return redirect("boxes:shelf_report", check.pk)
