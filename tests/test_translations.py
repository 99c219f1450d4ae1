"""The translation catalogues in locale/: complete, not fuzzy, compiled, up to date; and
every French text we write (catalogue, rules pages, lessons) typeset the French way.

msgids are English; the French catalogue translates every one of them and the
English one leaves them empty (English falls back to the msgid). The compiled
.mo files are committed, because a fresh machine may have no gettext: each must
hold exactly what its .po says. The .po and .mo readers below are small and
dependency-free on purpose.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import struct
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from ludo.typography import french as typeset
from tests.conftest import require

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
DOMAINS = ("django", "djangojs")
# The same command as `make messages`, so the test sees what a developer sees.
MAKEMESSAGES_IGNORES = (".venv/*", "var/*", "tests/*", "bench/*", "staticfiles/*", "artifacts/*", "node_modules/*")


@dataclass
class Entry:
    msgid: str
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False

    @property
    def key(self) -> str:
        """The key gettext uses in a .mo file: context EOT msgid [NUL plural]."""
        key = self.msgid if self.msgctxt is None else f"{self.msgctxt}\x04{self.msgid}"
        return key if self.msgid_plural is None else f"{key}\x00{self.msgid_plural}"


def parse_po(path: Path) -> list[Entry]:
    """Entries of a .po file, the header (msgid "") included."""
    entries: list[Entry] = []
    current: Entry | None = None
    flags: set[str] = set()
    target: tuple[str, int | None] | None = None
    obsolete = False

    def finish() -> None:
        nonlocal current, flags, obsolete
        if current is not None:
            current.flags, current.obsolete = flags, obsolete
            entries.append(current)
        current, flags, obsolete = None, set(), False

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if line.startswith("#~"):
            obsolete = True
            line = line[2:].strip()
        elif line.startswith("#,"):
            if current is not None and current.msgstr:
                finish()
            flags |= {flag.strip() for flag in line[2:].split(",")}
            continue
        elif line.startswith("#") or not line:
            continue
        match = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*")$', line)
        if match:
            keyword, index, literal = match.group(1), match.group(2), match.group(3)
            if keyword in ("msgctxt", "msgid") and current is not None and current.msgstr:
                finish()
            if current is None:
                current = Entry(msgid="")
            target = (keyword.split("[")[0], int(index) if index is not None else None)
            _append(current, target, _unquote(literal, path, number))
        elif line.startswith('"') and current is not None and target is not None:
            _append(current, target, _unquote(line, path, number))
        else:
            raise AssertionError(f"{path}:{number}: cannot read {raw!r}")
    finish()
    return entries


def _unquote(literal: str, path: Path, number: int) -> str:
    try:
        value = ast.literal_eval(literal)
    except (SyntaxError, ValueError):
        raise AssertionError(f"{path}:{number}: bad string {literal}") from None
    assert isinstance(value, str), f"{path}:{number}: bad string {literal}"
    return value


def _append(entry: Entry, target: tuple[str, int | None], text: str) -> None:
    keyword, index = target
    if keyword == "msgstr":
        slot = 0 if index is None else index
        entry.msgstr[slot] = entry.msgstr.get(slot, "") + text
    elif keyword == "msgid":
        entry.msgid += text
    elif keyword == "msgid_plural":
        entry.msgid_plural = (entry.msgid_plural or "") + text
    else:
        entry.msgctxt = (entry.msgctxt or "") + text


def parse_mo(path: Path) -> dict[str, str]:
    """key -> translation (plural forms joined by NUL), as msgfmt wrote them."""
    data = path.read_bytes()
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == 0x950412DE else ">"
    _magic, _revision, count, originals, translations = struct.unpack(order + "5I", data[:20])
    catalog: dict[str, str] = {}
    for i in range(count):
        length, offset = struct.unpack(order + "2I", data[originals + 8 * i : originals + 8 * i + 8])
        key = data[offset : offset + length].decode("utf-8")
        length, offset = struct.unpack(order + "2I", data[translations + 8 * i : translations + 8 * i + 8])
        catalog[key] = data[offset : offset + length].decode("utf-8")
    return catalog


def expected_mo(entries: list[Entry]) -> dict[str, str]:
    """What msgfmt puts in the .mo: non-fuzzy, non-obsolete entries with a translation."""
    catalog = {}
    for entry in entries:
        if entry.obsolete or "fuzzy" in entry.flags:
            continue
        forms = [entry.msgstr[i] for i in sorted(entry.msgstr)]
        if not any(forms):
            continue
        catalog[entry.key] = "\x00".join(forms)
    return catalog


def _without_pot_date(catalog: dict[str, str]) -> dict[str, str]:
    """msgfmt drops the header's POT-Creation-Date line; compare the rest."""
    header = "".join(line for line in catalog.get("", "").splitlines(True) if not line.startswith("POT-Creation-Date:"))
    return {**catalog, "": header}


def catalogues(language: str) -> list[Path]:
    return [p for d in DOMAINS if (p := LOCALE / language / "LC_MESSAGES" / f"{d}.po").exists()]


def test_it_has_french_and_english_catalogues():
    assert (LOCALE / "fr" / "LC_MESSAGES" / "django.po").exists()
    assert (LOCALE / "en" / "LC_MESSAGES" / "django.po").exists()


@pytest.mark.parametrize("language", ["fr", "en"])
def test_it_has_a_clean_header(language):
    for po in catalogues(language):
        header = parse_po(po)[0]
        assert header.msgid == "", f"{po}: the first entry must be the header"
        assert "fuzzy" not in header.flags, f"{po}: a fuzzy header is dropped by msgfmt (plural forms lost)"
        assert "charset=UTF-8" in header.msgstr[0], po
        assert "Plural-Forms:" in header.msgstr[0], po


def test_it_translates_every_french_entry():
    problems = []
    for po in catalogues("fr"):
        for entry in parse_po(po)[1:]:
            if entry.obsolete:
                continue
            where = f"{po.relative_to(ROOT)}: {entry.msgid[:60]!r}"
            if "fuzzy" in entry.flags:
                problems.append(f"{where} is fuzzy (check the translation, then remove the flag)")
            elif not entry.msgstr or not all(entry.msgstr.values()):
                problems.append(f"{where} has no French translation")
            elif "python-format" in entry.flags or "python-brace-format" in entry.flags:
                wanted = set(re.findall(r"%\(\w+\)[sdif]|\{\w*\}", entry.msgid + (entry.msgid_plural or "")))
                for text in entry.msgstr.values():
                    if set(re.findall(r"%\(\w+\)[sdif]|\{\w*\}", text)) - wanted:
                        problems.append(f"{where}: the translation uses a placeholder the msgid lacks")
    assert not problems, "Untranslated French UI text (run `make messages`, translate, `make compilemessages`):\n" + "\n".join(problems)


def test_it_keeps_french_marks_with_their_word_by_a_no_break_space():
    """A space that may break before ; : ! ? or inside « » leaves the mark alone at the
    start of a line on a phone: the French catalogue writes no-break spaces there."""
    problems = []
    for po in catalogues("fr"):
        for entry in parse_po(po)[1:]:
            problems += [f"{po.relative_to(ROOT)}: {text!r}"
                         for text in entry.msgstr.values() if typeset(text) != text]
    assert not problems, "French marks after a plain space (see ludo/typography.py):\n" + "\n".join(problems)


def french_texts_of(value):
    """The French texts of a lesson: every "fr" value, at any depth."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "fr" and isinstance(item, str):
                yield item
            else:
                yield from french_texts_of(item)
    elif isinstance(value, list):
        for item in value:
            yield from french_texts_of(item)


def test_the_french_rules_pages_and_lessons_follow_the_same_typography():
    pages = {page: page.read_text(encoding="utf-8") for page in sorted((ROOT / "templates").rglob("*.fr.html"))}
    assert pages
    problems = [str(page.relative_to(ROOT)) for page, text in pages.items() if typeset(text) != text]
    lessons = sorted((ROOT / "games" / "lessons").glob("*.json"))
    assert lessons
    for lesson in lessons:
        texts = french_texts_of(json.loads(lesson.read_text(encoding="utf-8")))
        problems += [f"{lesson.name}: {text!r}" for text in texts if typeset(text) != text]
    assert not problems, "French marks after a plain space (see ludo/typography.py):\n" + "\n".join(problems)


@pytest.mark.parametrize("language", ["fr", "en"])
def test_it_gives_every_plural_entry_as_many_forms_as_the_header_declares(language):
    """A missing form falls back to the English msgid at run time (French declares three:
    one, millions, other; 5 takes the third), silently, for every count that needs it."""
    problems = []
    for po in catalogues(language):
        entries = parse_po(po)
        declared = re.search(r"nplurals=(\d+)", entries[0].msgstr[0])
        assert declared, f"{po}: no nplurals in the header"
        forms = int(declared.group(1))
        for entry in entries[1:]:
            if entry.msgid_plural is None or entry.obsolete or not any(entry.msgstr.values()):
                continue
            if sorted(entry.msgstr) != list(range(forms)):
                problems.append(f"{po.relative_to(ROOT)}: {entry.msgid[:60]!r} has forms {sorted(entry.msgstr)}")
    assert not problems, f"Plural entries without their {language} forms:\n" + "\n".join(problems)


def test_it_leaves_english_entries_empty_so_the_msgid_shows():
    for po in catalogues("en"):
        filled = [e.msgid for e in parse_po(po)[1:] if not e.obsolete and any(e.msgstr.values())]
        assert not filled, f"{po}: msgids are English already; leave msgstr empty: {filled[:5]}"


@pytest.mark.parametrize("language", ["fr", "en"])
def test_it_commits_mo_files_that_match_their_po(language):
    for po in catalogues(language):
        mo = po.with_suffix(".mo")
        assert mo.exists(), f"{mo} is missing: run `make compilemessages` and commit it"
        compiled = _without_pot_date(parse_mo(mo))
        wanted = _without_pot_date(expected_mo(parse_po(po)))
        stale = sorted(k for k in set(wanted) | set(compiled) if wanted.get(k) != compiled.get(k))
        assert not stale, f"{mo} does not match {po.name}: run `make compilemessages`; differing: {stale[:5]}"


def test_it_serves_french_strings_from_the_compiled_catalogue(settings):
    from django.utils import translation

    with translation.override("fr"):
        assert translation.gettext("Log in") == "Connexion"
        assert translation.gettext("account/login/") == "compte/connexion/"
    with translation.override("en"):
        assert translation.gettext("Log in") == "Log in"


def test_it_has_every_ui_string_of_the_code_in_the_catalogue(tmp_path):
    """A copy of the project through `makemessages` yields no msgid the catalogue lacks."""
    require(shutil.which("xgettext") is not None and shutil.which("msgmerge") is not None, "gettext is not installed")
    copy = tmp_path / "project"
    skip = {".venv", ".git", "var", "staticfiles", "artifacts", "node_modules", ".pytest_cache", "__pycache__", "media"}
    shutil.copytree(ROOT, copy, ignore=lambda _dir, names: [n for n in names if n in skip or n.endswith(".egg-info")])
    command = [sys.executable, "manage.py", "makemessages", "-l", "fr", "--no-obsolete", "--no-location"]
    for pattern in MAKEMESSAGES_IGNORES:
        command += ["--ignore", pattern]
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}"}
    env.pop("REDIS_URL", None)
    for domain_args in ([], ["-d", "djangojs"]):
        result = subprocess.run(command + domain_args, cwd=copy, env=env, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
    problems = []
    for domain in DOMAINS:
        fresh_po = copy / "locale" / "fr" / "LC_MESSAGES" / f"{domain}.po"
        if not fresh_po.exists():
            continue
        committed_po = LOCALE / "fr" / "LC_MESSAGES" / f"{domain}.po"
        committed = {e.key for e in parse_po(committed_po)} if committed_po.exists() else set()
        for entry in parse_po(fresh_po):
            if entry.key not in committed:
                problems.append(f"{domain}: {entry.msgid[:70]!r}")
            elif "fuzzy" in entry.flags and entry.msgid:
                problems.append(f"{domain}: {entry.msgid[:70]!r} would become fuzzy")
    assert not problems, "UI strings missing from locale/ (run `make messages` and translate them):\n" + "\n".join(problems)


# The names xgettext looks for in Python (Django's makemessages keywords): a translation
# function imported under another name hides its strings from `make messages`, which then
# drops their French entries from the catalogue (--no-obsolete) without a word.
KNOWN_NAMES = {"_", "gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy", "pgettext",
               "pgettext_lazy", "npgettext", "npgettext_lazy"}
TRANSLATING = {"gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy", "pgettext",
               "pgettext_lazy", "npgettext", "npgettext_lazy"}


def test_translation_functions_are_imported_under_names_makemessages_reads():
    hidden = []
    for path in ROOT.glob("*/**/*.py"):
        if path.relative_to(ROOT).parts[0] in {".venv", "tests", "bench", "node_modules", "artifacts", "var"}:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "django.utils.translation":
                hidden += [f"{path.relative_to(ROOT)}: {a.name} as {a.asname}" for a in node.names
                           if a.name in TRANSLATING and a.asname and a.asname not in KNOWN_NAMES]
    assert not hidden, "strings behind these names never reach the catalogue:\n" + "\n".join(hidden)
