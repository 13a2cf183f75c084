"""gunicorn settings for Companion: ``gunicorn -c gunicorn.conf.py app:app``.

Flask-SocketIO keeps each Socket.IO session in the memory of one process, so
it runs on ONE worker of the gevent class (its deployment guide); that worker
serves thousands of websockets concurrently. Scaling past one process means a
message queue (COMPANION_MESSAGE_QUEUE=redis://…) and a proxy with sticky
sessions, not more workers here.
"""

import os

bind = f"{os.environ.get('COMPANION_HOST', '0.0.0.0')}:{os.environ.get('COMPANION_PORT', '5000')}"
worker_class = "gevent"
workers = 1
worker_connections = int(os.environ.get("COMPANION_WORKER_CONNECTIONS", "2000"))
# Websockets live for hours: no request timeout kills them (gevent workers heartbeat anyway).
timeout = 0
graceful_timeout = 5
keepalive = 5
accesslog = os.environ.get("COMPANION_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("COMPANION_LOG_LEVEL", "info")


def post_worker_init(worker):
    from companion.config import tune_garbage_collector

    tune_garbage_collector()
