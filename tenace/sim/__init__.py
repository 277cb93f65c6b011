"""The room simulator: virtual tablets and card readers playing whole sessions, locally or
through a real broker and hub.

* :mod:`tenace.sim.devices`   virtual devices: a table's life as a list of
  :class:`~tenace.sim.devices.DeviceEvent`, numbered as real devices number them, and
  applied straight to a :class:`hub.room.Room` (no broker);
* :mod:`tenace.sim.script`    the ground truth: the irregularities that can be injected,
  :class:`~tenace.sim.script.SimScript` (a session's events and what was injected), and the
  report of injected vs detected (:func:`~tenace.sim.script.compare`);
* :mod:`tenace.sim.bidding`   sensible legal calls from the four hands;
* :mod:`tenace.sim.board`     one board at one table, with at most one irregularity;
* :mod:`tenace.sim.session`   a whole session of every table (:func:`~tenace.sim.session.simulate`)
  and its local run (:func:`~tenace.sim.session.run_local`);
* :mod:`tenace.sim.driver`    scripts played through MQTT to a running hub, each device
  through its own :class:`wire.link.DeviceLink`;
* :mod:`tenace.sim.observer`  the director's side over MQTT (alerts, results, states) and
  :func:`~tenace.sim.observer.wait_for_hub`;
* :mod:`tenace.sim.chaos`     a room under faults (the hub killed, the broker restarted,
  tables cut off) and its results against a clean run (``tenace sim --chaos``);
* :mod:`tenace.sim.proxy`     the TCP proxy that cuts a table off, duplicates and delays;
* :mod:`tenace.sim.championship` many tables in several sections against the hub in its own
  process, live scoring on: the figures of benchmarks/championship.py and the ground truth;
* :mod:`tenace.sim.swiss`     a Swiss event played whole against a live hub, each next round
  read from the tables' views as the hub draws it;
* :mod:`tenace.sim.cli`       ``tenace sim`` and ``tenace demo``.

Exceptions::

    SimError     (script; a ValueError)     a simulation or a chaos plan that cannot be made
    DriverError  (driver; a RuntimeError)   a table could not get its events through
    ChaosError   (chaos; a RuntimeError)    the chaos run's (or a championship's) broker,
                                            hub or tables failed
    ProxyError   (proxy; a RuntimeError)    a proxy could not start (wrapped in ChaosError)
 Importing the package imports none of its modules (``tenace`` starts fast).
"""
