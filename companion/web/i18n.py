"""French and English: the locale comes from ?lang=, then the lang cookie,
then the browser's Accept-Language."""

from __future__ import annotations

from flask import Flask, current_app, has_request_context, request
from flask_babel import Babel, get_locale, gettext

from companion.games.base import Msg

LANG_COOKIE = "lang"


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
    params = {name: gettext(value) if isinstance(value, Msg) else value for name, value in error.params.items()}
    return gettext(error.message, **params)


def init_app(app: Flask) -> None:
    from companion.web.js_strings import js_strings

    Babel(app, locale_selector=select_locale,
          default_translation_directories=str(app.root_path + "/translations"))
    app.jinja_env.globals.update(js_strings=js_strings, current_locale=lambda: str(get_locale()))

    @app.after_request
    def remember_language(response):
        chosen = request.args.get("lang")
        if chosen in app.config["LANGUAGES"]:
            response.set_cookie(LANG_COOKIE, chosen, max_age=365 * 24 * 3600, samesite="Lax")
        return response
