"""French and English: every string the code or the templates show has a French translation."""

from __future__ import annotations

import json
import re

import pytest
from babel.messages.pofile import read_po

from scripts import translations
from scripts.translations import DOMAINS, extracted, key, po_path

FIX = "run ./manage.sh strings, then write the French of each new entry at the end of the .po"


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_every_extracted_string_has_a_french_translation(domain):
    wanted = {key(message) for message in extracted(domain) if message.id}
    with open(po_path(domain), "rb") as handle:
        french = {key(message): message for message in read_po(handle, locale="fr") if message.id}
    assert len(wanted) > 100
    missing = [entry for entry in wanted if entry not in french or not french[entry].string or french[entry].fuzzy]
    assert sorted(missing) == [], FIX
    assert sorted(entry for entry in french if entry not in wanted) == [], "stale translations: " + FIX


def test_catalogues_are_up_to_date_by_the_update_command():
    assert translations.main(["--check"]) == 0, FIX


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_placeholders_survive_translation(domain):
    with open(po_path(domain), "rb") as handle:
        for message in read_po(handle, locale="fr"):
            if message.id and isinstance(message.id, str):
                fields = set(re.findall(r"%\((\w+)\)s", message.id))
                assert fields == set(re.findall(r"%\((\w+)\)s", message.string)), message.id
            elif message.id:  # plural forms: the plural has every field; the singular may leave the count out
                fields = set(re.findall(r"%\((\w+)\)s", message.id[1]))
                assert fields == set(re.findall(r"%\((\w+)\)s", message.string[-1])), message.id
                assert set(re.findall(r"%\((\w+)\)s", message.string[0])) <= fields, message.id


@pytest.mark.parametrize("path", ["/", "/join", "/t/ZZZZ"])
def test_pages_switch_language_and_remember_it(client, path):
    french = client.get(path + ("&" if "?" in path else "?") + "lang=fr")
    assert 'lang="fr"' in french.get_data(as_text=True)
    assert "lang=fr" in french.headers.get("Set-Cookie", "")
    remembered = client.get(path)  # the test client keeps the cookie
    assert 'lang="fr"' in remembered.get_data(as_text=True)
    english = client.get(path + "?lang=en")
    assert 'lang="en"' in english.get_data(as_text=True)


def test_browser_language_is_the_default(client):
    page = client.get("/", headers={"Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5"})
    assert "Animer une table" in page.get_data(as_text=True)
    page = client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert "Host a table" in page.get_data(as_text=True)


# A page that runs its modules as written holds every string of the screens (a bundled page only those of
# its scripts: tests/test_first_load.py).
EVERY_STRING = pytest.mark.parametrize("app_config", [{"BUNDLED": False}])


def script_strings(client, path):
    page = client.get(path).get_data(as_text=True)
    return json.loads(re.search(r'<script type="application/json" id="i18n">(.*?)</script>', page, re.S).group(1))


@EVERY_STRING
def test_script_strings_are_translated_in_the_page(client):
    strings = script_strings(client, "/?lang=fr")
    assert strings["Reconnecting…"] == "Reconnexion…"
    assert strings["%(name)s rolled %(result)s"] == "%(name)s a fait %(result)s"
    assert script_strings(client, "/?lang=en") == {}, "English needs no catalogue: the key is the text"


@EVERY_STRING
def test_the_games_phase_labels_are_in_the_pages_catalogue(client):
    """A view names its phase with the kernel's label (a msgid): the screen translates it, keeping no copy."""
    from companion.games import REGISTRY

    strings = script_strings(client, "/?lang=fr")
    assert strings["choosing the cards in secret"] == "choisir les cartes en secret"
    assert all(label in strings for game in REGISTRY.values() for label in game.phase_labels
               if not game.setup.__module__.startswith("tests."))


@EVERY_STRING
def test_a_table_carries_its_games_names_and_the_page_translates_them(client):
    """The screens name a game's components from the table's part of the view (the game's ``names``),
    never from copies of their own; the page's catalogue translates the names that are msgids."""
    from tests.helpers import new_table

    table = client.get(f"/api/tables/{new_table(client, 'arkade', names=())['code']}").json["table"]
    assert (dict(table["names"]["tiles"])["engines"], dict(table["names"]["colours"])["cyan"]) == ("Engines", "cyan")
    strings = script_strings(client, "/?lang=fr")
    assert (strings["Engines"], strings["black"]) == ("Moteurs améliorés", "noir")
    assert all(name in strings for kind in table["names"].values() for _, name in kind)
    rayman = client.get(f"/api/tables/{new_table(client, 'rayman', names=())['code']}").json["table"]["names"]
    assert [name for name, _ in rayman["characters"]] == ["Rayman", "Globox", "Barbara", "Grand Minimus"]
    assert dict(rayman["boards"])["foret"] == "Forêt"


@EVERY_STRING
def test_script_strings_with_plural_forms_come_as_their_forms(client):
    strings = script_strings(client, "/?lang=fr")
    assert strings["%(count)s point"] == ["%(count)s point", "%(count)s points"]
    assert strings["Give back %(count)s card"] == ["Rendre %(count)s carte", "Rendre %(count)s cartes"]


def test_a_counted_script_string_is_extracted_with_its_plural(tmp_path, monkeypatch):
    script = tmp_path / "static" / "js" / "new.js"
    script.parent.mkdir(parents=True)
    script.write_text("import { tn } from './i18n.js';\nexport const shown = tn('%(count)s apple', '%(count)s apples', 2);\n")
    (tmp_path / "babel-js.cfg").write_text((translations.ROOT / "babel-js.cfg").read_text())
    monkeypatch.setattr(translations, "ROOT", tmp_path)
    assert [message.id for message in extracted("js") if message.id] == [("%(count)s apple", "%(count)s apples")]
    text, added, _ = translations.updated("js")
    assert added == ["%(count)s apple"]
    assert 'msgid_plural "%(count)s apples"\nmsgstr[0] ""\nmsgstr[1] ""' in text


def test_a_script_string_without_french_fails_the_catalogue_check(tmp_path, monkeypatch):
    script = tmp_path / "static" / "js" / "new.js"
    script.parent.mkdir(parents=True)
    script.write_text("import { t } from './i18n.js';\nexport const shown = t('A brand new sentence');\n")
    (tmp_path / "babel-js.cfg").write_text((translations.ROOT / "babel-js.cfg").read_text())
    monkeypatch.setattr(translations, "ROOT", tmp_path)
    assert [message.id for message in extracted("js") if message.id] == ["A brand new sentence"]
    text, added, dropped = translations.updated("js")
    assert added == ["A brand new sentence"] and "Connected" in dropped
    assert text.rstrip().endswith('msgid "A brand new sentence"\nmsgstr ""')


def test_the_update_keeps_entries_a_union_merge_glued_together():
    """A union merge can leave two entries without the blank line between them: each stays
    an entry of its own (nothing is dropped with its neighbour), and the update separates them."""
    glued = ('msgid ""\nmsgstr ""\n"Language: fr\\n"\n\nmsgid "One"\nmsgstr "Un"\n#, python-format\n'
             'msgid "Two %(n)s"\nmsgstr "Deux %(n)s"\n\n#~ msgid "Old"\n#~ msgstr "Vieux"\n')
    blocks = translations._blocks(glued)
    assert [translations._block_key(block) for block in blocks] == [None, ("One", None, False), ("Two %(n)s", None, False), None]
    assert blocks[2] == '#, python-format\nmsgid "Two %(n)s"\nmsgstr "Deux %(n)s"'


# French typography: a no-break space (U+00A0) before ! ? : ; and » and after «. A colon glued to
# a word is technical text (http://, a header name), which French keeps as it is.
SPACED_MARK = re.compile(r"[ \t\n]([!?:;»])|«[ \t\n]")
GLUED_MARK = re.compile(r"[^\W_]([!?;»])(?![\w=&/])|«[^\s\u00a0]")
SPACING_FIX = "French needs a no-break space (U+00A0) there: ./manage.sh strings puts it in"


def french_msgstrs(domain):
    with open(po_path(domain), "rb") as handle:
        for message in read_po(handle, locale="fr"):
            if message.id:
                yield from (message.string if isinstance(message.string, tuple) else (message.string,))


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_every_french_string_has_a_no_break_space_before_its_marks(domain):
    texts = list(french_msgstrs(domain))
    assert len(texts) > 100
    wrong = [text for text in texts if SPACED_MARK.search(text) or GLUED_MARK.search(text)]
    assert wrong == [], SPACING_FIX
    spaced = [text for text in texts if re.search("\u00a0[!?:;»]", text)]
    assert len(spaced) > 50, "the check above would pass on catalogues without a single mark"


# An apostrophe sits between two letters; markup's quotes (href='/t/K7QX') do not.
STRAIGHT_APOSTROPHE = re.compile(r"[^\W\d_]'[^\W\d_]")


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_every_french_string_uses_the_typographic_apostrophe(domain):
    texts = list(french_msgstrs(domain))
    assert [text for text in texts if STRAIGHT_APOSTROPHE.search(text)] == [], \
        "French writes ’ (U+2019): ./manage.sh strings puts it in"
    assert sum("\u2019" in text for text in texts) > 100, "the check above would pass on catalogues without one"


@pytest.mark.parametrize("wrong, right", [
    ("Jeu inconnu : %(game)s.", "Jeu inconnu\u00a0: %(game)s."),
    ("Piouuu! Encore ?", "Piouuu\u00a0! Encore\u00a0?"),
    ("pas « z »", "pas «\u00a0z\u00a0»"),
    ("l'hôte ; réessayez", "l\u2019hôte\u00a0; réessayez"),
    ("http:// et https:// ; /t/K7QX?lang=fr", "http:// et https://\u00a0; /t/K7QX?lang=fr"),
    ("l'hôte n'a pas lu « aujourd'hui »", "l\u2019hôte n\u2019a pas lu «\u00a0aujourd\u2019hui\u00a0»"),
    ("<a href='/t/K7QX'>", "<a href='/t/K7QX'>"),  # a quote after "=" is markup, not an apostrophe
])
def test_the_strings_command_puts_the_no_break_space_in(wrong, right):
    assert translations.french_spacing(wrong) == right
    assert not (SPACED_MARK.search(right) or GLUED_MARK.search(right))


def test_the_strings_command_spaces_msgstr_lines_only_and_keeps_the_layout():
    po = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
          'msgid "Unknown game: %(game)s."\nmsgstr "Jeu inconnu : %(game)s."\n\n'
          'msgid ""\n"A long one: wrapped"\nmsgstr ""\n"Une longue phrase "\n": coupée !"\n')
    spaced = translations.french_spacing_po(po)
    assert spaced.splitlines()[2] == '"Content-Type: text/plain; charset=utf-8\\n"'  # the header is not text
    assert 'msgstr "Jeu inconnu\u00a0: %(game)s."' in spaced and '"A long one: wrapped"' in spaced
    assert '"Une longue phrase\u00a0"\n": coupée\u00a0!"' in spaced
    assert len(spaced.splitlines()) == len(po.splitlines())


def test_rayman_rounds_are_manches_in_french():
    """The race's rounds read « Manche 3 » in French (only the card's printed « CE ROUND-CI » stays)."""
    french = {}
    for domain in DOMAINS:
        with open(po_path(domain), "rb") as handle:
            french.update({message.id: message.string for message in read_po(handle, locale="fr") if message.id})
    rayman = {message.id for domain in DOMAINS for message in extracted(domain)
              if any("rayman" in path for path, _ in message.locations) and isinstance(message.id, str)
              and re.search(r"\bround\b", words(message.id), re.I) and "other way round" not in message.id}
    assert len(rayman) > 20
    english = [french[msgid] for msgid in rayman
               if re.search(r"\bround\b", words(french[msgid]).replace("CE ROUND-CI", ""), re.I)]
    assert english == []
    assert all("manche" in french[msgid].lower() for msgid in rayman)


def words(text):
    """A message without its %(name)s fields (Rayman's is called %(round)s)."""
    return re.sub(r"%\(\w+\)s", "", text)


def test_scripts_write_a_labels_colon_through_the_catalogue():
    """`${t('Mode')}: …` would read « Mode: » in French: scripts write withColon(t('Mode')) instead."""
    scripts = sorted((translations.ROOT / "static" / "js").rglob("*.js"))
    by_hand = re.compile(r"\$\{t\([^`]*?\)\}: |\}: \$\{")
    found = [f"{path.name}: {match.group(0)}" for path in scripts for match in by_hand.finditer(path.read_text())]
    assert found == []
    with open(po_path("js"), "rb") as handle:
        french = {message.id: message.string for message in read_po(handle, locale="fr")}
    assert french["%(label)s:"] == "%(label)s\u00a0:"


def twice_given(lines: list[str]) -> list[str]:
    """The msgids of entries with a second msgstr (a union merge of two branches' translations of one
    entry leaves both, and the compiler silently keeps one of them)."""
    found, msgid, seen_msgstr = [], None, False
    for line in lines:
        if line.startswith("msgid "):
            msgid, seen_msgstr = line, False
        elif line.startswith("msgstr"):
            if seen_msgstr and not line.startswith("msgstr["):
                found.append(msgid)
            seen_msgstr = True
    return found


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_no_french_entry_is_translated_twice(domain):
    lines = po_path(domain).read_text(encoding="utf-8").splitlines()
    assert sum(line.startswith("msgstr") for line in lines) > 100
    assert twice_given(lines) == [], "keep one msgstr for each of these entries"


def test_an_entry_translated_twice_is_found():
    merged = ['msgid "Roll"', 'msgstr "Lancer"', 'msgstr "Lance"', "", 'msgid "Go"', 'msgstr ""', '"Vas-y"']
    assert twice_given(merged) == ['msgid "Roll"']
