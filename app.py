"""Entry point.

``python app.py`` serves on COMPANION_HOST:COMPANION_PORT (0.0.0.0:5000) with the
embedded defaults (SQLite under instance/, no reader needed);
``gunicorn -c gunicorn.conf.py app:app`` serves the same app in production.
"""

if __name__ == "__main__":
    # Before anything else imports socket or threading.
    from gevent import monkey

    monkey.patch_all()

import sys

from companion import create_app

app = create_app()


def announce(url: str) -> None:
    """Prints where the host page is, with a QR code when a terminal shows it."""
    print(f"Companion is running: open {url} on the host screen.", flush=True)
    if sys.stdout.isatty():
        import qrcode

        code = qrcode.QRCode(border=1)
        code.add_data(url)
        code.print_ascii(invert=True)


if __name__ == "__main__":
    from companion.network import base_url, local_interfaces, pick_lan_address

    host, port = app.config["HOST"], app.config["PORT"]
    lan = pick_lan_address(*local_interfaces()) if host in ("0.0.0.0", "::") else None
    local = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    announce(base_url(app.config["PUBLIC_URL"], f"http://{local}:{port}/", lan))
    app.extensions["companion.socketio"].run(app, host=host, port=port, log_output=False)
