from __future__ import annotations

from django import template
from django.utils.safestring import mark_safe

from catalog import text as textlib

register = template.Library()


@register.simple_tag
def page_html(page, query: str = ""):
    """A page's transcription as safe HTML: query words marked, noise set apart."""
    return mark_safe(textlib.highlight(page.text, query or "", page.language, page.noise))
