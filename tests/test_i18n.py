"""French and English: every string the code or the templates show has a French translation."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from babel.messages.pofile import read_po

from tests.server import ROOT

PO = ROOT / "companion" / "translations" / "fr" / "LC_MESSAGES" / "messages.po"


def test_every_extracted_string_has_a_french_translation(tmp_path):
    template = tmp_path / "messages.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg", "-k", "N_",
                    "-o", str(template), "."], cwd=ROOT, check=True, capture_output=True)
    with open(template, "rb") as handle:
        wanted = {message.id for message in read_po(handle) if message.id}
    with open(PO, "rb") as handle:
        french = {message.id: message.string for message in read_po(handle, locale="fr") if message.id}
    assert len(wanted) > 100
    assert sorted(wanted - {k for k, v in french.items() if v}) == []
    assert not [m for m in french if m not in wanted], "stale translations: remove them"


def test_placeholders_survive_translation():
    with open(PO, "rb") as handle:
        for message in read_po(handle, locale="fr"):
            if message.id:
                for field in ("%(count)s", "%(code)s", "%(name)s", "%(action)s", "%(option)s"):
                    assert (field in message.id) == (field in message.string), message.id


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


def test_script_strings_are_translated_in_the_page(client):
    page = client.get("/?lang=fr").get_data(as_text=True)
    block = re.search(r'<script type="application/json" id="i18n">(.*?)</script>', page, re.S).group(1)
    strings = json.loads(block)
    assert strings["offline"] == "Connexion perdue — reconnexion…"
    assert strings["rolled"] == "%(name)s a fait %(result)s"
