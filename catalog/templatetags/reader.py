"""Template helpers of the rulebook reader: a section as HTML."""

from __future__ import annotations

from django import template
from django.utils.safestring import mark_safe

from catalog.rulebooks import markdown as md

register = template.Library()


@register.simple_tag
def section_html(section, mark=None):
    """A section's body, its Markdown rendered, every other character escaped."""
    return mark_safe(md.render(section.body, mark))


@register.simple_tag
def section_heading(section, mark=None):
    return mark_safe(md.inline(section.label, mark))
