"""French and English: the locale comes from ?lang=, then the lang cookie,
then the browser's Accept-Language."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Callable

from babel.messages.pofile import read_po
from babel.support import Translations
from flask import Flask, current_app, g, has_request_context, request
from flask_babel import Babel, get_locale, get_translations, gettext

from companion.catalogues import compile_catalogues
from companion.games import REGISTRY
from companion.games.base import Msg, MsgList, Plural

LANG_COOKIE = "lang"
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"


def select_locale() -> str:
    languages = current_app.config["LANGUAGES"]
    for candidate in (request.args.get("lang"), request.cookies.get(LANG_COOKIE)):
        if candidate in languages:
            return candidate
    return request.accept_languages.best_match(languages) or current_app.config["BABEL_DEFAULT_LOCALE"]


def current_language() -> str:
    """The language of the screen being answered ("en" outside a request)."""
    return str(get_locale() or "en") if has_request_context() else "en"


def translate(error) -> str:
    """A TableError or IllegalAction, in the viewer's language."""
    params = {name: translated_param(value) for name, value in error.params.items()}
    if isinstance(error.message, Plural):
        return error.message.translated(get_translations(), error.params) % params
    return gettext(error.message, **params)


def translated_param(value):
    """A message's parameter: a msgid (`Msg`) or a list of them (`MsgList`) in the viewer's language."""
    if isinstance(value, Msg):
        return gettext(value)
    if isinstance(value, MsgList):
        return value.sep.join(gettext(item) for item in value)
    return value


def _translated(language: str, domain: str) -> list:
    """The translated messages of a domain's .po in one language (read from the .po itself, so that it
    needs no compile step; English has none: the key is the text). A message with plural forms has a
    tuple as its id and its string (every form translated)."""
    path = TRANSLATIONS / language / "LC_MESSAGES" / f"{domain}.po"
    if not path.is_file():
        return []
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=language)
    return [message for message in catalog if message.id and not message.fuzzy
            and (all(message.string) if isinstance(message.id, tuple) else message.string)]


@lru_cache(maxsize=None)
def browser_catalogue(language: str) -> dict[str, str | list[str]]:
    """The browser's strings in one language, keyed by their English text: the Babel domain "js"
    (extracted from static/js, see scripts/translations.py). A message with plural forms is keyed by
    its singular and gives the list of its forms, in the order of the language's Plural-Forms (tn())."""
    return {message.id[0] if isinstance(message.id, tuple) else message.id:
            list(message.string) if isinstance(message.id, tuple) else message.string
            for message in _translated(language, "js")}


def script_translations(language: str) -> dict[str, str]:
    """The browser's messages in one language, for a bundle that writes them as such (bundles.py): by
    their English text, a counted message's singular and plural each (a language of two forms)."""
    translations = {}
    for message in _translated(language, "js"):
        if isinstance(message.id, str):
            translations[message.id] = message.string
        elif len(message.string) == 2:
            translations.update(zip(message.id, message.string))
    return translations


@lru_cache(maxsize=None)
def rules_catalogue(language: str) -> dict[str, str]:
    """The games' own messages in one language (their refusals, from the server's catalogue): the
    verify page replays the rules in the browser and quotes a refusal in the page's language. Only
    that page carries them (a table's page stays small)."""
    return {message.id: message.string for message in _translated(language, "messages")
            if isinstance(message.id, str) and any(path.startswith("companion/games/") for path, _ in message.locations)}


@lru_cache(maxsize=None)
def labels_catalogue(language: str, game: str | None = None) -> dict[str, str]:
    """The games' phase and stage labels and their components' names in one language (from the server's
    catalogue): a view carries its phase's and stage's label as a msgid (the kernel's ``phase_label``,
    ``stage_label``), the table's part of it the game's ``names``, and the screen translates them with
    t(), so that no screen keeps its own copy of a game's phases or names. Every game's, or one game's
    (what its screen adds to a bundled page's strings, companion/web/bundles.py)."""
    games = [REGISTRY[game]] if game else REGISTRY.values()
    labels = {label for rules in games for label in rules.phase_labels}
    labels |= {name for rules in games for kind in rules.names.values() for _, name in kind}
    return {message.id: message.string for message in _translated(language, "messages") if message.id in labels}


def browser_strings(with_rules: bool = False) -> dict[str, str]:
    """The catalogue of the page's language, for the page's JSON data block (static/js/i18n.js)."""
    language = current_language()
    strings = {**labels_catalogue(language), **browser_catalogue(language)}
    return {**rules_catalogue(language), **strings} if with_rules else strings


def page_strings(with_rules: bool = False) -> dict:
    """The strings a page carries: none for a bundled page (`Bundles.page_script` said so, before this is
    rendered), whose scripts come written in its language and bring what they could not write
    (companion/web/bundles.py); every string for a page that runs its modules as written."""
    return {} if g.get("page_bundle") else browser_strings(with_rules)


def every_language(app: Flask) -> Callable[[str, dict], dict[str, str]]:
    """A game's message in each language of the screens, for views that every screen shares
    (the screen picks its own): whom the game waits on, a withdrawal rule, an outcome.
    Parameters that are themselves msgids (`Msg`) are translated too."""
    catalogues = {language: Translations.load(app.root_path + "/translations", [language])
                  for language in app.config["LANGUAGES"]}

    @lru_cache(maxsize=2048)
    def cached(message: str, plural: tuple, params_json: str, msgids: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
        texts = []
        for language, catalogue in catalogues.items():
            params = {name: catalogue.gettext(value) if name in msgids else value
                      for name, value in json.loads(params_json).items()}
            text = Plural(message, *plural).translated(catalogue, params) if plural else catalogue.gettext(message)
            try:
                texts.append((language, text % params if params else text))
            except (KeyError, TypeError, ValueError):
                texts.append((language, text))
        return tuple(texts)

    def texts(message: str, params: dict) -> dict[str, str]:
        msgids = tuple(sorted(name for name, value in params.items() if isinstance(value, Msg)))
        plural = (message.plural, message.counter) if isinstance(message, Plural) else ()
        return dict(cached(str(message), plural, json.dumps(params, sort_keys=True, default=str), msgids))

    return texts


def init_app(app: Flask) -> None:
    compile_catalogues()
    Babel(app, locale_selector=select_locale,
          default_translation_directories=str(app.root_path + "/translations"))
    app.jinja_env.globals.update(page_strings=page_strings, current_locale=lambda: str(get_locale()))

    @app.after_request
    def remember_language(response):
        chosen = request.args.get("lang")
        if chosen in app.config["LANGUAGES"]:
            response.set_cookie(LANG_COOKIE, chosen, max_age=365 * 24 * 3600, samesite="Lax")
        return response
