"""firmware_bridge: the devices that see the cards themselves, bridged to the hub.

* Card readers: :mod:`firmware_bridge.readers` (one :class:`CardReader` per seat, backends
  ``pcsc``, ``serial``, ``sim`` by name), :mod:`firmware_bridge.decks` (which tag is which
  card), :mod:`firmware_bridge.seats` (what a read means at the table),
  :mod:`firmware_bridge.daemon` (a table's readers publishing to the hub),
  :mod:`firmware_bridge.reader_cli` (``tenace devices readers | enrol | run``).
* Dealing machines: :mod:`firmware_bridge.dealer` and its neighbours (``tenace devices
  dealer``).

Each half has its own exceptions, drawn in its modules' docstrings: ``ReaderError``
(:mod:`firmware_bridge.readers`), ``DeckError`` (:mod:`firmware_bridge.decks`),
``DealerError`` (:mod:`firmware_bridge.dealer`).
"""
