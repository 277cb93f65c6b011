"""Tenace's wire layer: what the hub and every table device share.

Beneath the applications (``hub``, ``tablet``, ``firmware_bridge``) and above ``bridgecore``:

* :mod:`wire.protocol`  the topic grammar (builders and one parser), the event envelope and
  the hub's reply (docs/protocol.md);
* :mod:`wire.messages`  every message typed and bounded (msgspec): the events, the reply, the
  director's commands, and the one decoder;
* :mod:`wire.views`     the views the hub publishes and the devices read (table, seat, alert,
  result, ranking, traveller, presence), typed, with ``to_json`` / ``from_json``;
* :mod:`wire.schema`    their JSON Schema (``python -m wire.schema``,
  docs/protocol.schema.json);
* :mod:`wire.mqtt`      the MQTT 3.1.1 client every Tenace program uses (paho-mqtt 2.x);
* :mod:`wire.outbox`    a device's persistent outbox (SQLite, WAL);
* :mod:`wire.link`      the one device link (tablet, card readers, dealing machine,
  simulator): events up in order and exactly once, replies and state down;
* :mod:`wire.catalogs`  the gettext translation catalogs (Babel reads the ``.po`` files,
  compiled in memory; docs/translating.md);
* :mod:`wire.errors`    the one exception tree (:class:`wire.errors.WireError`);
* :mod:`wire.bridgewebs` BridgeWebs' documented results upload (``tenace upload
  bridgewebs`` and the console's evening page);
* :mod:`wire.processes` stopping a child process, waiting for a loopback port (for the
  programs that start a broker or pcscd for themselves).

It imports ``bridgecore``, paho-mqtt, msgspec and Babel, never an application nor ``tenace``.
"""
