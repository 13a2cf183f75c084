"""Translation outside a request: the catalogue's labels and the CLI's messages
come from the same French catalogue as the web shell (compiled ``.mo`` files,
made from the ``.po`` when missing: `companion.catalogues`)."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from babel.support import NullTranslations, Translations

from companion.catalogues import compile_catalogues

LANGUAGES = ("en", "fr")
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"


def _primary(lang: Any) -> str | None:
    if not isinstance(lang, str) or len(lang) > 32:
        return None
    return lang.strip().replace("-", "_").split("_")[0].split(".")[0].lower()


def is_supported(lang: Any) -> bool:
    """True for English or French in any spelling (``fr``, ``fr-CA``, ``fr_FR.UTF-8``)."""
    return _primary(lang) in LANGUAGES


def language(lang: Any) -> str:
    """``"fr"`` for French in any spelling, ``"en"`` for anything else."""
    primary = _primary(lang)
    return primary if primary in LANGUAGES else "en"


def environment_language(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language, as gettext picks it (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)."""
    environ = os.environ if environ is None else environ
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(variable, "")
        if value:
            return language(value.split(":")[0])
    return "en"


@lru_cache(maxsize=None)
def _translations(lang: str) -> NullTranslations:
    if lang == "en":
        return NullTranslations()
    compile_catalogues()
    return Translations.load(str(TRANSLATIONS), [lang], domain="messages")


def translate(lang: str, message: str, **params: Any) -> str:
    translations = _translations(language(lang))
    text = message.translated(translations, params) if hasattr(message, "plural") else translations.gettext(message)
    return text % params if params else text


def translate_error(error: Any, lang: str) -> str:
    """An error with ``message`` and ``params``; params that are such errors
    themselves (a bad id inside a file) are translated too."""
    params = {name: translate_error(value, lang) if hasattr(value, "message") and hasattr(value, "params")
              else value for name, value in error.params.items()}
    return translate(lang, error.message, **params)


# The French names of characters, as facts: the names Nintendo's French games and sites give them
# (Super Smash Bros. Ultimate's roster, then Mario, Zelda, Animal Crossing and Splatoon), keyed by
# the English name `companion.amiibo.facts` uses. A character missing here keeps its English name
# in French, and says so (`character_name`).
FRENCH_NAMES: dict[str, str] = {
    # Super Smash Bros. Ultimate: the names identical in both languages are listed too, as facts.
    "Mario": "Mario", "Luigi": "Luigi", "Peach": "Peach", "Yoshi": "Yoshi", "Rosalina & Luma": "Harmonie & Luma",
    "Bowser": "Bowser", "Bowser Jr.": "Bowser Jr.", "Wario": "Wario", "Donkey Kong": "Donkey Kong",
    "Diddy Kong": "Diddy Kong", "Daisy": "Daisy", "Piranha Plant": "Plante Piranha", "King K. Rool": "King K. Rool",
    "Link": "Link", "Zelda": "Zelda", "Ganondorf": "Ganondorf", "Villager": "Villageois", "Isabelle": "Marie",
    "Fox": "Fox", "Falco": "Falco", "Wolf": "Wolf", "Samus": "Samus", "Ridley": "Ridley",
    "Dark Samus": "Samus sombre", "Captain Falcon": "Captain Falcon", "Olimar": "Olimar", "Little Mac": "Little Mac",
    "Wii Fit Trainer": "Entraîneuse Wii Fit", "Pit": "Pit", "Dark Pit": "Pit maléfique", "Palutena": "Palutena",
    "Mr. Game & Watch": "Mr. Game & Watch", "R.O.B.": "R.O.B.", "Duck Hunt": "Duo Duck Hunt",
    "Ice Climbers": "Ice Climbers", "Mii Brawler": "Boxeur Mii", "Mii Swordfighter": "Épéiste Mii",
    "Mii Gunner": "Tireur Mii", "Inkling": "Inkling", "Min Min": "Min Min", "Ivysaur": "Herbizarre",
    "Charizard": "Dracaufeu", "Squirtle": "Carapuce", "Pikachu": "Pikachu", "Jigglypuff": "Rondoudou",
    "Mewtwo": "Mewtwo", "Pichu": "Pichu", "Lucario": "Lucario", "Greninja": "Amphinobi", "Incineroar": "Félinferno",
    "Pokémon Trainer": "Dresseur de Pokémon", "Kirby": "Kirby", "Meta Knight": "Meta Knight",
    "King Dedede": "Roi Dadidou", "Marth": "Marth", "Ike": "Ike", "Lucina": "Lucina", "Robin": "Daraen", "Roy": "Roy",
    "Corrin": "Corrin", "Chrom": "Chrom", "Byleth": "Byleth", "Shulk": "Shulk", "Pyra": "Pyra", "Mythra": "Mythra",
    "Ness": "Ness", "Lucas": "Lucas", "Sonic": "Sonic", "Bayonetta": "Bayonetta", "Pac-Man": "Pac-Man",
    "Kazuya": "Kazuya", "Mega Man": "Mega Man", "Ryu": "Ryu", "Ken": "Ken", "Cloud": "Cloud",
    "Sephiroth": "Sephiroth", "Hero": "Héros", "Snake": "Snake", "Simon": "Simon", "Richter": "Richter",
    "Joker": "Joker", "Banjo & Kazooie": "Banjo & Kazooie", "Terry": "Terry", "Steve": "Steve", "Alex": "Alex",
    "Sora": "Sora", "Dr. Mario": "Dr. Mario", "Toon Link": "Link cartoon", "Young Link": "Link enfant",
    "Sheik": "Sheik", "Zero Suit Samus": "Samus sans armure",
    # Super Mario
    "Toad": "Toad", "Waluigi": "Waluigi", "Goomba": "Goomba", "Boo": "Boo", "Koopa Troopa": "Koopa Troopa",
    "Poochy": "Poochy", "Baby Mario": "Bébé Mario", "Baby Luigi": "Bébé Luigi", "Birdo": "Birdo",
    "Metal Mario": "Mario de métal", "Pink Gold Peach": "Peach d'or rose",
    # The Legend of Zelda
    "Midna": "Midona", "Daruk": "Daruk", "Urbosa": "Urbosa", "Mipha": "Mipha", "Revali": "Revali", "Riju": "Riju",
    "Sidon": "Sidon", "Tulin": "Tulin", "Yunobo": "Yunobo", "Guardian": "Gardien", "Bokoblin": "Bokoblin",
    "Toon Zelda": "Zelda cartoon",
    # Animal Crossing
    "K.K. Slider": "Kéké Laglisse", "Tom Nook": "Tom Nook", "Timmy & Tommy": "Méli & Mélo", "Mabel": "Layette",
    "Reese": "Risette", "Cyrus": "Serge", "Digby": "Max", "Rover": "Charly", "Resetti": "M. Resetti",
    "Blathers": "Thibou", "Celeste": "Céleste", "Kicks": "Blaise", "Kapp'n": "Amiral", "Lottie": "Lisa",
    # Splatoon
    "Callie": "Ayo", "Marie": "Oly", "Pearl": "Perle", "Marina": "Coralie", "Octoling": "Octaling",
    "Smallfry": "Petit Fri", "Shiver": "Angie", "Frye": "Effie", "Big Man": "Raimi",
}


def character_name(english: str, lang: str) -> tuple[str, str]:
    """``(name, source)`` of a character in ``lang``: ``"fact"`` when the project knows the name in
    that language, ``"english"`` when French falls back to the English name."""
    if language(lang) == "en":
        return english, "fact"
    french = FRENCH_NAMES.get(english)
    return (french, "fact") if french else (english, "english")
