"""Translation outside a request: the catalogue's labels and the CLI's messages
come from the same French catalogue as the web shell (compiled ``.mo`` files;
without them, English)."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from babel.support import NullTranslations, Translations

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
    return Translations.load(str(TRANSLATIONS), [lang], domain="messages")


def translate(lang: str, message: str, **params: Any) -> str:
    text = _translations(language(lang)).gettext(message)
    return text % params if params else text


def translate_error(error: Any, lang: str) -> str:
    """An error with ``message`` and ``params``; params that are such errors
    themselves (a bad id inside a file) are translated too."""
    params = {name: translate_error(value, lang) if hasattr(value, "message") and hasattr(value, "params")
              else value for name, value in error.params.items()}
    return translate(lang, error.message, **params)
