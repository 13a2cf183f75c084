"""Setting up a game (the book's « Mise en place »): options, figures, the reference,
the seat order, the first player, home locations and the starting placements."""

from __future__ import annotations

from companion.games.amiiboxe import cards
from companion.games.amiiboxe.board import figure_at, new_board, require_board, require_cell, square_size, \
    starting_cells
from companion.games.amiiboxe.common import FACES, IN_PLAY, MAX_NAME_LENGTH, MIN_FIGURES, english_name, \
    seat_ids, figure_field, on_board
from companion.games.base import HOST, N_, Draw, IllegalAction, Plural, require_fields

KINDS = ("computed", "facts", "situational", "judgement")
DIRECTIONS = ("min", "max")
RANDOM = "random"
DISAGREEMENT = ("resolve", "tie")
MAX_CARDS = 100


def check_options(options: dict) -> None:
    reference = options["reference"]
    if len(reference) not in (1, FACES) or len(set(reference)) != len(reference):
        raise IllegalAction(N_("A reference is a reference name, “random”, or 6 different criteria."))
    if options["figures_per_player"] < MIN_FIGURES:
        raise IllegalAction(N_("The book asks for at least 3 amiibo per player: a game with fewer would have "
                               "too small a square to play on."))


def setup(options: dict, seats: list[dict], rng) -> dict:
    context = read_context(options.get("context"))
    per_player = options["figures_per_player"]
    check_seats(seats, per_player)
    size = square_size(per_player, len(seats))
    figures = [game_figure(figure, seat["id"]) for seat in seats for figure in seat["figures"]]
    state = {
        "phase": "setup", "pro": options["pro"] == "on", "size": size,
        "disagreement": options.get("disagreement", "resolve"),
        "criteria": context["criteria"], "references": context["references"], "reference": None,
        "cards": known_cards(context["cards"], figures),
        "seats": [{"id": seat["id"], "name": seat["name"], "points": 0} for seat in seats],
        "order": [seat["id"] for seat in seats], "first": None, "proposals": {}, "active": None, "turn": 0,
        "figures": figures,
        "board": new_board(size) if options["board"] == "kept" else None,
        "selected": {"figure": None, "target": None}, "fight": None, "step": None,
        "fights": [], "retires": [], "winners": None,
        "secret": {"house": context["house"], "defaults": context["defaults"], "answers": {}, "values": {}},
        "private": {}, "outcome": None,
    }
    if state["pro"]:  # « jouez en mode PRO »: the players judge; the values stay with the companion
        for figure in figures:
            state["secret"]["values"][str(figure["id"])], figure["values"] = figure["values"], {}
    state["reference"] = resolve_reference(state, options["reference"], rng)
    return state


def context_error() -> IllegalAction:
    return IllegalAction(N_("The criteria of Amiiboxe are missing or malformed."))


def read_context(context: object) -> dict:
    """The criteria, references, house and default rankings and cards the shell injects, checked."""
    if not isinstance(context, dict) or not isinstance(context.get("criteria"), dict):
        raise context_error()
    criteria = {}
    for criterion, info in context["criteria"].items():
        if not isinstance(info, dict) or info.get("kind") not in KINDS or info.get("direction") not in DIRECTIONS:
            raise context_error()
        criteria[criterion] = {"kind": info["kind"], "direction": info["direction"]}
    references = context.get("references") or {}
    if not isinstance(references, dict) or not all(
            isinstance(ids, list) and len(ids) == FACES and all(isinstance(i, str) and i in criteria for i in ids)
            for ids in references.values()):
        raise context_error()
    house = context.get("house") or {}
    if not isinstance(house, dict) or not all(
            criterion in criteria and isinstance(pairs, list) and all(is_pair(pair) for pair in pairs)
            for criterion, pairs in house.items()):
        raise context_error()
    defaults = context.get("defaults") or {}
    if not isinstance(defaults, dict) or not all(
            criterion in criteria and isinstance(tiers, list) and all(is_tier(tier) for tier in tiers)
            for criterion, tiers in defaults.items()):
        raise context_error()
    extra_cards = context.get("cards") or []
    if not isinstance(extra_cards, list) or len(extra_cards) > MAX_CARDS or not all(
            isinstance(name, str) and 0 < len(name.strip()) <= MAX_NAME_LENGTH for name in extra_cards):
        raise context_error()
    return {"criteria": criteria, "references": {name: list(ids) for name, ids in references.items()},
            "house": {criterion: [list(pair) for pair in pairs] for criterion, pairs in house.items()},
            "defaults": {criterion: [list(tier) for tier in tiers] for criterion, tiers in defaults.items()},
            "cards": [name.strip() for name in extra_cards]}


def is_pair(pair: object) -> bool:
    return isinstance(pair, list) and len(pair) == 2 and all(isinstance(item, str) for item in pair)


def is_tier(tier: object) -> bool:
    return isinstance(tier, list) and all(isinstance(item, str) for item in tier)


def known_cards(extra: list[str], figures: list[dict]) -> list[str]:
    """The location cards the table knows: the eight the FAQ describes, each figure's own card, the host's."""
    known: list[str] = []
    for name in cards.effect_card_names() + extra + [f["location"] for f in figures if f["location"]]:
        if cards.find_card(known, name) is None:
            known.append(name)
    return known


def check_seats(seats: list[dict], per_player: int) -> None:
    if not 2 <= len(seats) <= 4:
        raise IllegalAction(N_("Amiiboxe is played by 2 to 4 players."))
    owners: dict[str, dict] = {}
    for seat in seats:
        if len(seat["figures"]) != per_player:
            raise IllegalAction(Plural("Every player needs %(count)s figure; %(name)s has %(has)s.",
                                       "Every player needs %(count)s figures; %(name)s has %(has)s."),
                                count=per_player, name=seat["name"], has=len(seat["figures"]))
        for figure in seat["figures"]:
            if figure["amiibo_id"] in owners:
                raise IllegalAction(N_("%(figure)s is already in this game, with %(name)s."),
                                    figure=english_name(figure), name=owners[figure["amiibo_id"]]["name"])
            owners[figure["amiibo_id"]] = seat


def game_figure(figure: dict, seat_id: int) -> dict:
    values = {criterion: value for criterion, value in (figure.get("values") or {}).items() if is_number(value)}
    location = figure.get("location")
    location = location.strip()[:MAX_NAME_LENGTH] if isinstance(location, str) else None
    character = figure.get("character")
    return {"id": figure["id"], "amiibo_id": figure["amiibo_id"], "name": dict(figure["name"]), "seat": seat_id,
            "character": character if isinstance(character, str) else None,
            "location": location or None, "values": values, "status": IN_PLAY, "at": None,
            "carries": [], "captured_by": None, "played": False}


def is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check_prepared(options: dict) -> None:
    """The options against the criteria and references the shell gives the setup: the create form's
    check asks this as each option is set, so that Start refuses nothing the form let through."""
    context = read_context(options.get("context"))
    known_reference(options["reference"], context["references"], context["criteria"])


def known_reference(choice: object, references: dict, criteria: dict) -> list[str]:
    """The reference option as a list, once its reference name (or ``random``) or 6 criteria are known."""
    if isinstance(choice, str):
        choice = [choice]
    if not isinstance(choice, list) or not all(isinstance(item, str) for item in choice):
        raise IllegalAction(N_("A reference is a reference name, “random”, or 6 different criteria."))
    if len(choice) == 1:
        if choice[0] not in references and not (choice[0] == RANDOM and references):
            raise IllegalAction(N_("Unknown reference: %(reference)s."), reference=choice[0])
        return choice
    if len(choice) != FACES or len(set(choice)) != FACES:
        raise IllegalAction(N_("A reference is a reference name, “random”, or 6 different criteria."))
    unknown = [criterion for criterion in choice if criterion not in criteria]
    if unknown:
        raise IllegalAction(N_("Unknown criterion: %(criterion)s."), criterion=unknown[0])
    return choice


def resolve_reference(state: dict, choice: object, rng) -> dict:
    """A reference id, ``random`` (drawn among the known ones) or 6 criterion ids."""
    choice = known_reference(choice, state["references"], state["criteria"])
    if len(choice) == 1:
        name = choice[0]
        if name == RANDOM:
            name = rng.choice(sorted(state["references"]), Draw("reference"))
        return {"id": name, "criteria": list(state["references"][name])}
    return {"id": None, "criteria": list(choice)}


# --- what the setup still needs ---------------------------------------------------

def setup_needs(state: dict) -> list[str]:
    needs = []
    if state["first"] is None:
        needs.append("first_player")
    if any(figure["location"] is None for figure in state["figures"]):
        needs.append("locations")
    if state["board"] is not None and not all(
            figure["at"] in starting_cells(state, figure["seat"]) for figure in state["figures"]):
        needs.append("placements")
    return needs


# --- actions -------------------------------------------------------------------------

def agreed(state: dict, seat, topic: str, value) -> bool:
    """The host decides alone; the phones decide when every seat has proposed the same."""
    if seat == HOST:
        state["proposals"].pop(topic, None)
        return True
    proposals = state["proposals"].setdefault(topic, {})
    proposals[str(seat)] = value
    if len(proposals) == len(state["seats"]) and all(v == value for v in proposals.values()):
        del state["proposals"][topic]
        return True
    return False


def check_seat_order(state: dict, seat, action: dict) -> None:
    require_fields(action, seats=list)
    order = action["seats"]
    if not all(type(item) is int for item in order) or sorted(order) != sorted(seat_ids(state)):
        raise IllegalAction(N_("The seat order lists every player once, clockwise."))


def run_seat_order(state: dict, seat, action: dict, rng) -> list[dict]:
    order = list(action["seats"])
    if not agreed(state, seat, "seat_order", order):
        return [{"type": "proposed", "topic": "seat_order", "seat": seat, "value": order}]
    state["order"] = order
    for figure in state["figures"]:  # the starting lines moved with the seats
        figure["at"] = None
    return [{"type": "seat_order", "seats": order}]


def check_first_player(state: dict, seat, action: dict) -> None:
    require_fields(action, player=int)
    if action["player"] not in seat_ids(state):
        raise IllegalAction(N_("There is no such seat at this table."))


def run_first_player(state: dict, seat, action: dict, rng) -> list[dict]:
    if not agreed(state, seat, "first_player", action["player"]):
        return [{"type": "proposed", "topic": "first_player", "seat": seat, "value": action["player"]}]
    state["first"] = action["player"]
    return [{"type": "first_player", "seat": action["player"]}]


def check_name_location(state: dict, seat, action: dict) -> None:
    """The owner or the host chooses a figure's home card from the table's list, before the figure plays."""
    figure = figure_field(state, action, "figure")
    if seat != HOST and figure["seat"] != seat:
        raise IllegalAction(N_("That figure is not yours."))
    if figure["played"] or figure["status"] != IN_PLAY:
        raise IllegalAction(N_("A figure's home location is chosen before it plays."))
    require_fields(action, name=str)
    if cards.find_card(state["cards"], action["name"]) is None:
        raise IllegalAction(N_("Choose the location from the list of the table's cards (the host can add one)."))


def run_name_location(state: dict, seat, action: dict, rng) -> list[dict]:
    figure = figure_field(state, action, "figure")
    figure["location"] = cards.find_card(state["cards"], action["name"])
    return [{"type": "location_named", "figure": figure["id"], "amiibo_id": figure["amiibo_id"],
             "name": figure["location"]}]


def check_add_card(state: dict, seat, action: dict) -> None:
    require_fields(action, name=str)
    name = action["name"].strip()
    if not 0 < len(name) <= MAX_NAME_LENGTH:
        raise IllegalAction(N_("A location name has 1 to %(count)s characters."), count=MAX_NAME_LENGTH)
    if cards.find_card(state["cards"], name) is not None:
        raise IllegalAction(N_("The table already knows that location."))
    if len(state["cards"]) >= MAX_CARDS:
        raise IllegalAction(N_("The table knows too many locations already."))


def run_add_card(state: dict, seat, action: dict, rng) -> list[dict]:
    state["cards"].append(action["name"].strip())
    return [{"type": "card_added", "name": state["cards"][-1]}]


def check_place(state: dict, seat, action: dict) -> None:
    """Setup: a figure on its owner's starting line, by its owner or the host."""
    require_board(state)
    figure = on_board(figure_field(state, action, "figure", "figure"))
    if seat != HOST and figure["seat"] != seat:
        raise IllegalAction(N_("That figure is not yours."))
    cell = require_cell(state, action)
    occupant = figure_at(state, cell)
    if occupant is not None and occupant is not figure:
        raise IllegalAction(N_("That place is taken."))
    if cell not in starting_cells(state, figure["seat"]):
        raise IllegalAction(N_("A figure starts on its owner's starting line, never in a corner shared by two "
                               "starting lines."))


def run_place(state: dict, seat, action: dict, rng) -> list[dict]:
    figure = figure_field(state, action, "figure", "figure")
    origin, figure["at"] = figure["at"], list(action["cell"])
    state["selected"] = {"figure": None, "target": None}
    return [{"type": "placed", "figure": figure["id"], "from": origin, "to": figure["at"]}]


def check_begin(state: dict, seat, action: dict) -> None:
    needs = setup_needs(state)
    if "first_player" in needs:
        raise IllegalAction(N_("Say first who acquired an amiibo last: they play first."))
    if "locations" in needs:
        raise IllegalAction(N_("Every figure's home location must be chosen first."))
    if "placements" in needs:
        raise IllegalAction(N_("Every figure must first stand on its owner's starting line."))


def run_begin(state: dict, seat, action: dict, rng) -> list[dict]:
    """The fights begin: the phase ``play`` follows (`begin_play`)."""
    state["turn"] = 1
    return []


def begin_play(state: dict, rng) -> list[dict]:
    """« Le dernier joueur à avoir acquis un amiibo commence la partie »."""
    state["active"] = state["first"]
    state["selected"] = {"figure": None, "target": None}
    return [{"type": "play_began", "order": state["order"], "seat": state["first"]}]


def check_set_reference(state: dict, seat, action: dict) -> None:
    if state["fight"]:
        raise IllegalAction(N_("A fight is being decided: wait for it to end."))
    if "reference" not in action:
        require_fields(action, reference=list)
    known_reference(action["reference"], state["references"], state["criteria"])


def run_set_reference(state: dict, seat, action: dict, rng) -> list[dict]:
    state["reference"] = resolve_reference(state, action["reference"], rng)
    return [{"type": "reference_changed", **state["reference"]}]
