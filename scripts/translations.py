"""Brings the French catalogues in line with the code: `./manage.sh strings`.

Two Babel domains: "messages" (the server: Python and templates, babel.cfg) and "js" (the
browser's scripts, babel-js.cfg). For each, this extracts the strings, appends the new ones at
the END of companion/translations/fr/LC_MESSAGES/<domain>.po with an empty translation, drops
the ones the code no longer uses, and lists what still needs French. Every other entry is kept
byte for byte: the .po files merge by union across branches (.gitattributes), which only works
while nobody reorders or rewraps them, as `pybabel update` would.

French typography: a no-break space (U+00A0) goes before « ! ? : ; » and inside « », so a
line never starts with a lone mark, and the apostrophe is the typographic one (’, U+2019); `french_spacing` puts it in the French msgstr lines
(`tests/test_i18n.py` checks every msgstr).

`--check` changes nothing and exits 1 when a catalogue is out of date.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "companion" / "translations"
LANGUAGES = ("fr",)
DOMAINS = {
    # Plural: the Python rules' Plural(singular, plural) and the browser's tn(singular, plural, count).
    "messages": ("babel.cfg", {**DEFAULT_KEYWORDS, "Plural": (1, 2)}),
    "js": ("babel-js.cfg", {"t": None, "N_": None, "said": None, "tn": (1, 2)}),  # said: companion/replay.py
}


NBSP = "\u00a0"  # the one no-break space of the French catalogues (not U+202F: older phone fonts lack it)
_SPACE_BEFORE = re.compile(r" ([!?:;»])")
_SPACE_AFTER = re.compile(r"« ")
_GLUED = re.compile(r"(?<=[^\W_])([!?;»])(?![\w=&/])")  # "Piouuu!" -> "Piouuu !" (never in "?lang=")
_GLUED_OPEN = re.compile(r"«(?=[^\s\u00a0])")
_APOSTROPHE = re.compile(r"(?<=[^\W\d_])'(?=[^\W\d_])")  # l'hôte -> l’hôte; markup's quotes (href='/t') stay
APOSTROPHE = "\u2019"


def french_spacing(text: str) -> str:
    """One msgstr (or one of its quoted lines) with French spacing: a no-break space before
    « ! ? ; » (added where missing, replacing an ordinary space), before « : » where a space
    was written (a colon glued to a word is technical: http://, 17:00), and inside « »; and
    the typographic apostrophe after a letter (l’hôte)."""
    text = _SPACE_BEFORE.sub(NBSP + r"\1", text)
    text = _SPACE_AFTER.sub("«" + NBSP, text)
    text = _GLUED.sub(NBSP + r"\1", text)
    text = _APOSTROPHE.sub(APOSTROPHE, text)
    return _GLUED_OPEN.sub("«" + NBSP, text)


def french_spacing_po(text: str) -> str:
    """A French .po file with `french_spacing` applied to its msgstr lines only (msgids,
    comments and the line layout stay as they are, for the union merge); a space that ends
    one quoted line before a mark that starts the next becomes a no-break space too."""
    lines = text.split("\n")
    in_msgstr = False
    for number, line in enumerate(lines):
        bare = line.removeprefix("#~ ")
        if bare.startswith("msgstr"):
            in_msgstr = number == 0 or lines[number - 1] != 'msgid ""'  # the header is no text
        elif not bare.startswith('"'):
            in_msgstr = False
        if not in_msgstr or '"' not in line:
            continue
        head, _, quoted = line.partition('"')
        lines[number] = head + '"' + french_spacing(quoted)
        following = lines[number + 1] if number + 1 < len(lines) else ""
        if lines[number].endswith(' "') and re.match(r'\s*"[!?:;»]', following):
            lines[number] = lines[number][:-2] + NBSP + '"'
    return "\n".join(lines)


def po_path(domain: str, language: str = "fr") -> Path:
    return TRANSLATIONS / language / "LC_MESSAGES" / f"{domain}.po"


def key(message) -> tuple:
    """A catalogue entry's identity: its msgid (the singular of a plural), context and whether it
    has plural forms (a message that starts counting replaces its entry without plural forms)."""
    plural = isinstance(message.id, tuple)
    return (message.id[0] if plural else message.id, message.context, plural)


def extracted(domain: str) -> Catalog:
    """Every string the code of a domain shows, in the order of the files."""
    config, keywords = DOMAINS[domain]
    with open(ROOT / config, encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    catalog = Catalog()
    for path, line, message, comments, context in extract_from_dir(ROOT, method_map, options_map, keywords):
        catalog.add(message, None, [(path, line)], auto_comments=comments, context=context)
    return catalog


def _blocks(text: str) -> list[str]:
    """The entries of a .po file, each as its lines; an entry ends at a blank line or where the
    next one's comments or msgid start right after its msgstr (as a union merge can leave them)."""
    blocks, current, in_msgstr = [], [], False
    for line in text.splitlines():
        bare = line.removeprefix("#~ ")
        if not line.strip() or (in_msgstr and not bare.startswith(('"', "msgstr"))):
            if current:
                blocks.append("\n".join(current))
            current, in_msgstr = [], False
        if line.strip():
            current.append(line)
            in_msgstr = in_msgstr or bare.startswith("msgstr")
    if current:
        blocks.append("\n".join(current))
    return blocks


def _block_key(block: str) -> tuple | None:
    """The entry a block of a .po file holds; None for the header and obsolete entries."""
    entries = [message for message in read_po(io.StringIO(block)) if message.id]
    return key(entries[0]) if entries else None


def _entry_text(message, language: str) -> str:
    catalog = Catalog(locale=language)
    catalog.add(message.id, "" if not message.pluralizable else ("",) * catalog.num_plurals,
                context=message.context)
    out = io.BytesIO()
    write_po(out, catalog, omit_header=True, no_location=True)
    return out.getvalue().decode("utf-8").strip("\n")


def updated(domain: str, language: str = "fr") -> tuple[str, list[str], list[str]]:
    """The .po text brought up to date, the msgids added and the msgids dropped."""
    wanted = {key(message): message for message in extracted(domain) if message.id}
    path = po_path(domain, language)
    text = path.read_text(encoding="utf-8") if path.exists() else _header(domain, language)
    kept, dropped, present = [], [], set()
    for block in _blocks(text):
        entry = _block_key(block)
        if entry is None or entry in wanted:
            kept.append(block)
            present.add(entry)
        else:
            dropped.append(entry[0])
    added = [message for entry, message in wanted.items() if entry not in present]
    kept += [_entry_text(message, language) for message in added]
    text = "\n\n".join(kept) + "\n"
    if language == "fr":
        text = french_spacing_po(text)
    return text, [key(message)[0] for message in added], dropped


def untranslated(domain: str, language: str = "fr") -> list[str]:
    with open(po_path(domain, language), "rb") as handle:
        catalog = read_po(handle, locale=language)
    return [key(message)[0] for message in catalog
            if message.id and (message.fuzzy or not all(message.string if isinstance(message.string, tuple)
                                                         else [message.string]))]


def _header(domain: str, language: str) -> str:
    out = io.BytesIO()
    write_po(out, Catalog(locale=language, project="Companion", domain=domain))
    return out.getvalue().decode("utf-8")


def main(argv: list[str]) -> int:
    check = "--check" in argv
    outdated = False
    for domain in DOMAINS:
        for language in LANGUAGES:
            text, added, dropped = updated(domain, language)
            path = po_path(domain, language)
            changed = not path.exists() or text != path.read_text(encoding="utf-8")
            outdated |= bool(added or dropped)  # blank lines a union merge lost are only tidied
            if changed and not check:
                path.write_text(text, encoding="utf-8")
            for msgid in added:
                print(f"{path.relative_to(ROOT)}: new: {msgid}")
            for msgid in dropped:
                print(f"{path.relative_to(ROOT)}: no longer used: {msgid}")
            if path.exists():
                for msgid in untranslated(domain, language):
                    outdated = True
                    print(f"{path.relative_to(ROOT)}: needs a translation: {msgid}")
    return 1 if check and outdated else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
