from django.http import HttpRequest

from ludo.accounts import display_name


def site(request: HttpRequest) -> dict:
    return {"display_name": display_name(request)}
