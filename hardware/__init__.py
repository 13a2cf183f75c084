"""NFC hardware for Companion: the reader loop and an NTAG215 emulator.

- ``hardware.reader``: :class:`~hardware.reader.Reader` runs nfcpy's
  ``ContactlessFrontend`` in a background thread and reports amiibo scans;
  ``python -m hardware.reader`` posts scans to a server or diagnoses a reader.
- ``hardware.emulate``: a virtual NTAG215 figure that answers nfcpy's ``udp``
  driver, for demos and tests without a reader.

Nothing here imports Flask or ``companion``: the app adapts to this package,
not the other way round.
"""
