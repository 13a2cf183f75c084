"""Chakart's rules (the rule book `chakart.fr.txt`), each a test named after
it, with every random draw chosen by `ScriptedRng`; the book's three diagrams
replayed exactly; random legal games played to the end by Hypothesis."""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.fairness import EMPTY_POOL, TableRng
from companion.games import get_game
from companion.games.base import IllegalAction
from companion.games.chakart.board import STANDARD, parse_fen, to_fen
from companion.games.chakart.effects import EGG_EFFECTS
from tests.random_play import CONFIGS, play
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
    return ("egg on", EGG_EFFECTS.index(effect))


# The book's diagrams ---------------------------------------------------------------------
def test_book_after_1_d4_nf6_2_bb4_the_bomb_goes_on_a_free_square_orthogonally_next_to_b4():
    state = game("qbbrrnnk/pppppppp/8/8/8/8/PPPPPPPP/QBNNBKRR")
    state = done(move(state, "d2", "d4"))
    state = done(move(state, "g8", "f6"))  # g7 holds a pawn: Yoshi's egg stays on g8
    state, events = act(state, {"type": "move", "from": "e1", "to": "b4"}, ("Wario drops a bomb next to b4", 3))
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
    rng = ScriptedRng(("bomb on e7 sends the piece", draw), fallback=TableRng("ab" * 32, EMPTY_POOL, 0))
    state, events = GAME.apply(game(BXE4, redirect="free"), WHITE, {"type": "move", "from": "h1", "to": "e4"}, rng)
    assert [(s["kind"], s.get("square") or s.get("from")) for s in events[0]["steps"][:6]] == [
        ("move", "h1"), ("item", "e4"), ("redirect", "e4"), ("item", "e5"), ("mushroom", "e5"), ("item", "e7")]
    banana, jump, bomb = steps(events, "redirect")[0], steps(events, "mushroom")[0], steps(events, "redirect")[1]
    assert banana["eligible"] == ["e5"] and banana["to"] == "e5"  # d4, e3 hold white pawns, f4 a knight
    assert jump == {"kind": "mushroom", "square": "e5", "over": "e6", "to": "e7"}
    assert bomb["eligible"] == ["d6", "f6", "f8"] and bomb["to"] == lands
    assert state["pieces"][lands] == "B"


@pytest.mark.parametrize("redirect, script", [
    ("free", [("bomb on e7 sends the piece", 0)]),
    ("capture", [("banana on e4 sends the piece", 0), ("bomb on e7 sends the piece", 0)]),
])
def test_book_bxe4_ends_on_d6_with_a_bomb_on_c6_the_only_eligible_square(redirect, script):
    state, events = act(game(BXE4, redirect=redirect), {"type": "move", "from": "h1", "to": "e4"}, *script)
    assert steps(events, "drop")[-1] == {"kind": "drop", "item": "bomb", "eligible": ["c6"], "square": "c6"}
    assert fen(state) == "rn1b2qk/pbpp1ppp/1wwBp3/1p1R4/3P1nPr/4P1d1/PPP1mP1P/NNB1KRQ1"


def test_book_bxe4_by_the_sentence_the_banana_may_send_the_bishop_onto_f4_and_the_bomb_onto_d8():
    # « Une pièce adverse pourrait être capturée de cette façon. »
    state, events = act(game(BXE4), {"type": "move", "from": "h1", "to": "e4"}, ("banana on e4 sends the piece", 1),
                        ("Wario drops a bomb", 0))
    assert steps(events, "redirect")[0]["eligible"] == ["e5", "f4"]
    assert state["pieces"]["f4"] == "B" and state["captured"]["b"] == ["n"]
    state, events = act(game(BXE4), {"type": "move", "from": "h1", "to": "e4"}, ("banana on e4 sends the piece", 0),
                        ("bomb on e7 sends the piece", 1), ("Wario drops a bomb", 0))
    assert steps(events, "redirect")[1]["eligible"] == ["d6", "d8", "f6", "f8"]
    assert state["pieces"]["d8"] == "B" and state["captured"]["b"] == ["b"]


WALUIGI = "erk2rq1/1m2e1m1/mppmne1m/p1BpppPp/mm1P1QbP/1Nmnw1dm/e1mP2d1/1BwR1RKN b"


def test_book_rxf6_waluigi_turns_the_g8_queen_white_and_she_can_take_the_king():
    state = game(WALUIGI)
    after = dict(state["pieces"])
    after["f6"] = after.pop("f8")
    turncoats = sorted(square for square, piece in after.items() if piece.islower() and piece != "k")
    state, events = act(state, {"type": "move", "from": "f8", "to": "f6"}, egg("waluigi"),
                        ("Waluigi: which black piece", turncoats.index("g8")), ("Donkey drops a banana next to f6", 1))
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
                        ("Donkey drops a banana next to a4", 1))
    assert steps(events, "drop")[0]["eligible"] == ["b3", "b5"] and state["items"] == {"b5": "d"}


def test_wario_drops_no_bomb_when_no_orthogonal_square_is_free():
    state, events = act(game("4k3/8/8/8/8/1P6/P1P5/BN2K3"), {"type": "move", "from": "a1", "to": "b2"})
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
    state, events = act(state, {"type": "move", "from": "h2", "to": "d2"}, ("Donkey drops a banana next to d2", 0))
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
                        ("Donkey drops a banana", 0))
    assert state["pieces"].get("d6") == "R" and "n" in state["captured"]["b"]


def test_a_slider_does_not_jump_onto_its_own_colour():
    state, _ = act(game("4k3/8/3N4/3p4/3m4/8/8/3RK3"), {"type": "move", "from": "d1", "to": "d4"},
                   ("Donkey drops a banana", 0))
    assert state["pieces"].get("d4") == "R"


@pytest.mark.parametrize("item, purpose, eligible", [
    ("d", "banana on d4 sends the piece", ["c4", "d3", "d5", "e4"]),
    ("w", "bomb on d4 sends the piece", ["c3", "c5", "e3", "e5"]),
])
def test_a_banana_or_bomb_redirects_the_piece_one_square_at_random(item, purpose, eligible):
    for index, square in enumerate(eligible):
        state, events = act(game(f"4k3/8/8/8/3{item}4/8/8/3QK3"), {"type": "move", "from": "d1", "to": "d4"},
                            (purpose, index))
        assert steps(events, "redirect")[0]["eligible"] == eligible and state["pieces"][square] == "Q"


def test_a_redirect_may_bring_a_piece_back_to_its_start_square():
    state, _ = act(game("4k3/8/8/8/8/8/3d4/3QK3"), {"type": "move", "from": "d1", "to": "d2"},
                   ("banana on d2 sends the piece", 1))
    assert state["pieces"]["d1"] == "Q"


def test_pawns_may_take_items_diagonally():
    state = game("4k3/8/8/8/8/3e4/4P3/4K3")
    assert {"type": "move", "from": "e2", "to": "d3"} in GAME.legal_actions(state, WHITE)


def test_an_item_acts_once_on_a_path():
    # d4 banana → d5 banana → back to d4 (used): the chain stops there.
    state, events = act(game("4k3/8/8/3d4/3d4/8/8/3QK3"), {"type": "move", "from": "d1", "to": "d4"},
                        ("banana on d4 sends the piece", 2), ("banana on d5 sends the piece", 1))
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
    state, events = act(state, {"type": "revive", "piece": "N", "to": "h1"}, ("banana on h1 sends the piece", 0))
    assert state["pieces"]["g1"] == "N" and state["captured"]["w"] == []


def test_toadette_does_nothing_when_nothing_was_captured():
    state, events = egg_move("toadette")
    assert steps(events, "egg")[0]["applies"] is False and state["pending"] is None


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
])
def test_a_malformed_position_is_refused_when_the_table_is_created(text, complaint):
    with pytest.raises(IllegalAction, match=complaint):
        GAME.normalize_options({"position": [text]})


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
    ({"type": "move", "from": "e7", "to": "e5"}, "no piece of yours"),
    ({"type": "move", "from": "z9", "to": "e4"}, "two squares"),
    ({"type": "stealth", "from": "d1", "to": "d3"}, "empty square within her reach"),
    ({"type": "shell", "from": "e1", "to": "e8"}, "queen's reach"),
    ({"type": "promote", "piece": "q"}, "Not now"),
    ({"type": "castle"}, "Unknown action"),
])
def test_bad_moves_are_refused_and_change_nothing(action, complaint):
    refused(game(), action, complaint)


def test_a_player_who_leaves_loses_by_forfeit():
    state, _ = GAME.withdraw(game(), BLACK, ScriptedRng())
    assert GAME.outcome(state)["winners"] == [WHITE]


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(picks=st.integers(0, 10_000), config=st.sampled_from(CONFIGS["chakart"]))
def test_random_legal_games_end_with_a_captured_king_or_a_draw(picks, config):
    walk = play(GAME, config, picks)
    assert GAME.outcome(walk.state)["reason"] in (
        "every king of the other side was captured",
        "a draw: nothing happened for 50 moves, or nobody could move")
