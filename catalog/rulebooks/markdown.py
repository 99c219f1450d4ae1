"""The small part of Markdown that rulebook text exports use, rendered as safe HTML.

Exports of rulebooks come with headings (``#``), emphasis (``**bold**``, ``*italic*``,
``_italic_``) and lists (``- item``, ``* item``, ``1. item``). Everything else is text:
every character that is not one of these marks is escaped, so that a rulebook can
never inject markup. Query words can be marked on the way (``<mark>``), by a
predicate that receives each word.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$")
_BULLET = re.compile(r"^[ \t]*[-*•–][ \t]+(.*)$")
_ORDERED = re.compile(r"^[ \t]*(\d{1,3})[.)][ \t]+(.*)$")
# Emphasis: ** or __ strong, * or _ emphasis; the content starts and ends with a non-space.
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1", re.DOTALL)
_EM = re.compile(r"(?<![\w*])([*_])(?=\S)(.+?)(?<=\S)\1(?![\w*])", re.DOTALL)
_STRAY = re.compile(r"\*{2,}|(?<!\w)__|__(?!\w)")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)

Marker = Callable[[str], bool]


def _words(text: str, mark: Marker | None) -> str:
    """Escape ``text``; words for which ``mark`` says yes go in <mark>."""
    if mark is None:
        return html.escape(text)
    out, pos = [], 0
    for m in _WORD.finditer(text):
        if mark(m.group()):
            out.append(html.escape(text[pos : m.start()]))
            out.append("<mark>" + html.escape(m.group()) + "</mark>")
            pos = m.end()
    out.append(html.escape(text[pos:]))
    return "".join(out)


def inline(text: str, mark: Marker | None = None) -> str:
    """One run of text with its emphasis rendered; unpaired marks are dropped."""
    out, pos = [], 0
    for m in _STRONG.finditer(text):
        out.append(_em(text[pos : m.start()], mark))
        out.append("<strong>" + _em(m.group(2), mark) + "</strong>")
        pos = m.end()
    out.append(_em(text[pos:], mark))
    return "".join(out)


def _em(text: str, mark: Marker | None) -> str:
    out, pos = [], 0
    for m in _EM.finditer(text):
        out.append(_plain(text[pos : m.start()], mark))
        out.append("<em>" + _plain(m.group(2), mark) + "</em>")
        pos = m.end()
    out.append(_plain(text[pos:], mark))
    return "".join(out)


def _plain(text: str, mark: Marker | None) -> str:
    return _words(_STRAY.sub("", text), mark).replace("\n", "<br>")


def plain(text: str) -> str:
    """The text without any Markdown mark (for titles, headings in lists)."""
    line = _HEADING.sub(r"\2", text.strip())
    line = _STRONG.sub(r"\2", line)
    line = _EM.sub(r"\2", line)
    return " ".join(_STRAY.sub("", line).split())


def _paragraphs(text: str) -> list[list[str]]:
    blocks: list[list[str]] = [[]]
    for line in text.split("\n"):
        if line.strip():
            blocks[-1].append(line.rstrip())
        elif blocks[-1]:
            blocks.append([])
    return [b for b in blocks if b]


def render(text: str, mark: Marker | None = None, heading_base: int = 3) -> str:
    """Block-level rendering: paragraphs, lists, headings (shifted to start at
    ``heading_base``), with line breaks kept inside a paragraph."""
    out: list[str] = []
    for block in _paragraphs(text):
        items: list[tuple[str, str]] = []  # (list kind, item text) while in a list
        para: list[str] = []

        def flush_para() -> None:
            if para:
                out.append("<p>" + inline("\n".join(para), mark) + "</p>")
                para.clear()

        def flush_list() -> None:
            if items:
                tag = items[0][0]
                opening = '<ol class="numbered">' if tag == "ol" else "<ul>"
                out.append(opening + "".join(f"<li>{inline(t, mark)}</li>" for _, t in items) + f"</{tag}>")
                items.clear()

        for line in block:
            heading = _HEADING.match(line)
            bullet = _BULLET.match(line)
            ordered = _ORDERED.match(line)
            if heading:
                flush_para()
                flush_list()
                level = min(6, heading_base + len(heading.group(1)) - 1)
                out.append(f"<h{level}>{inline(heading.group(2), mark)}</h{level}>")
            elif bullet and not _STRONG.match(line.strip()):
                flush_para()
                if items and items[0][0] != "ul":
                    flush_list()
                items.append(("ul", bullet.group(1)))
            elif ordered and (items or not para):
                flush_para()
                if items and items[0][0] != "ol":
                    flush_list()
                items.append(("ol", line.strip()))
            elif items:
                # A continuation line of the last item.
                kind, last = items[-1]
                items[-1] = (kind, last + "\n" + line.strip())
            else:
                para.append(line.strip() if not line.startswith("\t") else line)
        flush_para()
        flush_list()
    return "".join(out)
