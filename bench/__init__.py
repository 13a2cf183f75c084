"""Latency benchmark of Companion against a bare Flask-SocketIO echo server (bench/README.md)."""
