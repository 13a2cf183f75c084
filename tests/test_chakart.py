"""Chakart's rules (the rule book `chakart.fr.txt`), each a test named after
it, with every random draw chosen by `ScriptedRng`; the book's three diagrams
replayed exactly (random legal games: tests/random_play.py)."""

from __future__ import annotations

import copy

import pytest

from companion.fairness import EMPTY_POOL, TableRng
from companion.games import get_game
from companion.games.base import Draw, IllegalAction
from companion.games.chakart.board import STANDARD, parse_fen, to_fen
from companion.games.chakart.effects import EGG_EFFECTS
from tests.rules import ScriptedRng

GAME = get_game("chakart")
WHITE, BLACK = 1, 2
SEATS = [{"id": WHITE, "name": "Wendy", "figures": []}, {"id": BLACK, "name": "Bowser Jr", "figures": []}]


def game(fen: str = STANDARD, **options) -> dict:
    """White is the first seat; ``fen`` may end with " b" for Black to move."""
    options = {"colours": "first", "position": [fen], **options}
    return GAME.setup(GAME.normalize_options(options), SEATS, ScriptedRng())


def mover(state):
    return state["seats"][state["turn"]]


def act(state, action, *script, seat=None):
    rng = ScriptedRng(*script)
    after, events = GAME.apply(state, mover(state) if seat is None else seat, action, rng)
    assert rng.spent, f"draws left unused: {rng.script}"
    return after, events


def move(state, start, end, *script):
    return act(state, {"type": "move", "from": start, "to": end}, *script)[0]


def done(state):
    return act(state, {"type": "board_done"})[0]


def fen(state):
    return to_fen(state["pieces"], state["items"])


def refused(state, action, complaint, seat=None):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, mover(state) if seat is None else seat, action, ScriptedRng())
    assert complaint in str(error.value)
    assert state == before


def steps(events, kind):
    return [step for event in events for step in event.get("steps", []) if step["kind"] == kind]


def egg(effect: str):
    return ("egg", EGG_EFFECTS.index(effect))


# The book's diagrams ---------------------------------------------------------------------
def test_book_after_1_d4_nf6_2_bb4_the_bomb_goes_on_a_free_square_orthogonally_next_to_b4():
    state = game("qbbrrnnk/pppppppp/8/8/8/8/PPPPPPPP/QBNNBKRR")
    state = done(move(state, "d2", "d4"))
    state = done(move(state, "g8", "f6"))  # g7 holds a pawn: Yoshi's egg stays on g8
    state, events = act(state, {"type": "move", "from": "e1", "to": "b4"}, (Draw("drop", piece="Wario", item="bomb", square="b4"), 3))
    assert steps(events, "drop")[-1] == {"kind": "drop", "item": "bomb", "eligible": ["a4", "b3", "b5", "c4"],
                                         "square": "c4"}
    assert fen(state) == "qbbrrnek/pppppppp/5n2/8/1BwP4/3m4/PPP1PPPP/QBNN1KRR"


BXE4 = "rn1b2qk/pbppwppp/1w2p3/1p1Rm3/3PdnPr/4P1d1/PPP1mP1P/NNB1KRQB"


# « Une pièce arrivant sur une banane (resp. bombe) est redirigée aléatoirement d'une case dans une direction
# orthogonale (resp. diagonale), si possible. Une pièce adverse pourrait être capturée de cette façon. »
# The caption (« f6 et f8 possibles aussi ») leaves out d8, where a black bishop stands: the table option
# redirect = free reads it so; the default follows the sentence, and d8 may be drawn too.
@pytest.mark.parametrize("draw, lands", [(0, "d6"), (1, "f6"), (2, "f8")])
def test_book_bxe4_banana_then_mushroom_jump_over_e6_then_bomb_to_d6_f6_or_f8(draw, lands):
    rng = ScriptedRng((Draw("redirect", item="bomb", square="e7"), draw), fallback=TableRng("ab" * 32, EMPTY_POOL, 0))
    state, events = GAME.apply(game(BXE4, redirect="free"), WHITE, {"type": "move", "from": "h1", "to": "e4"}, rng)
    assert [(s["kind"], s.get("square") or s.get("from")) for s in events[0]["steps"][:6]] == [
        ("move", "h1"), ("item", "e4"), ("redirect", "e4"), ("item", "e5"), ("mushroom", "e5"), ("item", "e7")]
    banana, jump, bomb = steps(events, "redirect")[0], steps(events, "mushroom")[0], steps(events, "redirect")[1]
    assert banana["eligible"] == ["e5"] and banana["to"] == "e5"  # d4, e3 hold white pawns, f4 a knight
    assert jump == {"kind": "mushroom", "square": "e5", "over": "e6", "to": "e7"}
    assert bomb["eligible"] == ["d6", "f6", "f8"] and bomb["to"] == lands
    assert state["pieces"][lands] == "B"


@pytest.mark.parametrize("redirect, script", [
    ("free", [(Draw("redirect", item="bomb", square="e7"), 0)]),
    ("capture", [(Draw("redirect", item="banana", square="e4"), 0), (Draw("redirect", item="bomb", square="e7"), 0)]),
])
def test_book_bxe4_ends_on_d6_with_a_bomb_on_c6_the_only_eligible_square(redirect, script):
    state, events = act(game(BXE4, redirect=redirect), {"type": "move", "from": "h1", "to": "e4"}, *script)
    assert steps(events, "drop")[-1] == {"kind": "drop", "item": "bomb", "eligible": ["c6"], "square": "c6"}
    assert fen(state) == "rn1b2qk/pbpp1ppp/1wwBp3/1p1R4/3P1nPr/4P1d1/PPP1mP1P/NNB1KRQ1"


def test_book_bxe4_by_the_sentence_the_banana_may_send_the_bishop_onto_f4_and_the_bomb_onto_d8():
    # « Une pièce adverse pourrait être capturée de cette façon. »
    state, events = act(game(BXE4), {"type": "move", "from": "h1", "to": "e4"}, (Draw("redirect", item="banana", square="e4"), 1),
                        (Draw("drop", piece="Wario", item="bomb"), 0))
    assert steps(events, "redirect")[0]["eligible"] == ["e5", "f4"]
    assert state["pieces"]["f4"] == "B" and state["captured"]["b"] == ["n"]
    state, events = act(game(BXE4), {"type": "move", "from": "h1", "to": "e4"}, (Draw("redirect", item="banana", square="e4"), 0),
                        (Draw("redirect", item="bomb", square="e7"), 1), (Draw("drop", piece="Wario", item="bomb"), 0))
    assert steps(events, "redirect")[1]["eligible"] == ["d6", "d8", "f6", "f8"]
    assert state["pieces"]["d8"] == "B" and state["captured"]["b"] == ["b"]


WALUIGI = "erk2rq1/1m2e1m1/mppmne1m/p1BpppPp/mm1P1QbP/1Nmnw1dm/e1mP2d1/1BwR1RKN b"


def test_book_rxf6_waluigi_turns_the_g8_queen_white_and_she_can_take_the_king():
    state = game(WALUIGI)
    after = dict(state["pieces"])
    after["f6"] = after.pop("f8")
    turncoats = sorted(square for square, piece in after.items() if piece.islower() and piece != "k")
    state, events = act(state, {"type": "move", "from": "f8", "to": "f6"}, egg("waluigi"),
                        (Draw("turncoat", piece="Waluigi", colour="black"), turncoats.index("g8")), (Draw("drop", piece="Donkey", item="banana", square="f6"), 1))
    assert steps(events, "egg")[0]["effect"] == "waluigi"
    assert steps(events, "turncoat")[0]["square"] == "g8" and state["pieces"]["g8"] == "Q"
    assert fen(state) == "erk3Q1/1m2e1d1/mppmnr1m/p1BpppPp/mm1P1QbP/1Nmnw1dm/e1mP2d1/1BwR1RKN"
    state = done(state)
    assert {"type": "move", "from": "g8", "to": "c8"} in GAME.legal_actions(state, WHITE)
    state = move(state, "g8", "c8")
    assert GAME.outcome(state)["winners"] == [WHITE]


# Pieces move as in chess ----------------------------------------------------------------
def test_no_castling_and_no_en_passant():
    state = game("4k3/8/8/8/4p3/8/3P4/R3K2R")
    legal = {(a["from"], a["to"]) for a in GAME.legal_actions(state, WHITE) if a["type"] == "move"}
    assert ("e1", "g1") not in legal and ("e1", "c1") not in legal
    state = done(move(state, "d2", "d4"))
    state = move(state, "e4", "d3")  # takes Toad's mushroom diagonally, not the pawn en passant
    assert state["pieces"]["d4"] == "P"


def test_the_goal_is_to_capture_every_king_including_promoted_ones():
    state = game("k7/8/8/8/8/8/1K6/K7")
    state = done(move(state, "a1", "b1"))
    assert GAME.outcome(state) is None  # White still has two kings
    state = game("7k/8/8/8/8/8/8/Kq6 b")
    state = move(state, "b1", "a1")
    assert GAME.outcome(state)["winners"] == [BLACK]


@pytest.mark.parametrize("piece", ["q", "r", "b", "n", "k"])
def test_a_pawn_promotes_as_in_chess_even_to_a_king(piece):
    state = move(game("k7/4P3/8/8/8/8/8/K7"), "e7", "e8")
    assert state["pending"] == {"kind": "promote", "square": "e8"} and state["phase"] == "choice"
    state, _ = act(state, {"type": "promote", "piece": piece})
    assert state["pieces"]["e8"] == piece.upper() and state["phase"] == "board"


def test_a_promoted_queen_has_the_stealth_power_if_not_used_yet():
    state = done(act(move(game("k7/4P3/8/8/8/8/8/K7"), "e7", "e8"), {"type": "promote", "piece": "q"})[0])
    state = done(move(state, "a8", "b8"))
    assert any(a["type"] == "stealth" and a["from"] == "e8" for a in GAME.legal_actions(state, WHITE))


# Items left behind ---------------------------------------------------------------------------
def test_toad_leaves_a_mushroom_on_its_start_square():
    assert move(game(), "e2", "e3")["items"] == {"e2": "m"}


def test_toad_leaves_its_mushroom_on_the_square_passed_over_after_a_double_step():
    assert move(game(), "e2", "e4")["items"] == {"e3": "m"}


def test_yoshi_leaves_an_egg_on_the_first_orthogonal_square_in_its_direction():
    assert move(game("4k3/8/8/8/8/8/8/1N2K3"), "b1", "c3")["items"] == {"b2": "e"}


def test_yoshi_leaves_its_egg_on_its_start_square_when_that_square_holds_a_piece():
    assert move(game(), "b1", "c3")["items"] == {"b1": "e"}


def test_donkey_drops_a_banana_on_a_random_free_diagonal_square_of_its_arrival():
    state, events = act(game("4k3/8/8/8/8/8/8/R3K3"), {"type": "move", "from": "a1", "to": "a4"},
                        (Draw("drop", piece="Donkey", item="banana", square="a4"), 1))
    assert steps(events, "drop")[0]["eligible"] == ["b3", "b5"] and state["items"] == {"b5": "d"}


def test_wario_drops_no_bomb_when_no_orthogonal_square_is_free():
    state, events = act(game("4k3/8/8/8/8/1P6/P1P5/BP2K3"), {"type": "move", "from": "a1", "to": "b2"})
    assert steps(events, "drop") == [{"kind": "drop", "item": "bomb", "eligible": [], "square": None}]
    assert state["items"] == {}


# Mario and Peach -------------------------------------------------------------------------------
def test_marios_stealth_move_goes_to_an_empty_square_and_only_its_owner_knows_where():
    state, events = act(game("4k3/8/8/8/8/8/8/3QK3"), {"type": "stealth", "from": "d1", "to": "d5"})
    assert "d5" not in str(events) and "d5" not in str(GAME.view(state, BLACK)) and "d5" not in str(
        GAME.view(state, None))
    assert GAME.view(state, WHITE)["hidden_queen"] == "d5" and GAME.view(state, BLACK)["queen_hidden"] == ["w"]
    assert "d1" not in state["pieces"] and state["report"]["changes"] == [{"square": "d1", "before": "Q", "after": None}]


def test_the_stealth_move_is_once_per_game():
    state = done(act(game("4k3/8/8/8/8/8/8/3QK3"), {"type": "stealth", "from": "d1", "to": "d5"})[0])
    state = done(move(state, "e8", "f8"))
    assert state["pieces"]["d5"] == "Q"  # back on the board after the opponent's turn
    state = done(move(state, "e1", "e2"))
    state = done(move(state, "f8", "e8"))
    refused(state, {"type": "stealth", "from": "d5", "to": "d6"}, "already used")


def test_a_piece_arriving_on_the_hidden_queens_square_captures_her():
    state = done(act(game("4k3/8/8/8/8/8/7r/3QK3"), {"type": "stealth", "from": "d1", "to": "d2"})[0])
    state, events = act(state, {"type": "move", "from": "h2", "to": "d2"}, (Draw("drop", piece="Donkey", item="banana", square="d2"), 0))
    assert steps(events, "capture")[0]["hidden"] is True and "Q" in state["captured"]["w"]
    assert GAME.view(state, WHITE)["hidden_queen"] is None and state["queen_hidden"] == []


def test_the_stealth_queen_is_not_a_normal_piece_for_the_opponents_moves():
    state = done(act(game("4k3/8/8/8/8/7r/8/3QK3"), {"type": "stealth", "from": "d1", "to": "d3"})[0])
    rook_moves = {a["to"] for a in GAME.legal_actions(state, BLACK) if a.get("from") == "h3"}
    assert {"d3", "c3", "b3", "a3"} <= rook_moves  # her square looks empty: the rook's line runs through it


def test_peach_throws_her_shell_at_an_enemy_in_queen_range_without_moving():
    state, _ = act(game("4k3/8/8/8/8/4r3/8/4K3"), {"type": "shell", "from": "e1", "to": "e3"})
    assert state["pieces"]["e1"] == "K" and "e3" not in state["pieces"] and state["captured"]["b"] == ["r"]
    state = done(move(done(state), "e8", "d8"))
    refused(state, {"type": "shell", "from": "e1", "to": "d8"}, "already thrown")


def test_rule_a_promoted_king_may_throw_the_shell_if_not_used_yet():
    # « Un roi promu dispose également de ce pouvoir, s'il n'a pas encore été utilisé. »
    state = done(act(move(game("k7/4P3/8/8/8/8/8/7K"), "e7", "e8"), {"type": "promote", "piece": "k"})[0])
    state = done(move(state, "a8", "b8"))
    assert {"type": "shell", "from": "e8", "to": "b8"} in GAME.legal_actions(state, WHITE)
    state = game("k7/4P3/8/8/8/8/8/7K")
    state["powers"]["w"]["shell"] = False  # Peach threw it already: the promoted king has none
    state = done(act(move(state, "e7", "e8"), {"type": "promote", "piece": "k"})[0])
    state = done(move(state, "a8", "b8"))
    assert not any(a["type"] == "shell" for a in GAME.legal_actions(state, WHITE))


# Arriving on items ------------------------------------------------------------------------------
def test_a_king_on_a_mushroom_goes_one_square_further():
    state = move(game("4k3/8/8/8/8/8/4m3/4K3"), "e1", "e2")
    assert state["pieces"].get("e3") == "K" and "e2" not in state["items"]


def test_a_pawn_on_a_mushroom_after_a_double_step_goes_two_squares_further():
    state = move(game("4k3/8/8/8/4m3/8/4P3/4K3"), "e2", "e4")
    assert state["pieces"].get("e6") == "P" and state["items"] == {"e3": "m"}


def test_a_knight_on_a_mushroom_jumps_once_more_in_the_same_direction():
    state = move(game("4k3/8/8/8/8/2m5/8/1N2K3"), "b1", "c3")
    assert state["pieces"].get("d5") == "N"


def test_a_slider_on_a_mushroom_jumps_over_an_adjacent_piece_and_captures_an_enemy_behind():
    state, events = act(game("4k3/8/3n4/3p4/3m4/8/8/3RK3"), {"type": "move", "from": "d1", "to": "d4"},
                        (Draw("drop", piece="Donkey", item="banana"), 0))
    assert state["pieces"].get("d6") == "R" and "n" in state["captured"]["b"]


def test_a_slider_does_not_jump_onto_its_own_colour():
    state, _ = act(game("4k3/8/3N4/3p4/3m4/8/8/3RK3"), {"type": "move", "from": "d1", "to": "d4"},
                   (Draw("drop", piece="Donkey", item="banana"), 0))
    assert state["pieces"].get("d4") == "R"


@pytest.mark.parametrize("item, purpose, eligible", [
    ("d", Draw("redirect", item="banana", square="d4"), ["c4", "d3", "d5", "e4"]),
    ("w", Draw("redirect", item="bomb", square="d4"), ["c3", "c5", "e3", "e5"]),
])
def test_a_banana_or_bomb_redirects_the_piece_one_square_at_random(item, purpose, eligible):
    for index, square in enumerate(eligible):
        state, events = act(game(f"4k3/8/8/8/3{item}4/8/8/3QK3"), {"type": "move", "from": "d1", "to": "d4"},
                            (purpose, index))
        assert steps(events, "redirect")[0]["eligible"] == eligible and state["pieces"][square] == "Q"


def test_a_redirect_may_bring_a_piece_back_to_its_start_square():
    state, _ = act(game("4k3/8/8/8/8/8/3d4/3QK3"), {"type": "move", "from": "d1", "to": "d2"},
                   (Draw("redirect", item="banana", square="d2"), 1))
    assert state["pieces"]["d1"] == "Q"


def test_pawns_may_take_items_diagonally():
    state = game("4k3/8/8/8/8/3e4/4P3/4K3")
    assert {"type": "move", "from": "e2", "to": "d3"} in GAME.legal_actions(state, WHITE)


def test_an_item_acts_once_on_a_path():
    # d4 banana → d5 banana → back to d4 (used): the chain stops there.
    state, events = act(game("4k3/8/8/3d4/3d4/8/8/3QK3"), {"type": "move", "from": "d1", "to": "d4"},
                        (Draw("redirect", item="banana", square="d4"), 2), (Draw("redirect", item="banana", square="d5"), 1))
    assert len(steps(events, "redirect")) == 2 and state["pieces"]["d4"] == "Q"


# Eggs -------------------------------------------------------------------------------------------
EGG_BOARD = "4k3/8/8/3r4/8/3e4/8/3QK3"  # the queen takes the egg on d3


def egg_move(effect, *more, fen=EGG_BOARD, **options):
    return act(game(fen, **options), {"type": "move", "from": "d1", "to": "d3"}, egg(effect), *more)


def test_king_boo_swaps_the_piece_that_moved_with_any_piece_the_mover_chooses():
    state, _ = egg_move("kingboo")
    assert state["pending"] == {"kind": "swap", "square": "d3"}
    state, _ = act(state, {"type": "swap", "with": "d5"})
    assert state["pieces"]["d3"] == "r" and state["pieces"]["d5"] == "Q"


def test_koopa_sends_the_piece_back_to_its_start_square():
    assert egg_move("koopa")[0]["pieces"]["d1"] == "Q"


def test_toadette_puts_a_captured_piece_back_and_a_banana_under_it_goes_off():
    fen_text = "4k3/8/8/3r4/8/3e4/8/3QK2d"
    state = game(fen_text)
    state["captured"]["w"] = ["N"]
    state, _ = act(state, {"type": "move", "from": "d1", "to": "d3"}, egg("toadette"))
    assert state["pending"] == {"kind": "revive", "square": "d3"}
    state, events = act(state, {"type": "revive", "piece": "N", "to": "h1"}, (Draw("redirect", item="banana", square="h1"), 0))
    assert state["pieces"]["g1"] == "N" and state["captured"]["w"] == []


def test_toadette_does_nothing_when_nothing_was_captured():
    state, events = egg_move("toadette")
    assert steps(events, "egg")[0]["applies"] is False and state["pending"] is None


def test_rule_toadette_puts_a_pawn_back_anywhere_on_its_first_rank_or_on_its_last_where_it_is_promoted():
    # « replacer une pièce capturée n'importe où sur le plateau »: a pawn too, on any rank.
    def toadette_with_a_captured_pawn():
        state = game(EGG_BOARD)
        state["captured"]["w"] = ["P"]
        state, _ = act(state, {"type": "move", "from": "d1", "to": "d3"}, egg("toadette"))
        return state
    state = toadette_with_a_captured_pawn()
    revivable = {a["to"] for a in GAME.legal_actions(state, WHITE) if a["type"] == "revive"}
    assert {"a1", "h1", "a8", "h8"} <= revivable and "e1" not in revivable and "d5" not in revivable
    first, _ = act(state, {"type": "revive", "piece": "P", "to": "a1"})
    assert first["pieces"]["a1"] == "P" and first["phase"] == "board"
    first = done(move(done(first), "e8", "f8"))
    assert {"type": "move", "from": "a1", "to": "a2"} in GAME.legal_actions(first, WHITE)  # it stands and moves on
    last, _ = act(toadette_with_a_captured_pawn(), {"type": "revive", "piece": "P", "to": "a8"})
    assert last["pending"] == {"kind": "promote", "square": "a8"} and last["phase"] == "choice"
    last, _ = act(last, {"type": "promote", "piece": "q"})
    assert last["pieces"]["a8"] == "Q" and last["phase"] == "board"


def test_rule_king_boo_swaps_with_any_piece_and_your_pawn_on_its_last_rank_is_promoted():
    # « échanger la position de la pièce ayant joué avec n'importe quelle autre sur le plateau »: the pawn on
    # g8 may change place with the queen that took the egg on its first rank; only an enemy pawn is never
    # sent onto its own last rank (the book is silent on such a pawn, which could neither move nor promote).
    state, _ = act(game("4k1P1/8/8/8/8/8/p7/3eK3"), {"type": "move", "from": "e1", "to": "d1"}, egg("kingboo"))
    swaps = [a["with"] for a in GAME.legal_actions(state, WHITE) if a["type"] == "swap"]
    assert swaps == ["e8", "g8"]  # a2's black pawn would stand on d1, its last rank
    refused(state, {"type": "swap", "with": "a2"}, "never an enemy pawn onto its last rank")
    state, _ = act(state, {"type": "swap", "with": "g8"})
    assert state["pieces"]["d1"] == "P" and state["pieces"]["g8"] == "K" and state["pending"] is None
    state = game("4k3/8/8/8/8/8/3P4/3eK3")
    state, _ = act(state, {"type": "move", "from": "e1", "to": "d1"}, egg("kingboo"))
    state, _ = act(state, {"type": "swap", "with": "d2"})
    assert state["pieces"]["d1"] == "P" and state["pieces"]["d2"] == "K"  # a pawn on its first rank
    state, _ = act(game("k3e3/4K3/8/8/8/8/3P4/8"), {"type": "move", "from": "e7", "to": "e8"}, egg("kingboo"))
    state, _ = act(state, {"type": "swap", "with": "d2"})
    assert state["pieces"]["e8"] == "P" and state["pending"] == {"kind": "promote", "square": "e8"}
    state, _ = act(state, {"type": "promote", "piece": "n"})
    assert state["pieces"]["e8"] == "N" and state["phase"] == "board"


def test_chomp_eats_the_piece():
    state, _ = egg_move("chomp")
    assert "d3" not in state["pieces"] and state["captured"]["w"] == ["Q"]


def test_chomp_eating_peach_loses_the_game():
    state, _ = act(game("4k3/8/8/8/8/8/4e3/4K3"), {"type": "move", "from": "e1", "to": "e2"}, egg("chomp"))
    assert GAME.outcome(state)["winners"] == [BLACK]


def test_daisy_lets_the_same_piece_move_again():
    state, _ = egg_move("daisy")
    assert state["pending"] == {"kind": "again", "square": "d3"}
    refused(state, {"type": "move", "from": "e1", "to": "e2"}, "same piece")
    state = move(state, "d3", "d5")
    assert state["pieces"]["d5"] == "Q" and "r" in state["captured"]["b"]


def test_bowser_holds_the_piece_during_its_owners_next_turn():
    state = done(egg_move("bowser")[0])
    state = done(move(state, "e8", "f8"))
    refused(state, {"type": "move", "from": "d3", "to": "d4"}, "Bowser")
    state = done(move(state, "e1", "e2"))
    state = done(move(state, "f8", "e8"))
    assert {"type": "move", "from": "d3", "to": "d4"} in GAME.legal_actions(state, WHITE)


def test_rule_bowsers_piece_is_shown_held_on_every_screen():
    # « Bowser immobilise la pièce (qui passe en jaune ou rouge) »: every view marks it (the screen draws ⛓).
    state = done(egg_move("bowser")[0])
    for viewer in (WHITE, BLACK, None):
        assert GAME.view(state, viewer)["immobile"] == {"d3": {"colour": "w", "since": 0}}


def test_luigi_turns_a_random_enemy_piece_to_your_side():
    state, events = egg_move("luigi")  # one black piece besides the king: no draw needed
    assert steps(events, "turncoat")[0]["eligible"] == ["d5"] and state["pieces"]["d5"] == "R"


def test_waluigi_turns_one_of_your_pieces_to_the_other_side():
    state, _ = egg_move("waluigi")
    assert state["pieces"]["d3"] == "q"


def test_eggs_drawn_among_applicable_effects_when_the_table_chooses_so():
    state, events = egg_move("kingboo", eggs="applicable")
    effects = [effect for effect in EGG_EFFECTS if effect != "toadette"]
    assert steps(events, "egg")[0]["effect"] == "kingboo" and len(effects) == 7


def test_a_bonus_that_asks_a_choice_may_be_declined():
    state, _ = act(egg_move("kingboo")[0], {"type": "decline"})
    assert state["pending"] is None and state["phase"] == "board"


# The notation ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [BXE4, "qbbrrnek/pppppppp/5n2/8/1BwP4/3m4/PPP1PPPP/QBNN1KRR", STANDARD])
def test_positions_in_the_books_notation_are_read_and_written_back(text):
    assert to_fen(*parse_fen(text)) == text
    assert GAME.view(game(text), WHITE)["fen"] == text


@pytest.mark.parametrize("text, complaint", [
    ("8/8/8/8/8/8/8/8", "at least one king"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP", "8 ranks"),
    ("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "Unknown letter"),
    ("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "8 squares"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR", "8 squares"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ?BNR", "Unknown letter"),
    ("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "at least one king"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR", "at least one king"),
    ("kkkkkkkk/kk6/8/8/8/8/8/K7", "at most 9 kings"),
    ("k7/8/8/8/8/KK6/8/KKKKKKKK", "at most 9 kings"),
    ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR", "Unknown letter"),
    ("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/PPPPPPPP/RNBQKBNR", "at most 32 pieces"),
])
def test_a_malformed_position_is_refused_when_the_table_is_created(text, complaint):
    with pytest.raises(IllegalAction, match=complaint):
        GAME.normalize_options({"position": [text]})
    with pytest.raises(IllegalAction, match=complaint):
        parse_fen(text)


def back_ranks(state):
    return ("".join(state["pieces"][f"{f}1"] for f in "abcdefgh"), "".join(state["pieces"][f"{f}8"] for f in "abcdefgh"))


def bishops_on_both_colours(rank: str) -> bool:
    files = [i for i, piece in enumerate(rank.lower()) if piece == "b"]
    return len(files) == 2 and files[0] % 2 != files[1] % 2


def test_a_random_start_shuffles_each_side_on_its_own_as_the_books_first_diagram():
    # The first diagram: « qbbrrnnk » (before 1...Nf6) against « QBNNBKRR »: each side shuffled on its own.
    seen = set()
    for seed in ("cd", "ce", "cf", "d0"):
        state = GAME.setup(GAME.normalize_options({"start": "random", "colours": "first"}), SEATS,
                           TableRng(seed * 32, EMPTY_POOL, 0))
        white, black = back_ranks(state)
        assert sorted(white) == sorted("RNBQKBNR") and sorted(black) == sorted("rnbqkbnr")
        assert bishops_on_both_colours(white) and bishops_on_both_colours(black)
        seen.add(white.lower() == black)
    assert False in seen  # the two sides differ (a mirrored start would always be equal)


def test_a_mirrored_random_start_gives_both_sides_the_same_back_rank():
    state = GAME.setup(GAME.normalize_options({"start": "mirrored", "colours": "first"}), SEATS,
                       TableRng("cd" * 32, EMPTY_POOL, 0))
    white, black = back_ranks(state)
    assert sorted(white) == sorted("RNBQKBNR") and white.lower() == black and bishops_on_both_colours(white)


# The six places the referee differed from the book --------------------------------------------------
def material(state) -> int:
    """Every piece: on the board, captured, or hidden by its owner (the stealth queen)."""
    hidden = sum(1 for data in state["private"].values() if "stealth" in data)
    return len(state["pieces"]) + len(state["captured"]["w"]) + len(state["captured"]["b"]) + hidden


def test_a_stealth_move_onto_the_hidden_queens_square_is_a_capture():
    # « choisissez la case vide lorsque la dame se déplace vers une case vide »: a square that holds the
    # other side's hidden queen is not empty; as in the author's code, the move there captures her.
    state = done(act(game("3qk3/8/8/8/8/8/8/3QK3"), {"type": "stealth", "from": "d1", "to": "d4"})[0])
    assert material(state) == 4
    state, events = act(state, {"type": "stealth", "from": "d8", "to": "d4"})
    assert steps(events, "capture") == [{"kind": "capture", "square": "d4", "piece": "Q", "by": "q", "hidden": True}]
    assert state["pieces"]["d4"] == "q" and state["captured"]["w"] == ["Q"] and state["queen_hidden"] == []
    assert state["powers"]["b"]["stealth"] is True  # no stealth move took place: the power stays
    state = done(state)
    assert state["pieces"]["d4"] == "q" and material(state) == 4  # nobody overwritten when the turn ends


def test_daisy_on_a_promotion_promotes_the_pawn_then_gives_the_extra_move():
    # « Daisy (*D) permet de rejouer un coup avec la même pièce », and a pawn on the last rank is promoted
    # « as usual »: first the promotion, then the second move with the new piece.
    state, _ = act(game("k3e3/4P3/8/8/8/8/8/4K3"), {"type": "move", "from": "e7", "to": "e8"}, egg("daisy"))
    assert state["pending"] == {"kind": "promote", "square": "e8", "then": "again"} and state["phase"] == "choice"
    refused(state, {"type": "move", "from": "e8", "to": "e7"}, "First make the choice")
    state, _ = act(state, {"type": "promote", "piece": "q"})
    assert state["pieces"]["e8"] == "Q" and state["pending"] == {"kind": "again", "square": "e8"}
    state = move(state, "e8", "b8")
    assert state["pieces"]["b8"] == "Q" and state["phase"] == "board"


def test_bowser_holds_the_piece_not_the_square_when_king_boo_swaps_it_away():
    # « Bowser (*M) immobilise la pièce […]. Celle-ci ne pourra pas jouer au tour suivant. »
    state = done(egg_move("bowser", fen="4k3/8/8/3r3e/8/3e4/8/3QK3")[0])
    assert state["immobile"] == {"d3": {"colour": "w", "since": 0}}
    state, _ = act(state, {"type": "move", "from": "d5", "to": "h5"}, egg("kingboo"), (Draw("drop", piece="Donkey", item="banana"), 0))
    state = done(act(state, {"type": "swap", "with": "d3"})[0])
    assert state["pieces"]["h5"] == "Q" and state["pieces"]["d3"] == "r" and "h5" in state["immobile"]
    refused(state, {"type": "move", "from": "h5", "to": "h6"}, "Bowser holds")
    assert not any(a.get("from") == "h5" for a in GAME.legal_actions(state, WHITE))
    state = done(move(state, "e1", "e2"))
    state = done(move(state, "e8", "f8"))
    assert {"type": "move", "from": "h5", "to": "h6"} in GAME.legal_actions(state, WHITE)


@pytest.mark.parametrize("redirect, eligible", [("capture", ["c4", "d3", "d5", "e4"]), ("free", ["c4", "d3", "d5"])])
def test_a_banana_may_send_a_piece_onto_an_enemy_who_is_captured_unless_the_table_reads_the_caption(
        redirect, eligible):
    # « Une pièce adverse pourrait être capturée de cette façon. » The white knight on c2 is never a target.
    state, events = act(game("4k3/8/8/8/3dn3/8/2N5/3QK3", redirect=redirect), {"type": "move", "from": "d1", "to": "d4"},
                        (Draw("redirect", item="banana", square="d4"), len(eligible) - 1))
    assert steps(events, "redirect")[0]["eligible"] == eligible
    if redirect == "capture":
        assert state["pieces"]["e4"] == "Q" and state["captured"]["b"] == ["n"]
    else:
        assert state["pieces"]["d5"] == "Q" and state["pieces"]["e4"] == "n"


def test_the_returning_hidden_queens_changes_are_the_exact_difference_of_the_two_boards():
    # « l'adversaire saura que votre dame a bougé mais pas où »: Black's rook drops its banana on her square.
    state = done(act(game("4k3/8/8/7r/8/8/8/3QK3"), {"type": "stealth", "from": "d1", "to": "d4"})[0])
    state, _ = act(state, {"type": "move", "from": "h5", "to": "e5"}, (Draw("drop", piece="Donkey", item="banana", square="e5"), 0))
    assert {"square": "d4", "before": None, "after": "d"} in state["report"]["changes"]
    state, events = act(state, {"type": "board_done"})
    revealed = state["report"]["revealed"]
    assert revealed["changes"] == [{"square": "d4", "before": "d", "after": "Q"}]
    assert state["pieces"]["d4"] == "Q" and "d4" not in state["items"]
    assert events[-1] == {"type": "stealth_revealed", "colour": "w", "square": "d4", "removed_item": "d"}


# Where the book is silent: the referee's choices, each listed in the screen's rules summary -------------
@pytest.mark.parametrize("leftovers", ["left", "none"])
def test_the_item_of_a_piece_that_koopa_sends_back_or_chomp_eats_follows_the_table_option(leftovers):
    # Silent: the book does not say whether such a piece still leaves its item (the author's site: it does not).
    state, _ = act(game("4k3/8/8/8/8/2e5/8/1N2K3", leftovers=leftovers), {"type": "move", "from": "b1", "to": "c3"},
                   egg("koopa"))
    assert state["pieces"]["b1"] == "N" and state["items"] == ({"b2": "e"} if leftovers == "left" else {})
    state, _ = act(game("4k3/8/8/8/4e3/8/4P3/4K3", leftovers=leftovers), {"type": "move", "from": "e2", "to": "e4"},
                   egg("chomp"))
    assert "e4" not in state["pieces"] and state["items"] == ({"e3": "m"} if leftovers == "left" else {})


@pytest.mark.parametrize("no_move", ["pass", "lose"])
def test_a_player_without_any_move_passes_or_loses_as_the_table_chose(no_move):
    # Silent: the book never says what happens when nothing can move (the author's site: that player loses).
    # White's only piece, Peach, is held by Bowser: no move, and a held piece throws no shell either.
    state = game("7k/8/8/8/8/8/8/K7 b", no_move=no_move)
    state["immobile"] = {"a1": {"colour": "w", "since": 0}}
    state = done(move(state, "h8", "h7"))
    if no_move == "pass":
        assert GAME.outcome(state) is None and GAME.legal_actions(state, WHITE) == [{"type": "pass"}]
        state = act(state, {"type": "pass"})[0]
        assert state["turn"] == "b" and state["passes"] == 1
    else:
        assert GAME.outcome(state)["winners"] == [BLACK]


def test_a_pawns_two_square_step_passes_over_an_egg_or_a_mushroom_but_not_a_banana_or_a_bomb():
    # Silent: as a slider, a pawn passes over the items that lie flat, and stops at those that go off.
    for item, two in (("e", True), ("m", True), ("d", False), ("w", False)):
        legal = GAME.legal_actions(game(f"4k3/8/8/8/8/4{item}3/4P3/4K3"), WHITE)
        assert ({"type": "move", "from": "e2", "to": "e4"} in legal) is two, item


def test_peachs_shell_flies_as_far_as_a_queen_moves_over_eggs_and_mushrooms_not_past_a_banana_or_bomb():
    # « lancer une carapace sur un ennemi à portée de dame »: a queen passes eggs and mushrooms and stops
    # on a banana or a bomb (the author's code stops the shell there too).
    state = game("4k3/8/8/8/8/4m3/4e3/4K3")
    assert {"type": "shell", "from": "e1", "to": "e8"} in GAME.legal_actions(state, WHITE)
    for item in "dw":
        state = game(f"4k3/8/8/4{item}3/8/4m3/4e3/4K3")
        assert not any(a["type"] == "shell" for a in GAME.legal_actions(state, WHITE)), item


def test_king_boo_never_swaps_the_hidden_queen_and_luigi_never_turns_her():
    # Silent: her square looks empty to everyone but her owner, so no effect may touch her.
    state = done(act(game("4k3/4e3/8/8/8/8/8/3QK3"), {"type": "stealth", "from": "d1", "to": "a4"})[0])
    boo, _ = act(state, {"type": "move", "from": "e8", "to": "e7"}, egg("kingboo"))
    assert [a["with"] for a in GAME.legal_actions(boo, BLACK) if a["type"] == "swap"] == ["e1"]
    luigi, events = act(state, {"type": "move", "from": "e8", "to": "e7"}, egg("luigi"))
    assert steps(events, "egg")[0]["applies"] is False and material(luigi) == 3


def test_daisys_second_move_sets_off_no_egg():
    # Silent: the author's code gives eggs no effect on the second move.
    state, _ = egg_move("daisy", fen="4k3/8/8/3e4/8/3e4/8/3QK3")
    state, events = act(state, {"type": "move", "from": "d3", "to": "d5"})
    assert steps(events, "egg_spent") == [{"kind": "egg_spent", "square": "d5"}] and state["pending"] is None


# Turns and bad input ------------------------------------------------------------------------------------
def test_the_mover_confirms_board_done_before_the_other_player_moves():
    state = move(game(), "e2", "e4")
    assert state["phase"] == "board" and GAME.waiting(state)[0]["seat"] == WHITE
    refused(state, {"type": "move", "from": "e7", "to": "e5"}, "Not now: the table is changing the board", seat=BLACK)
    assert state["report"]["changes"] == [{"square": "e2", "before": "P", "after": None},
                                          {"square": "e3", "before": None, "after": "m"},
                                          {"square": "e4", "before": None, "after": "P"}]


@pytest.mark.parametrize("action, complaint", [
    ({"type": "move", "from": "e2", "to": "e5"}, "cannot go"),
    ({"type": "move", "from": "e7", "to": "e5"}, "no piece of yours"),  # a piece of the other side
    ({"type": "move", "from": "z9", "to": "e4"}, "two squares"),  # off the board
    ({"type": "move", "from": "e2", "to": "e9"}, "two squares"),
    ({"type": "move", "from": ["e2"], "to": None}, "two squares"),
    ({"type": "move"}, "two squares"),
    ({"type": "stealth", "from": "d1", "to": "d3"}, "empty square within her reach"),
    ({"type": "stealth", "from": "d8", "to": "d5"}, "queen's (Mario's)"),  # the other side's queen
    ({"type": "stealth", "from": "d1", "to": "i4"}, "empty square within her reach"),
    ({"type": "stealth", "from": 7, "to": "d4"}, "queen's (Mario's)"),
    ({"type": "shell", "from": "e1", "to": "e8"}, "queen's reach"),
    ({"type": "shell", "from": "e8", "to": "e1"}, "thrown by a king"),  # the other side's king
    ({"type": "shell", "from": "e1", "to": "e0"}, "queen's reach"),
    ({"type": "promote", "piece": "q"}, "Not now"),
    ({"type": "swap", "with": "d8"}, "Not now"),
    ({"type": "revive", "piece": "Q", "to": "e4"}, "Not now"),
    ({"type": "decline"}, "Not now"),
    ({"type": "board_done"}, "Not now"),
    ({"type": "pass"}, "You have a move"),
    ({"type": "castle"}, "Unknown action"),
    ({"type": None}, "Unknown action"),
])
def test_bad_moves_are_refused_and_change_nothing(action, complaint):
    refused(game(), action, complaint)


def test_an_action_for_the_other_side_is_refused_and_changes_nothing():
    refused(game(), {"type": "move", "from": "e7", "to": "e5"}, "Not your turn", seat=BLACK)
    refused(game(), {"type": "move", "from": "e2", "to": "e4"}, "Not your turn", seat=BLACK)
    refused(game(), {"type": "stealth", "from": "d1", "to": "d3"}, "Not your turn", seat=3)


@pytest.mark.parametrize("action, complaint", [
    ({"type": "swap", "with": "h8"}, "King Boo swaps"),  # an empty square: nothing to swap with
    ({"type": "swap", "with": "a5"}, "King Boo swaps"),  # an item, not a piece
    ({"type": "swap", "with": "d3"}, "King Boo swaps"),  # the piece itself
    ({"type": "swap", "with": "k9"}, "King Boo swaps"),
    ({"type": "revive", "piece": "N", "to": "e4"}, "no such choice"),
    ({"type": "promote", "piece": "q"}, "no such choice"),
    ({"type": "move", "from": "e1", "to": "e2"}, "First make the choice"),
])
def test_bad_choices_after_king_boo_are_refused_and_change_nothing(action, complaint):
    state, _ = egg_move("kingboo", fen="4k3/8/8/m2r4/8/3e4/8/3QK3")
    refused(state, action, complaint)


@pytest.mark.parametrize("action, complaint", [
    ({"type": "revive", "piece": "N", "to": "d5"}, "Put it on a square without a piece"),  # a piece stands there
    ({"type": "revive", "piece": "N", "to": "d9"}, "Put it on a square without a piece"),  # off the board
    ({"type": "revive", "piece": "P", "to": "e1"}, "Put it on a square without a piece"),  # a pawn, where the king is
    ({"type": "revive", "piece": "n", "to": "a4"}, "brings back one of your captured pieces"),  # the other side's
    ({"type": "revive", "piece": "Q", "to": "a4"}, "brings back one of your captured pieces"),  # not captured
    ({"type": "revive", "piece": ["N"], "to": "a4"}, "brings back one of your captured pieces"),
    ({"type": "swap", "with": "d5"}, "no such choice"),
])
def test_bad_choices_after_toadette_are_refused_and_change_nothing(action, complaint):
    state = game()
    state = game("4k3/8/8/3r4/8/3e4/8/3QK3")
    state["captured"] = {"w": ["N", "P"], "b": ["n"]}
    state, _ = act(state, {"type": "move", "from": "d1", "to": "d3"}, egg("toadette"))
    refused(state, action, complaint)


@pytest.mark.parametrize("piece", ["p", "P", "x", "Q", None, ["q"]])
def test_a_promotion_to_anything_but_q_r_b_n_or_k_is_refused(piece):
    state = move(game("k7/4P3/8/8/8/8/8/K7"), "e7", "e8")
    refused(state, {"type": "promote", "piece": piece}, "Promote to a queen")


@pytest.mark.parametrize("action", [
    {"type": "move", "from": "a8", "to": "b8"}, {"type": "stealth", "from": "b1", "to": "b2"},
    {"type": "shell", "from": "a8", "to": "a1"}, {"type": "board_done"}, {"type": "pass"}, {"type": "decline"},
    {"type": "promote", "piece": "q"},
])
def test_every_action_after_the_game_ended_is_refused_and_changes_nothing(action):
    state = move(game("k7/8/8/8/8/8/8/Kq6 b"), "b1", "a1")
    assert GAME.outcome(state)["winners"] == [BLACK]
    for seat in (WHITE, BLACK):
        refused(state, action, "The game is over", seat=seat)
        assert GAME.legal_actions(state, seat) == []


def test_a_player_who_leaves_loses_by_forfeit():
    state, _ = GAME.withdraw(game(), BLACK, ScriptedRng())
    assert GAME.outcome(state)["winners"] == [WHITE]
