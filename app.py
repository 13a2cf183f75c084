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
from companion.config import BadSetting
from companion.store import DamagedDatabase

try:
    app = create_app()
except (DamagedDatabase, BadSetting) as refusal:
    sys.exit(f"Companion cannot start.\n{refusal}")


def announce(url: str) -> None:
    """Prints where the host page is, with a QR code when a terminal shows it."""
    print(f"Companion is running: open {url} on the host screen.", flush=True)
    if sys.stdout.isatty():
        import qrcode

        code = qrcode.QRCode(border=1)
        code.add_data(url)
        code.print_ascii(invert=True)


def serve(host: str, port: int) -> None:
    """gevent's WSGI server on a listener with Nagle's algorithm off: small
    Socket.IO frames leave at once instead of waiting up to 40 ms for an ACK."""
    import signal
    import socket

    from gevent.pywsgi import WSGIServer

    from companion.config import tune_garbage_collector

    # A file-size limit (ulimit -f) reached makes a write fail, answered as a full disk (503),
    # instead of killing the server with every phone's game.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    listener.bind((host, port))
    listener.listen(1024)
    tune_garbage_collector()
    WSGIServer(listener, app, log=None).serve_forever()


if __name__ == "__main__":
    from companion.network import base_url, local_interfaces, pick_lan_address

    host, port = app.config["HOST"], app.config["PORT"]
    lan = pick_lan_address(*local_interfaces()) if host in ("0.0.0.0", "::") else None
    local = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    announce(base_url(app.config["PUBLIC_URL"], f"http://{local}:{port}/", lan))
    serve(host, port)
