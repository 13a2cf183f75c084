"""Rayman: the race's configuration, resolved once from the difficulty's preset and the host's options."""

from __future__ import annotations

from companion.games.base import IllegalAction, N_
from companion.games.rayman.constants import PRESETS


def resolve(options: dict) -> dict:
    """The race's configuration: the difficulty's preset, then what the host chose."""
    mode, preset = options["mode"], PRESETS[options["difficulty"]]
    racing_alone = mode != "competitive"

    def chosen(name: str, auto):
        value = options[name]
        return auto if value == "auto" else None if value == "none" else value

    projectile = chosen("projectile", None if racing_alone else preset["projectile"])
    return {
        "mode": mode, "difficulty": options["difficulty"],
        "board": chosen("board", preset["board"]),
        "projectile": projectile,
        "projectile_card": bool(projectile) and on(options["projectile_card"], preset["card"]),
        "extra_cards": on(options["extra_cards"], preset["extras"] and not racing_alone),
        "legendary": on(options["legendary"], preset["legendary"] and not racing_alone),
        "boss": chosen("boss", preset["boss"] if racing_alone else None),
        "boss_move": options["boss_move"] or None,
        "quick": options["hand_entry"] == "quick",
        "extension": options["players_5_6"] == "on",
        "captives": options["captive_ptizetres"],
        "damage_push": options["damage_push"],
        "projectile_speed": options["projectile_speed"],
        "limited_legendary": options["limited_legendary"] == "on",
        "unlimited_slaps": options["unlimited_slaps"] == "on",
        "harsh_coop": options["harsh_coop"] == "on",
        "tournament": options["tournament"] == "on",
        "card_exchange": options["card_exchange"] == "on",
        "keep_legendary": options["tournament_legendary"] == "keep",
        "rules": mode_rules(mode, options["harsh_coop"] == "on"),
    }


def mode_rules(mode: str, harsh_coop: bool) -> dict:
    """The mode, resolved once into the rules it changes: the rules read these names, never the mode."""
    together = mode != "competitive"  # co-op and solo: the players race a Boss, and win or lose together
    return {
        "race_together": together,
        "random_discards": together,  # two cards leave the hand at random before each cycle of the hand
        "bubble_action": mode != "solo",  # solo has no Bubble at all
        "bubble_mode_on_damage": mode == "coop" and not harsh_coop,  # « le mode Bulle est activé lorsqu'un
        # joueur subit un dégât »
        "damage_defeats": mode == "solo" or (mode == "coop" and harsh_coop),
        "gift_hearts": mode == "coop",
        "bonus_exchange": mode == "coop",
        "draft_alone": mode == "solo",  # draw 3, keep 1, twice
    }


def on(value: str, auto: bool) -> bool:
    return auto if value == "auto" else value == "on"


def check_options(options: dict) -> None:
    config = resolve(options)
    if config["mode"] != "competitive" and not config["boss"]:
        raise IllegalAction(N_("A co-op or solo race is played against a Boss."))
    if options["projectile_card"] == "on" and not config["projectile"]:
        raise IllegalAction(N_("A projectile card needs projectiles."))
    if config["tournament"] and config["mode"] != "competitive":
        raise IllegalAction(N_("A tournament is a competitive game."))
    if config["card_exchange"] and not (config["tournament"] and config["extra_cards"]):
        raise IllegalAction(N_("The card exchange is a tournament variant with extra action cards."))
    if config["harsh_coop"] and config["mode"] != "coop":
        raise IllegalAction(N_("That modifier is for co-op races."))


def seat_range(config: dict) -> tuple[int, int]:
    if config["mode"] == "solo":
        return 1, 1
    if config["mode"] == "coop":
        return 2, 4
    return 2, 6 if config["extension"] else 4
