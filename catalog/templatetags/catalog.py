from __future__ import annotations

from django import template
from django.utils.safestring import mark_safe

from catalog import text as textlib

register = template.Library()


@register.simple_tag
def page_html(page, query: str = ""):
    """A page's transcription as safe HTML: query words marked, noise set apart."""
    return mark_safe(textlib.highlight(page.text, query or "", page.language, page.noise))


@register.simple_tag
def board_diagram(slug: str, position: str, caption: str = "", moves: str = ""):
    """A live diagram of ``position`` drawn from the engine, with its caption."""
    import logging

    from django.utils.html import format_html

    from catalog.rulebooks import diagrams

    position = position.replace("\\n", "\n")  # multi-line positions (Drekki) are written with \n
    try:
        svg = diagrams.render(slug, position, caption, moves)
    except diagrams.DiagramError as exc:
        logging.getLogger(__name__).warning("diagram not drawn: %s", exc)
        return format_html('<figure class="diagram diagram-missing"><figcaption>{}</figcaption></figure>', caption)
    return format_html('<figure class="diagram">{}<figcaption>{}</figcaption></figure>', mark_safe(svg), caption)
