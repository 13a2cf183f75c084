"""A Chakart turn at a real board: the player to move says the move on the
phone; the companion resolves it (every item, every draw), asks the choices
an egg leaves to the mover (King Boo's swap, Toadette's revival, Daisy's
second move, a promotion), then shows the changes to make on the board until
the mover confirms « board done »; then the other player moves.

Phases: ``move`` → (``choice`` while a choice is pending) → ``board`` → ``move``.

Where the book is silent or reads two ways, the choices the referee makes are
listed in `silent.py` (and shown to the players in the screen's fold « Rules of
this table »); the table options change six of them.
"""

from __future__ import annotations

from companion.games.base import N_, Draw, IllegalAction, duel_outcome
from companion.games.chakart import board
from companion.games.chakart.board import colour_of, coords, is_square, kind, last_rank, other
from companion.games.chakart.effects import Path, chain, hidden_queen, resolve, swap_targets
from companion.games.kernel import Move, Phase

QUIET_PLIES_FOR_A_DRAW = 100
PROMOTIONS = ("q", "r", "b", "n", "k")
REPORTS_KEPT = 12


# Setup ------------------------------------------------------------------------------
def setup(options: dict, seats: list[dict], rng) -> dict:
    ids = [seat["id"] for seat in seats]
    white = ids[0] if options["colours"] == "first" else ids[rng.randint(0, 1, Draw("white_player"))]
    black = next(seat for seat in ids if seat != white)
    turn = "w"
    if options["position"]:
        pieces, items = board.parse_fen(options["position"][0])
        turn = board.side_to_move(options["position"][0])
    elif options["start"] in ("random", "mirrored"):
        pieces, items = random_start(rng, mirrored=options["start"] == "mirrored"), {}
    else:
        pieces, items = board.parse_fen(board.STANDARD)
    return {"phase": "move", "outcome": None, "options": options, "seats": {"w": white, "b": black},
            "names": {str(seat["id"]): seat["name"] for seat in seats},
            "turn": turn, "pieces": pieces, "items": items, "ply": 0, "quiet": 0, "passes": 0,
            "powers": {"w": {"stealth": True, "shell": True}, "b": {"stealth": True, "shell": True}},
            "captured": {"w": [], "b": []}, "immobile": {}, "pending": None, "report": None, "reports": [],
            "queen_hidden": [], "private": {}}


def random_start(rng, mirrored: bool) -> dict:
    """Random back ranks: each side shuffled on its own, as the book's first diagram (« qbbrrnnk » against
    « QBNNBKRR »), or one shuffle mirrored for both sides (table option ``start = mirrored``)."""
    white = random_back_rank(rng, "white" if not mirrored else "both")
    black = white if mirrored else random_back_rank(rng, "black")
    pieces = {}
    for file in range(8):
        pieces[board.square(file, 0)], pieces[board.square(file, 7)] = white[file].upper(), black[file]
        pieces[board.square(file, 1)], pieces[board.square(file, 6)] = "P", "p"
    return pieces


def random_back_rank(rng, side: str) -> list[str]:
    """Bishops on squares of both colours (files of both parities), the six others shuffled; ``side``:
    "white", "black" or "both" (a mirrored start)."""
    light = rng.randint(0, 3, Draw("start_light_bishop", side=side)) * 2 + 1
    dark = rng.randint(0, 3, Draw("start_dark_bishop", side=side)) * 2
    rest = [f for f in range(8) if f not in (light, dark)]
    order = rng.permutation(6, Draw("start_other_pieces", side=side))
    row = [""] * 8
    row[light], row[dark] = "b", "b"
    for piece, index in zip("rnqkrn", order):
        row[rest[index]] = piece
    return row


# Whose move, and what it may be ---------------------------------------------------------
def mover(state: dict) -> int:
    return state["seats"][state["turn"]]


def only_the_mover(state: dict) -> list[int]:
    return [mover(state)]


def check_own_turn(state: dict, seat: int) -> None:
    if seat != mover(state):
        raise IllegalAction(N_("It is %(name)s's move."), name=state["names"][str(mover(state))])


def movable(state: dict, start) -> bool:
    piece = state["pieces"].get(start) if is_square(start) else None
    return piece is not None and colour_of(piece) == state["turn"] and not held_by_bowser(state, start)


def held_by_bowser(state: dict, where: str) -> bool:
    return state["immobile"].get(where, {}).get("colour") == state["turn"]


def moves_of(state: dict) -> list[dict]:
    """Every ordinary move of the player to move (the phones highlight them)."""
    found = []
    for start in sorted(state["pieces"]):
        if movable(state, start):
            found += [{"from": start, "to": end} for end in board.targets_of(state["pieces"], state["items"], start)]
    return found


def check_move(state: dict, seat: int, action: dict) -> None:
    check_own_turn(state, seat)
    start, end = action.get("from"), action.get("to")
    if not is_square(start) or not is_square(end):
        raise IllegalAction(N_("Say the move with two squares, such as e2 and e4."))
    pending = state["pending"]
    if pending and pending["kind"] != "again":
        raise IllegalAction(N_("First make the choice the egg left you."))
    if pending and start != pending["square"]:
        raise IllegalAction(N_("Daisy: play again with the same piece, on %(square)s."), square=pending["square"])
    if not movable(state, start):
        if held_by_bowser(state, start):
            raise IllegalAction(N_("Bowser holds this piece: it cannot move this turn."))
        raise IllegalAction(N_("There is no piece of yours on %(square)s."), square=start)
    if end not in board.targets_of(state["pieces"], state["items"], start):
        raise IllegalAction(N_("That piece cannot go from %(start)s to %(end)s."), start=start, end=end)


def play_move(state: dict, seat: int, action: dict, rng) -> list[dict]:
    before = snapshot(state)
    again = bool(state["pending"])
    state["pending"] = None
    path = resolve(state, action["from"], action["to"], rng, again=again)
    return finish_resolution(state, path, before, {"type": "moved", "from": action["from"], "to": action["to"]})


def check_stealth(state: dict, seat: int, action: dict) -> None:
    check_own_turn(state, seat)
    start, end = action.get("from"), action.get("to")
    if not state["powers"][state["turn"]]["stealth"]:
        raise IllegalAction(N_("Mario's stealth move was already used in this game."))
    if not movable(state, start) or kind(state["pieces"][start]) != "q":
        raise IllegalAction(N_("The stealth move is a queen's (Mario's)."))
    if end not in board.stealth_targets(state["pieces"], state["items"], start, state["turn"]):
        raise IllegalAction(N_("The stealth queen goes to an empty square within her reach."))


def stealth(state: dict, seat: int, action: dict, rng) -> list[dict]:
    """The queen leaves the public board; only her owner's phone knows where she went.

    The stealth move goes to « une case vide »: a square that holds the other side's hidden queen is
    not empty. As in the author's code, the move there is an ordinary one that captures her (so no
    piece ever vanishes), and the stealth power, not used, stays."""
    if action["to"] == hidden_queen(state, other(state["turn"])):
        return play_move(state, seat, {"from": action["from"], "to": action["to"]}, rng)
    before = snapshot(state)
    state["powers"][state["turn"]]["stealth"] = False
    state["queen_hidden"] = sorted(set(state["queen_hidden"]) | {state["turn"]})
    queen = state["pieces"].pop(action["from"])
    state["private"].setdefault(str(seat), {})["stealth"] = action["to"]
    state["private"][str(seat)]["stealth_piece"] = queen
    path = Path(state, state["turn"], rng)
    path.record({"kind": "stealth", "piece": queen, "from": action["from"]})
    return finish_resolution(state, path, before, {"type": "stealth", "from": action["from"]})


def check_shell(state: dict, seat: int, action: dict) -> None:
    check_own_turn(state, seat)
    start, target = action.get("from"), action.get("to")
    if not state["powers"][state["turn"]]["shell"]:
        raise IllegalAction(N_("Peach's shell was already thrown in this game."))
    if not movable(state, start) or kind(state["pieces"][start]) != "k":
        raise IllegalAction(N_("The shell is thrown by a king (Peach)."))
    if target not in board.shell_targets(state["pieces"], state["items"], start, state["turn"]):
        raise IllegalAction(N_("The shell hits an enemy at a queen's reach, with nothing in between."))


def shell(state: dict, seat: int, action: dict, rng) -> list[dict]:
    before = snapshot(state)
    state["powers"][state["turn"]]["shell"] = False
    path = Path(state, state["turn"], rng)
    path.record({"kind": "shell", "from": action["from"], "to": action["to"]})
    path.capture(action["to"], state["pieces"][action["from"]])
    return finish_resolution(state, path, before, {"type": "shell", "from": action["from"], "to": action["to"]})


# What an egg leaves to the mover ------------------------------------------------------
def check_choice(expected: str):
    def check(state: dict, seat: int, action: dict) -> None:
        check_own_turn(state, seat)
        if not state["pending"] or state["pending"]["kind"] != expected:
            raise IllegalAction(N_("There is no such choice to make now."))
        CHOICE_CHECKS[expected](state, action)
    return check


def check_swap(state: dict, action: dict) -> None:
    if action.get("with") not in swap_targets(state["pieces"], state["pending"]["square"]):
        raise IllegalAction(N_("King Boo swaps your piece with another piece (never an enemy pawn onto its last rank)."))


def swap(state: dict, seat: int, action: dict, rng) -> list[dict]:
    before = snapshot(state)
    here, there = state["pending"]["square"], action["with"]
    state["pieces"][here], state["pieces"][there] = state["pieces"][there], state["pieces"][here]
    swap_holds(state["immobile"], here, there)
    state["pending"] = None
    path = Path(state, state["turn"], rng)
    path.record({"kind": "swap", "square": here, "with": there})
    return finish_resolution(state, path, before, {"type": "swapped", "square": here, "with": there})


def swap_holds(immobile: dict, here: str, there: str) -> None:
    """Bowser holds « la pièce », not the square: the hold goes where King Boo sends the piece."""
    held_here, held_there = immobile.pop(here, None), immobile.pop(there, None)
    if held_here:
        immobile[there] = held_here
    if held_there:
        immobile[here] = held_there


def revive_squares(state: dict) -> list[str]:
    """« n'importe où sur le plateau »: any square without a piece; a pawn on its last rank is then promoted."""
    return sorted(name for name in (board.square(f, r) for f in range(8) for r in range(8))
                  if name not in state["pieces"])


def check_revive(state: dict, action: dict) -> None:
    piece = action.get("piece")
    if not isinstance(piece, str) or piece not in state["captured"][state["turn"]]:
        raise IllegalAction(N_("Toadette brings back one of your captured pieces."))
    if action.get("to") not in revive_squares(state):
        raise IllegalAction(N_("Put it on a square without a piece."))


def revive(state: dict, seat: int, action: dict, rng) -> list[dict]:
    """« replacer une pièce capturée n'importe où … si [l'objet] est une banane ou une bombe, l'effet s'applique »."""
    before = snapshot(state)
    state["pending"] = None
    piece, where = action["piece"], action["to"]
    state["captured"][state["turn"]].remove(piece)
    path = Path(state, state["turn"], rng)
    path.record({"kind": "revived", "piece": piece, "square": where})
    path.place(piece, where)
    if state["items"].get(where) in ("m", "e"):
        taken = state["items"].pop(where)
        path.record({"kind": "item", "item": taken, "square": where, "no_effect": True})
    else:
        chain(path, piece, where, (0, 0), where, eggs=False)
    return finish_resolution(state, path, before, {"type": "revived", "piece": piece, "to": where})


def check_promotion(state: dict, action: dict) -> None:
    if action.get("piece") not in PROMOTIONS:
        raise IllegalAction(N_("Promote to a queen, rook, bishop, knight or king."))


def promote(state: dict, seat: int, action: dict, rng) -> list[dict]:
    before = snapshot(state)
    where, then = state["pending"]["square"], state["pending"].get("then")
    state["pieces"][where] = action["piece"].upper() if state["turn"] == "w" else action["piece"]
    state["pending"] = {"kind": then, "square": where} if then else None
    path = Path(state, state["turn"], rng)
    path.record({"kind": "promotion", "square": where, "piece": state["pieces"][where]})
    return finish_resolution(state, path, before, {"type": "promoted", "square": where, "piece": action["piece"]})


def check_decline(state: dict, seat: int, action: dict) -> None:
    check_own_turn(state, seat)
    if not state["pending"] or state["pending"]["kind"] == "promote":
        raise IllegalAction(N_("There is no bonus to decline now."))


def decline(state: dict, seat: int, action: dict, rng) -> list[dict]:
    declined = state["pending"]["kind"]
    state["pending"] = None
    before = snapshot(state)
    path = Path(state, state["turn"], rng)
    path.record({"kind": "declined", "bonus": declined})
    return finish_resolution(state, path, before, {"type": "declined", "bonus": declined})


CHOICE_CHECKS = {"swap": check_swap, "revive": check_revive, "promote": check_promotion,
                 "again": lambda state, action: None}


# After each resolution --------------------------------------------------------------------
def snapshot(state: dict) -> dict:
    return {"pieces": dict(state["pieces"]), "items": dict(state["items"])}


def finish_resolution(state: dict, path: Path, before: dict, event: dict) -> list[dict]:
    """Records what happened and what to change on the board; asks the next choice if any."""
    state["pending"] = next_choice(state, path)
    progress = any(step["kind"] in ("capture", "item", "eaten") for step in path.steps) or any(
        step["kind"] == "move" and kind(step["piece"]) == "p" for step in path.steps)
    state["quiet"] = 0 if progress else state["quiet"]
    state["passes"] = 0
    report = {"colour": state["turn"], "steps": path.steps, "changes": changes(before, snapshot(state))}
    if state["report"] and state["report"]["colour"] == state["turn"] and state["report"]["ply"] == state["ply"]:
        report["steps"] = state["report"]["steps"] + path.steps  # a choice continues the same turn
        report["changes"] = changes(state["report"]["before"], snapshot(state))
        report["before"] = state["report"]["before"]
    else:
        report["before"] = before
    report["ply"] = state["ply"]
    state["report"] = report
    return [{**event, "colour": state["turn"], "steps": path.steps}]


def next_choice(state: dict, path: Path) -> dict | None:
    """What the mover chooses next: an egg's bonus, a promotion, or both in the book's order (a pawn
    that reaches the last rank on Daisy's egg is promoted, then plays again)."""
    pending = state["pending"] or path.pending
    promotion = promotion_due(state)
    if pending and pending["kind"] == "again":
        if promotion and promotion["square"] == pending["square"]:
            return {**promotion, "then": "again"}
        if not piece_can_move(state, pending["square"]):
            path.record({"kind": "no_move_again"})  # Daisy, but the piece has no move: nothing happens
            return promotion
    return pending or promotion


def promotion_due(state: dict) -> dict | None:
    for where, piece in state["pieces"].items():
        if kind(piece) == "p" and colour_of(piece) == state["turn"] and coords(where)[1] == last_rank(state["turn"]):
            return {"kind": "promote", "square": where}
    return None


def piece_can_move(state: dict, where: str) -> bool:
    return where in state["pieces"] and bool(board.targets_of(state["pieces"], state["items"], where))


def changes(before: dict, after: dict) -> list[dict]:
    """What to change on the real board: each square whose piece or item differs."""
    found = []
    for where in sorted(set(before["pieces"]) | set(before["items"]) | set(after["pieces"]) | set(after["items"])):
        was = before["pieces"].get(where) or before["items"].get(where)
        now = after["pieces"].get(where) or after["items"].get(where)
        if was != now:
            found.append({"square": where, "before": was, "after": now})
    return found


# Board done: the turn passes ------------------------------------------------------------
def board_done(state: dict, seat: int, action: dict, rng) -> list[dict]:
    colour = state["turn"]
    events = [{"type": "board_done", "colour": colour}]
    events += reveal_hidden_queen(state, other(colour))
    for where, held in list(state["immobile"].items()):
        # Bowser's hold lasts through its owner's next turn: one set in an earlier turn ends now.
        if held["colour"] == colour and held["since"] < state["ply"] or state["pieces"].get(where) is None:
            del state["immobile"][where]
    state["quiet"] += 1
    state["ply"] += 1
    state["turn"] = other(colour)
    if state["report"]:
        state["reports"] = (state["reports"] + [public_report(state["report"])])[-REPORTS_KEPT:]
    return events


def reveal_hidden_queen(state: dict, colour: str) -> list[dict]:
    """The queen hidden during this turn comes back where she went (an item there is removed)."""
    owner = str(state["seats"][colour])
    private = state["private"].get(owner, {})
    where = private.pop("stealth", None)
    queen = private.pop("stealth_piece", None)
    if where is None:
        return []
    state["queen_hidden"] = [hidden for hidden in state["queen_hidden"] if hidden != colour]
    before = snapshot(state)
    removed = state["items"].pop(where, None)
    state["pieces"][where] = queen
    # What the board needs now is the difference between the board as the players left it and this one.
    revealed = {"square": where, "piece": queen, "item": removed, "changes": changes(before, snapshot(state))}
    state["report"] = {**(state["report"] or {}), "revealed": revealed}
    return [{"type": "stealth_revealed", "colour": colour, "square": where, "removed_item": removed}]


def check_board_done(state: dict, seat: int, action: dict) -> None:
    check_own_turn(state, seat)


def check_pass(state: dict, seat: int, action: dict) -> None:
    check_own_turn(state, seat)
    if moves_of(state) or powers_available(state):
        raise IllegalAction(N_("You have a move: a player passes only when nothing can move."))


def stuck(state: dict) -> bool:
    """The player to move has nothing to do: no move, no shell (the book is silent on this case)."""
    return state["phase"] == "move" and not state["pending"] and not moves_of(state) and not powers_available(state)


def powers_available(state: dict) -> bool:
    colour = state["turn"]
    for start, piece in state["pieces"].items():
        if colour_of(piece) != colour or not movable(state, start):
            continue
        if kind(piece) == "k" and state["powers"][colour]["shell"] and board.shell_targets(
                state["pieces"], state["items"], start, colour):
            return True
    return False


def pass_turn(state: dict, seat: int, action: dict, rng) -> list[dict]:
    colour = state["turn"]
    state["passes"] += 1
    state["ply"] += 1
    state["quiet"] += 1
    state["turn"] = other(colour)
    return [{"type": "passed", "colour": colour}] + reveal_hidden_queen(state, other(colour))


# The end ----------------------------------------------------------------------------------
# Each end says who: the side that lost its kings, and the players by name.
KINGS_CAPTURED = {"w": N_("Every White king was captured: %(loser)s has none left, %(winner)s wins."),
                  "b": N_("Every Black king was captured: %(loser)s has none left, %(winner)s wins.")}


def decide(state: dict) -> dict | None:
    kings = {colour: any(kind(p) == "k" and colour_of(p) == colour for p in state["pieces"].values())
             for colour in ("w", "b")}
    seats = state["seats"]
    for colour in ("w", "b"):
        if not kings[colour]:
            return duel_outcome(state["names"], seats[other(colour)], seats[colour], KINGS_CAPTURED[colour])
    if state["options"].get("no_move", "pass") == "lose" and stuck(state):
        return duel_outcome(state["names"], seats[other(state["turn"])], seats[state["turn"]],
                            N_("%(loser)s, to move, had no move at all: %(winner)s wins."))
    if state.get("forfeit"):
        loser = state["forfeit"]
        winner = next(seat for seat in seats.values() if seat != loser)
        return duel_outcome(state["names"], winner, loser, N_("%(loser)s left the game: %(winner)s wins by forfeit."))
    if state["quiet"] >= QUIET_PLIES_FOR_A_DRAW or state["passes"] >= 2:
        both = sorted(seats.values())
        return {"winners": [], "reason": N_("a draw: nothing happened for 50 moves, or nobody could move"),
                "ranking": [both]}
    return None


def forfeit(state: dict, seat: int, action: dict, rng) -> list[dict]:
    """A player who leaves for good loses by forfeit (the kernel's ``leave``)."""
    state["forfeit"] = seat
    return [{"type": "forfeit", "seat": seat}]


def waiting(state: dict) -> list[dict]:
    labels = {"move": N_("moving"), "choice": N_("choosing an egg's effect"), "board": N_("changing the board")}
    return [{"seat": mover(state), "for": labels[state["phase"]], "params": {}, "timed": False}]


# Views -----------------------------------------------------------------------------------
def public_report(report: dict) -> dict:
    return {key: value for key, value in report.items() if key != "before"}


def render(state: dict, seat) -> dict:
    """The public board, plus the viewer's own hidden queen (her square is in the seat's private data)."""
    colour = next((c for c, s in state["seats"].items() if s == seat), None)
    own = (state.get("private") or {}).get(str(seat), {})
    pieces = dict(state["pieces"])
    if own.get("stealth"):
        pieces_with_queen = {**pieces, own["stealth"]: own["stealth_piece"]}
    else:
        pieces_with_queen = pieces
    return {
        "seats": state["seats"], "names": state["names"], "turn": state["turn"], "you": colour,
        "pieces": pieces, "items": state["items"], "fen": board.to_fen(pieces, state["items"]),
        "my_fen": board.to_fen(pieces_with_queen, state["items"]) if colour else None,
        "hidden_queen": own.get("stealth"), "powers": state["powers"], "captured": state["captured"],
        "immobile": state["immobile"], "pending": state["pending"],
        "report": public_report(state["report"]) if state["report"] else None,
        "reports": state["reports"], "ply": state["ply"], "quiet": state["quiet"],
        "queen_hidden": state["queen_hidden"],  # whose queens moved in secret: everybody knows that much
    }


# Declarations -----------------------------------------------------------------------------
def move_candidates(state: dict, seat) -> list[dict]:
    if state["pending"]:
        where = state["pending"]["square"]
        return [{"from": where, "to": end} for end in board.targets_of(state["pieces"], state["items"], where)]
    return moves_of(state)


def stealth_candidates(state: dict, seat) -> list[dict]:
    return [{"from": start, "to": end} for start, piece in sorted(state["pieces"].items())
            if kind(piece) == "q" and colour_of(piece) == state["turn"]
            for end in board.stealth_targets(state["pieces"], state["items"], start, state["turn"])]


def shell_candidates(state: dict, seat) -> list[dict]:
    return [{"from": start, "to": target} for start, piece in sorted(state["pieces"].items())
            if kind(piece) == "k" and colour_of(piece) == state["turn"]
            for target in board.shell_targets(state["pieces"], state["items"], start, state["turn"])]


def swap_candidates(state: dict, seat) -> list[dict]:
    pending = state["pending"]
    return [{"with": s} for s in swap_targets(state["pieces"], pending["square"])] if pending else []


def revive_candidates(state: dict, seat) -> list[dict]:
    return [{"piece": piece, "to": where} for piece in sorted(set(state["captured"][state["turn"]]))
            for where in revive_squares(state)]


def next_phase(state: dict) -> str:
    if state["pending"]:
        return "choice"
    return "board" if state["report"] and state["report"]["ply"] == state["ply"] else "move"


MOVES = {
    "move": Move(run=play_move, check=check_move, candidates=move_candidates),
    "stealth": Move(run=stealth, check=check_stealth, candidates=stealth_candidates),
    "shell": Move(run=shell, check=check_shell, candidates=shell_candidates),
    "swap": Move(run=swap, check=check_choice("swap"), candidates=swap_candidates),
    "revive": Move(run=revive, check=check_choice("revive"), candidates=revive_candidates),
    "promote": Move(run=promote, check=check_choice("promote"),
                    candidates=lambda state, seat: [{"piece": piece} for piece in PROMOTIONS]),
    "decline": Move(run=decline, check=check_decline),
    "board_done": Move(run=board_done, check=check_board_done, proxy=True, label=N_("the board is done")),
    "pass": Move(run=pass_turn, check=check_pass, proxy=True, label=N_("pass (nothing can move)")),
}

PHASES = {
    "move": Phase(moves=("move", "stealth", "shell", "pass"), label=N_("moving"), actors=only_the_mover,
                  next=next_phase),
    "choice": Phase(moves=("swap", "revive", "promote", "move", "decline"), label=N_("choosing an egg's effect"),
                    actors=only_the_mover, next=next_phase),
    "board": Phase(moves=("board_done",), label=N_("changing the board"), actors=only_the_mover, next=next_phase),
}
