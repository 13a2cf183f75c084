"""Latency benchmark of Companion against a bare Flask-SocketIO echo server (see README.md)."""
