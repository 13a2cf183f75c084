"""Option values as people read them, and back.

A choice shows its label; a list shows its known items by name (Arkade's colours and tiles,
Amiiboxe's references and criteria) in the screen's language, and other items as typed. What a
person types in the create form, in either language, becomes the ids the table stores, so a
French host's « bleu » is "blue" for every screen. Nothing here imports Flask: ``translate`` is
a screen's gettext, ``texts`` the table's every-language function (companion.web.i18n).
"""

from __future__ import annotations

import re
from typing import Any, Callable

from companion.games.base import N_, REGISTRY, Game, Option

Translate = Callable[[str], str]
Texts = Callable[[str, dict], dict[str, str]]
NO_ITEMS = N_("none")


def item_labels(game: Game, option: Option) -> dict[str, str]:
    """A list option's known items: id -> msgid."""
    labels = dict(option.item_labels)
    if (game.id, option.name) == ("amiiboxe", "reference"):
        labels.update(_amiiboxe_reference_labels())
    return labels


def _amiiboxe_reference_labels() -> dict[str, str]:
    # The references and criteria are the shell's data (the game receives them at setup).
    from companion.amiibo.criteria import CRITERIA, REFERENCES

    return {**{reference.id: reference.title for reference in REFERENCES.values()},
            **{criterion.id: criterion.wording for criterion in CRITERIA.values()}}


def shown_value(game: Game, option: Option, value: Any, translate: Translate) -> str:
    """An option's value as a screen shows it."""
    if option.kind == "choice":
        return translate(dict(option.labelled_choices()).get(value, value))
    if option.kind == "int":
        return str(value)
    items = [shown_item(item_labels(game, option), option.item_words, item, translate) for item in value or ()]
    return ", ".join(items)


def shown_item(labels: dict[str, str], words: bool, item: str, translate: Translate) -> str:
    if words:
        return " ".join(translate(labels[word]) if word in labels else word for word in item.split())
    return translate(labels[item]) if item in labels else item


def options_shown(game: Game, options: dict, texts: Texts) -> list[dict]:
    """Every option of a table with its value, each in every language: [{"name", "label", "value"}]."""
    shown = []
    for option in game.options:
        label = texts(option.label, {})
        value = {language: shown_value(game, option, options.get(option.name, option.default),
                                       lambda msgid, language=language: texts(msgid, {})[language])
                 or texts(NO_ITEMS, {})[language] for language in label}
        shown.append({"name": option.name, "label": label, "value": value})
    return shown


def stored_options(game_id: Any, raw_options: Any, texts: Texts) -> Any:
    """The options as the form sent them, each list item typed as a known name (in any language,
    any case) turned into its id; everything else as it came (the game's own checks follow)."""
    game = REGISTRY.get(game_id) if isinstance(game_id, str) else None
    if game is None or not isinstance(raw_options, dict):
        return raw_options
    stored = dict(raw_options)
    for option in game.options:
        labels = item_labels(game, option) if option.kind == "list" else {}
        if labels and isinstance(stored.get(option.name), list):
            names = _names(labels, texts)
            stored[option.name] = [stored_item(item, names, option.item_words) for item in stored[option.name]]
    return stored


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


def _names(labels: dict[str, str], texts: Texts) -> dict[str, str]:
    """Every way a known item may be typed (its id, its name in each language), folded -> id."""
    names = {_fold(item_id): item_id for item_id in labels}
    for item_id, msgid in labels.items():
        names.update({_fold(text): item_id for text in texts(msgid, {}).values() if text})
    return names


def stored_item(item: Any, names: dict[str, str], words: bool) -> Any:
    if not isinstance(item, str):
        return item
    if not words:
        return names.get(_fold(item), item)
    text = " ".join(item.split())
    for name in sorted(names, key=len, reverse=True):  # "nugget mine" before "mine"
        text = re.sub(rf"(?<!\S){re.escape(name)}(?!\S)", lambda _, name=name: names[name], text, flags=re.IGNORECASE)
    return text
