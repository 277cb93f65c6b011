"""firmware_bridge: the devices that see the cards themselves, bridged to the hub.

* Card readers: :mod:`firmware_bridge.readers` (one :class:`CardReader` per seat, backends
  ``pcsc``, ``serial``, ``sim`` by name), :mod:`firmware_bridge.decks` (which tag is which
  card), :mod:`firmware_bridge.seats` (what a read means at the table),
  :mod:`firmware_bridge.daemon` (a table's readers publishing to the hub through
  :class:`wire.link.DeviceLink`), :mod:`firmware_bridge.vpcd_card` (pcscd and virtual tags,
  for tests and benchmarks).
* Dealing machines: :mod:`firmware_bridge.dealer` (the driver by URL) and its neighbours:
  ``serial_frames`` and ``dealer_messages`` (the protocol), ``dealer_sim`` (the simulator),
  ``dealer_run`` (check each board), ``dealer_hub`` (the bridge to the hub, a
  :class:`wire.link.DeviceLink` on the dealer topics), ``dealer_files`` (the machines'
  software's files).

The command line (``tenace devices readers | enrol | run | dealer``) is ``tenace``'s
(``tenace/reader_cli.py``, ``tenace/dealer_cli.py``): this package has no argparse code and
never imports ``tenace``.

One exception tree, :mod:`firmware_bridge.errors`::

    FirmwareBridgeError
    ├── ReaderError
    │   ├── UnknownBackendError (ValueError)
    │   └── BackendUnavailableError
    ├── DeckError (ValueError)
    ├── DealerError
    │   ├── DealerConnectionError
    │   ├── DealerSilent
    │   ├── DealerRefused
    │   └── DealerFileError
    ├── MessageError (ValueError)
    └── PcscdError (RuntimeError)
"""
