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


def script_strings(client, path):
    page = client.get(path).get_data(as_text=True)
    return json.loads(re.search(r'<script type="application/json" id="i18n">(.*?)</script>', page, re.S).group(1))


def test_script_strings_are_translated_in_the_page(client):
    strings = script_strings(client, "/?lang=fr")
    assert strings["Reconnecting…"] == "Reconnexion…"
    assert strings["%(name)s rolled %(result)s"] == "%(name)s a fait %(result)s"
    assert script_strings(client, "/?lang=en") == {}, "English needs no catalogue: the key is the text"


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
    assert [translations._block_key(block) for block in blocks] == [None, ("One", None), ("Two %(n)s", None), None]
    assert blocks[2] == '#, python-format\nmsgid "Two %(n)s"\nmsgstr "Deux %(n)s"'
