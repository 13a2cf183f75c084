"""Every choice the referee makes where the book (`chakart.fr.txt`) is silent or reads two ways.

Each is shown to the players in the Chakart screen's fold « Rules of this table »
(`static/js/games/chakart.js`, ``SILENT``: the same ids, with the words in English and French),
marked "the book is silent" (or "the book reads two ways"), with the table's choice where an
option changes it. Where the author's vchess code of 2020-2021 settles a case, we follow it and
say so. ``tests/test_chakart_silent.py`` checks that the screen lists exactly these.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Choice:
    id: str
    option: str | None = None  # the table option that changes it
    reads_two_ways: bool = False  # the book says something, but two readings are possible


SILENT_CHOICES = (
    Choice("colours", option="colours"),  # who plays White: drawn, or the first seat
    Choice("start", option="start", reads_two_ways=True),  # the first diagram: each side shuffled on its own
    Choice("slides"),  # sliders pass over eggs and mushrooms, stop on bananas and bombs (author's code)
    Choice("pawn_step"),  # a pawn's two-square step: over an egg or a mushroom, not a banana or a bomb
    Choice("redirect", option="redirect", reads_two_ways=True),  # the sentence captures, the caption does not
    Choice("redirect_own"),  # never onto a piece of its own side; nowhere to go: it stays
    Choice("mushroom_step"),  # king, pawn, knight: on only to a square without a piece (author's code)
    Choice("eggs", option="eggs", reads_two_ways=True),  # « certains bonus pourraient ne pas être applicables »
    Choice("decline"),  # King Boo, Toadette and Daisy may be declined
    # King Boo and Toadette put a pawn « n'importe où »: the mover's pawn on its last rank is promoted (the
    # author's code forbids that square instead); an enemy pawn never goes onto its own last rank (as there).
    Choice("kingboo"),  # any other piece; the mover's pawn promotes on its last rank, an enemy pawn never goes onto its own
    Choice("toadette"),  # one of your own captured pieces, anywhere (a pawn promotes on its last rank); on an egg or mushroom: taken, no effect
    Choice("daisy"),  # the second move sets off no egg (author's code), leaves its item as usual
    Choice("bowser"),  # through the owner's next turn; the hold goes with the piece; no shell either
    Choice("turncoats"),  # Luigi and Waluigi: never a king, nor a pawn onto its new last rank
    Choice("leftovers", option="leftovers"),  # the item of a piece that Koopa or Chomp took
    Choice("stealth_hidden"),  # hidden during one turn of the opponent, then back where she went
    Choice("stealth_found"),  # an enemy arriving on her square captures her (a stealth move there too)
    Choice("stealth_items"),  # an item dropped on her square goes when she comes back; effects pass her by
    Choice("shell"),  # as far as a queen moves (past eggs and mushrooms, not bananas or bombs); enemies only
    Choice("promotion"),  # q, r, b, n or k, chosen once the whole move has resolved
    Choice("no_move", option="no_move"),  # pass (a draw when neither can move), or lose (author's site)
    Choice("fifty_moves"),  # a draw after 50 moves each without a capture, a pawn move or an item
)
