"""``{% box_notice game %}``: on a game's page, whether its boxes are incomplete or
not playable (nothing when all is well); the hosts get a link to count."""

from django import template

from boxes import status

register = template.Library()


@register.inclusion_tag("boxes/_notice.html", takes_context=True)
def box_notice(context, game):
    from boxes.access import is_host

    request = context.get("request")
    return {"notice": status.game_notice(game), "game": game,
            "host": bool(request and is_host(request.user))}


@register.inclusion_tag("boxes/_qr_help.html", takes_context=True)
def box_help(context, copy):
    from boxes.access import is_host

    request = context.get("request")
    return {"copy": copy, "host": bool(request and is_host(request.user))}
