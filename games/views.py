from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games import engines


def play(request: HttpRequest) -> HttpResponse:
    return render(request, "games/play.html", {"games": engines.all()})
