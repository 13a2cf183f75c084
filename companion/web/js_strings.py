"""The strings the browser scripts show, translated at render time.

Pages carry them as a JSON data block (not a script: the Content-Security-Policy
forbids inline scripts), read by static/js/i18n.js.
"""

from __future__ import annotations

from flask_babel import gettext


def js_strings() -> dict[str, str]:
    return {
        "connecting": gettext("Connecting…"),
        "connected": gettext("Connected"),
        "offline": gettext("Connection lost — reconnecting…"),
        "replaced": gettext("This seat was opened on another screen."),
        "removed": gettext("The host removed your seat."),
        "rolled": gettext("%(name)s rolled %(result)s"),
        "roll": gettext("Roll"),
        "tap_to_roll": gettext("Tap the die to roll"),
        "no_roll_yet": gettext("No roll yet"),
        "history": gettext("Rolls"),
        "seats": gettext("Seats"),
        "online": gettext("online"),
        "away": gettext("away"),
        "rename": gettext("Rename"),
        "remove": gettext("Remove"),
        "rename_prompt": gettext("New name for this seat:"),
        "remove_confirm": gettext("Remove %(name)s from the table?"),
        "close_joining": gettext("Close joining"),
        "open_joining": gettext("Open joining"),
        "joining_open": gettext("Joining is open"),
        "joining_closed": gettext("Joining is closed"),
        "close_table": gettext("Close the table and reveal the seed"),
        "close_confirm": gettext("Close this table? Nobody can act any more and the seed is revealed."),
        "start": gettext("Start the game"),
        "closed": gettext("This table is closed."),
        "seed": gettext("Seed"),
        "no_host_key": gettext("This screen does not hold the host key of this table: watching only."),
        "spectator": gettext("You are watching as a spectator."),
        "you": gettext("you"),
        "seat_n": gettext("Seat %(n)s"),
        "created_table": gettext("Table created"),
        "verify_ok": gettext("Verified: the commitment and all %(count)s draws check out."),
        "verify_fail": gettext("Mismatch: %(message)s"),
        "verify_pending": gettext("The seed is revealed when the table closes; draws can be verified then."),
        "verify_running": gettext("Recomputing every draw…"),
        "draw": gettext("Draw"),
        "purpose": gettext("Purpose"),
        "result": gettext("Result"),
        "entropy_from": gettext("Random contribution from %(name)s"),
        "error": gettext("Error"),
        "lobby": gettext("Waiting for players"),
        "your_tables": gettext("Tables hosted on this screen"),
        "reader_off": gettext("No NFC reader is used"),
        "reader_absent": gettext("NFC reader: not connected (plug it in; it is picked up by itself)"),
        "reader_connected": gettext("NFC reader ready: %(model)s"),
        "reader_error": gettext("NFC reader error: %(message)s"),
        "tap_now": gettext("%(name)s: tap your figures on the reader"),
        "tap_yours_now": gettext("Tap your figures on the reader now, then press Done."),
        "figure_waiting": gettext("%(figure)s is waiting: scan this code to take it"),
        "figure_tapped": gettext("%(figure)s (%(name)s)"),
        "my_figures": gettext("My figures"),
        "no_figures": gettext("No figure yet"),
        "add_figures": gettext("Add my figures"),
        "adding_done": gettext("Done"),
        "claim_figure": gettext("Take %(figure)s"),
        "no_reader": gettext("No reader? Pick your figures"),
        "search_figure": gettext("Figure name"),
        "search": gettext("Search"),
        "add": gettext("Add"),
        "nothing_found": gettext("Nothing found"),
    }
