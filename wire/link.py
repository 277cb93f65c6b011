"""A device's link to the hub over MQTT: events up through the outbox, replies (and a
tablet's view of its table) down. The one link every Tenace device uses.

``DeviceLink(url, table, device, seat=..., outbox=..., on_state=..., ...)`` is one MQTT client
(:class:`wire.mqtt.MqttClient`: persistent session, client id = ``device`` unless
``client_id`` says otherwise, last will and birth on ``t/{table}/dev/{device}/status``) and
one worker thread that owns everything else. Who uses it, and on which topics:

* the tablet (``tablet.app``; ``kind="tablet"``) and the card readers' daemon
  (``firmware_bridge.daemon``): a table device, on ``t/{table}/ev/{device}`` and
  ``t/{table}/reply/{device}``, reading the table's views (below);
* a dealing machine's bridge (``firmware_bridge.dealer_hub``): ``table=None``, on the dealer
  topics ``dealer/{device}/ev`` and ``dealer/{device}/reply`` (presence on
  ``dealer/{device}/status``), its outbox taking the dealer's event types;
* the simulator and the replay of game records (``tenace.sim.driver``): a table device with
  ``views=False`` (it reads only its replies and the hub's presence), an outbox in memory
  (``Outbox(":memory:", device)``), without ``sent`` stamps (``stamp_sent=False``) and with
  or without presence (``presence``).

Two ways to equip a table with tablets (docs/protocol.md):

* one tablet per table (``seat=None``, device ``{table}-tab``): the tablet lies on the table
  in view of all four players and sends the events of whichever seat is to act. It
  subscribes to **no seat topic**: it never receives a hand, not even for a moment. Cards are
  entered on a picker of the cards not yet played, or come from the card readers; dummy's
  cards arrive in the public state once the opening lead is faced;
* one tablet per seat (``seat="N"``..., device ``{table}-{seat}``): it also reads its own
  seat's topic (its player's hand), and only that one.

Both read the table's retained ``state``, their own ``reply`` topic, the table's and their
own ``cmd`` topics and the hub's presence (``hub/status``, readable by every account; in an
event several hub processes share, ``hub/shard/{K}/status`` of the shard K that holds the
table, once its state names it: protocol 14).
A link with ``views=False``, and a dealing machine's, reads only its ``reply`` topic and the
hub's presence.

Sending (:meth:`DeviceLink.send`): the event is numbered and committed to the
:class:`wire.outbox.Outbox` before ``send`` returns, whatever the network is doing. The
worker publishes the outbox's head, **one envelope in flight at a time**, and the next one
only once the hub has answered: a hub that dies before committing a batch loses what it had
taken, and a later event accepted before an earlier one was resent would make the earlier one
``out_of_order`` for good. With no reply within ``reply_timeout`` the head is sent again with
the same id (the hub acknowledges a known id as ``duplicate`` and does not apply it twice);
after every reconnection the head is sent again at once; while the hub's presence reads
offline nothing is resent (the broker keeps what was sent for the hub's session). An ``ack``
settles the envelope (:meth:`Outbox.done`); a ``reject`` drops it (:meth:`Outbox.rejected`),
reports it through ``on_reply`` and then calls ``on_state`` again with the latest state from
the hub, for the screen to resynchronise; the events behind it go on (each gets its own
answer). A ``storage`` refusal (the hub could not write its log) is transient: kept and
resent.

Copies: a copy the broker has not acknowledged yet (paho holds it through an outage, and
sends it again itself on reconnection) is never doubled: the reply timeout publishes another
copy only once the broker has taken the last one, so an outage piles nothing up in the MQTT
client. An ``ack`` (``duplicate`` included) of an envelope the hub had refused clears the
refusal (:meth:`Outbox.cleared`) and is reported like any ``ack``: a device never shows a
refusal for an event the hub logged.

``hello``: on every (re)connection, and when the hub's presence comes back online, the link
first publishes a ``hello`` (not in the outbox, never logged) saying the last ``seq`` the hub
acknowledged to it (:meth:`Outbox.acked`), and sends nothing else until the hub answers it.
The reply says the last ``seq`` the hub's log holds of this device (``last``) and names that
log (``log``); when the log is the one that acknowledged them (:meth:`Outbox.adopt_log`)
and ``last`` is behind (a restored or damaged log), the envelopes after it are pending again
(:meth:`Outbox.resend_after`) and go again first, in order; the hub tells the director. The
history of another log (last week's session, another event) is never sent to a new one. Any
answer will do (a hub of an earlier version refuses ``hello`` as ``unknown_type``: its clock
still counts); after :data:`HELLO_TRIES` hellos without one, the events go without it.

Time stamps and the hub's clock: the envelope's ``time`` is when the player acted on the
device's clock, and stays so. Each copy published also carries ``sent``, the device's clock
at publication, and ``offset``, the link's estimate of the hub's clock minus the device's
(docs/protocol.md, section 6): the hub judges ``sent + offset`` against its tolerance, and
reads the player's time as ``time + offset``, so a tablet minutes or hours off plays, and what
was entered during a long outage keeps the times it really happened (the Laws' timings, 25A's
pause, stay true). The estimate is NTP's: every reply carries the hub's clock ``T``; with
``t0`` the device's clock when the copy answered was published and ``t1`` when the reply
arrived, one sample is ``T - (t0 + t1) / 2`` with a delay ``t1 - t0``; the link keeps the last
:data:`SAMPLES` samples and uses the one of the lowest delay (only copies answered at the
first try count: with two copies out, which one was answered is not known). A jump of the
device's clock (its difference to :func:`steady_clock`, which counts while the device
sleeps, moves by more than :data:`JUMP`: someone set the tablet's time) is logged, the
samples are dropped and the link says hello again before its next event, for a fresh
estimate (without hello, the samples move by the jump); the hub notices the changed offset
(a ``clock_jump`` notice to the director).

Threads (a link of its own, as on a tablet): paho's network thread only puts messages on a
queue. **Every callback runs on the link's worker thread** (``tenace-link-{device}``), never
on Kivy's: a Kivy app marshals each one to its main thread, e.g. ``on_state=lambda s:
Clock.schedule_once(lambda dt: presenter.show(s))``. A callback that raises is logged and the
link goes on. Anything malformed from the network (bad topic, bad JSON, a state of another
table, a hand of another seat, a reply to nobody) is logged and dropped; nothing received
can stop the worker.

A process that runs many links (the simulator's rooms) gives them one
:class:`wire.mux.LinkLoop` instead (``loop=``): the link then starts no thread; paho's
network work, the messages received, the connection's changes, the events entered and the
reply timeouts (a timer booked for when the reply in flight is due, no polling) all run the
link's step on the loop's one thread, where its callbacks run too. Everything else above
holds as it is.

Errors::

    LinkError       the link is closed, or set up inconsistently (outbox of another device)
    OutboxError     (wire.outbox) the outbox file cannot be written
"""

from __future__ import annotations

import json
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING, Any

import msgspec

from wire.errors import LinkError, MqttError
from wire.link_receiving import (
    SAMPLES,
    TRANSIENT_CODES,
    ClockEstimate,
    LinkReceiving,
    _Flight,
    _seconds,
)
from wire.mqtt import Message, MqttClient
from wire.outbox import Outbox
from wire.protocol import (
    Envelope,
    ProtocolError,
    Reply,
    topic_dealer_event,
    topic_dealer_reply,
    topic_dealer_status,
    topic_device_command,
    topic_device_status,
    topic_event,
    topic_hub_status,
    topic_reply,
    topic_seat,
    topic_state,
    topic_table_command,
    topic_tablet,
)

if TYPE_CHECKING:
    from wire.mux import LinkLoop

__all__ = [
    "FAREWELL",
    "HELLO_TRIES",
    "JUMP",
    "SAMPLES",
    "TRANSIENT_CODES",
    "ClockEstimate",
    "DeviceLink",
    "LinkError",
    "LinkState",
    "device_id",
    "spare_device_id",
    "steady_clock",
]

log = logging.getLogger(__name__)

FAREWELL = '{"online":false,"leaving":true}'
"""The status a device publishes itself on a clean stop (docs/protocol.md section 14): it is
leaving on purpose, offline at once, no alert; the will (no ``leaving``) is a device lost."""

HELLO_TRIES = 3
"""Hellos unanswered (one per reply timeout) before the link sends its events without one:
a hub that answers events but not ``hello`` never blocks a device."""

JUMP = 2.0
"""Seconds the device's clock may move against the monotonic clock before it is a jump."""

_SEATS = ("N", "E", "S", "W")
_POLL = 0.1             # seconds between looks at the connection when nothing arrives
_STOP = object()
_WAKE = object()


class LinkState(StrEnum):
    """What the screen shows of the connection (a StrEnum: the value is the i18n key)."""

    CONNECTING = "connecting"   # never connected yet since the app started
    ONLINE = "online"           # broker connected and the hub not known to be away
    OFFLINE = "offline"         # connection lost (reconnecting), or the hub is away


def device_id(table: str, seat: str | None = None) -> str:
    """The usual device id: ``{table}-tab`` for a table's tablet, ``{table}-{seat}`` for a
    seat's. ProtocolError (a ValueError) when the table or seat is not valid."""
    device = f"{table}-tab" if seat is None else f"{table}-{_check_seat(seat)}"
    topic_event(table, device)  # validates both
    return device


def spare_device_id(table: str, seat: str | None = None) -> str:
    """A fresh id for a spare tablet taking over (``{table}-tab.3f9c0a``): the hub keeps each
    device's last sequence number and its table, so a new tablet never reuses an id."""
    return f"{device_id(table, seat)}.{secrets.token_hex(3)}"


def _check_seat(seat: str) -> str:
    if seat not in _SEATS:
        raise ProtocolError("bad_topic", f"seat {seat!r} is not N, E, S or W")
    return seat


def steady_clock() -> float:
    """Seconds that pass at the same pace as the device's clock should, never set and
    counting while the device sleeps (Linux and Android: ``CLOCK_BOOTTIME``; elsewhere
    ``time.monotonic``): what the device's clock is compared with to notice a jump."""
    return time.clock_gettime(_BOOTTIME) if _BOOTTIME is not None else time.monotonic()


_BOOTTIME: int | None = getattr(time, "CLOCK_BOOTTIME", None)


class DeviceLink(LinkReceiving):
    """The link of one device (module docstring); ``table`` None for a dealing machine's
    bridge. Callbacks, all optional, run on the link's worker thread:

    * ``on_state(state: dict)``: the table's public state, each time it arrives (and again
      after a refusal, to resynchronise);
    * ``on_seat(view: dict)``: this seat's view ``{table, seat, board, hand, ...}`` (seat
      mode);
    * ``on_tablet(view: dict)``: the table tablet's own view ``{table, board, explanations,
      questions}`` (table mode, ``t/{table}/tablet``: never a hand);
    * ``on_reply(reply: Reply, envelope: Envelope)``: the hub's final answer to one of this
      tablet's envelopes (``reply.status`` ``ack`` or ``reject``; ``reply.code`` the reason's
      key for the player's language, ``reply.reason`` the hub's English text);
    * ``on_connection(state: LinkState)``: each change of :attr:`connection`;
    * ``on_command(command: dict)``: a message on the table's or this device's ``cmd`` topic.

    ``clock`` gives the device time of each event (seconds since the epoch). ``hello``: say
    hello on each (re)connection and wait for its answer before sending (module docstring;
    False only for tests of earlier clients). ``steady_clock``: the clock that ``clock`` is
    compared with to notice a jump of the device's clock (default :func:`steady_clock`).
    ``views``:
    read the table's state, this seat's view and the commands (a tablet); False reads only
    the replies. ``presence``: a birth and a last will on the device's status topic, the
    birth saying ``kind``. ``client_id``: the MQTT client id (default ``device``).
    ``loop``: a :class:`wire.mux.LinkLoop` that drives this link on its thread (module
    docstring; started, :meth:`start` attaches the link to it).
    """

    def __init__(self, url: str, table: str | None, device: str, *, seat: str | None = None,
                 outbox: Outbox,
                 on_state: Callable[[dict[str, Any]], None] | None = None,
                 on_seat: Callable[[dict[str, Any]], None] | None = None,
                 on_tablet: Callable[[dict[str, Any]], None] | None = None,
                 on_reply: Callable[[Reply, Envelope], None] | None = None,
                 on_connection: Callable[[LinkState], None] | None = None,
                 on_command: Callable[[dict[str, Any]], None] | None = None,
                 clock: Callable[[], float] = time.time,
                 steady_clock: Callable[[], float] = steady_clock,
                 reply_timeout: float = 3.0,
                 stamp_sent: bool = True, hello: bool = True, views: bool = True,
                 presence: bool = True,
                 kind: str = "tablet", client_id: str | None = None,
                 reconnect_delay: tuple[float, float] = (0.5, 5.0), keepalive: int = 15,
                 start: bool = True, loop: LinkLoop | None = None):
        # ProtocolError (ValueError) for a bad table or device id
        if table is None:
            self.event_topic = topic_dealer_event(device)
            reply_topic, status = topic_dealer_reply(device), topic_dealer_status(device)
            if seat is not None:
                raise LinkError(f"a dealing machine's link ({device}) has no seat, got {seat}")
            views = False
        else:
            self.event_topic = topic_event(table, device)
            reply_topic, status = topic_reply(table, device), topic_device_status(table, device)
        if seat is not None:
            _check_seat(seat)
        if outbox.device != device:
            raise LinkError(f"the outbox {outbox.path} serves device {outbox.device}, not "
                            f"{device}: open it for {device} (Outbox.reset)")
        if reply_timeout <= 0:
            raise ValueError(f"reply_timeout must be positive, got {reply_timeout}")
        self.url = url
        self.table = table
        self.device = device
        self.seat = seat
        self.outbox = outbox
        self.clock = clock
        self.steady_clock = steady_clock
        self.reply_timeout = reply_timeout
        self.stamp_sent = stamp_sent
        self.hello = hello
        self.clock_estimate = ClockEstimate()
        self.clock_jumps = 0    # jumps of the device's clock noticed
        self._greeted = not hello   # the hub answered this connection's hello
        self._hellos = 0
        self._wall_base: float | None = None   # clock() - time.monotonic() at the last look
        self.on_state = on_state
        self.on_seat = on_seat
        self.on_tablet = on_tablet
        self.on_reply = on_reply
        self.on_connection = on_connection
        self.on_command = on_command
        self.published = 0      # envelopes published, copies sent again included (no hello)
        self.state: dict[str, Any] | None = None       # the latest public state received
        self.seat_view: dict[str, Any] | None = None   # the latest view of this seat
        self.hub_online: bool | None = None            # the hub's presence (None: unknown)
        self.hub_shard: int | None = None   # the shard whose presence that is (None: hub/status)
        self._shard_heard = False           # a message of that shard's status has come
        self._connection = LinkState.CONNECTING
        self._connections = 0
        self._flight: _Flight | None = None
        self._inbox: queue.Queue[object] = queue.Queue()
        self._closed = False
        self._worker: threading.Thread | None = None
        self.loop = loop
        self._attached = False
        self._timer: Any = None   # with a loop: the next look at the reply timeout
        birth = json.dumps({"online": True, "device": device, "table": table, "seat": seat,
                            "kind": kind}, separators=(",", ":"), allow_nan=False)
        self.client = MqttClient(url, client_id or device,
                                 will=(status, '{"online":false}', 1, True) if presence else None,
                                 birth=(status, birth, 1, True) if presence else None,
                                 # a clean stop says it is leaving: offline at once (14)
                                 farewell=(status, FAREWELL, 1, True) if presence else None,
                                 keepalive=keepalive, reconnect_delay=reconnect_delay,
                                 on_message=self._inbox.put if loop is None else self._step,
                                 on_connection=None if loop is None else self._connected,
                                 start=False)
        filters = [reply_topic, topic_hub_status()]
        if views and table is not None:
            filters = [topic_state(table), reply_topic, topic_table_command(table),
                       topic_device_command(table, device), topic_hub_status()]
            if seat is not None:
                filters.append(topic_seat(table, seat))
            else:   # the table tablet's own view: the explanations it shows (11.3)
                filters.append(topic_tablet(table))
        for topic_filter in filters:
            self.client.subscribe(topic_filter, 1, wait=False)
        if start:
            self.start()

    # Life cycle ----------------------------------------------------------------------------
    @property
    def mode(self) -> str:
        """``"table"`` (one tablet for the table), ``"seat"`` (one tablet per seat) or
        ``"dealer"`` (a dealing machine's bridge)."""
        if self.table is None:
            return "dealer"
        return "table" if self.seat is None else "seat"

    def start(self) -> DeviceLink:
        """Start the worker and connect in the background (idempotent)."""
        if self._closed:
            raise LinkError(f"{self}: closed")
        if self.loop is not None:
            if not self._attached:
                self._attached = True
                self.loop.attach(self.client)
            return self
        if self._worker is None:
            self._worker = threading.Thread(target=self._run, name=f"tenace-link-{self.device}",
                                            daemon=True)
            self._worker.start()
            self.client.start()
        return self

    def close(self, *, farewell: bool = True, timeout: float = 5.0) -> None:
        """Disconnect and stop the worker (idempotent). With ``farewell`` the tablet's presence
        reads offline at once; without, as after a crash, the broker publishes the will only
        when it notices. The outbox stays open (its owner closes it); what is pending in it
        is sent by the next link on the same file."""
        if self._closed:
            return
        self._closed = True
        if self.loop is not None:
            if self._timer is not None:
                self._timer.cancel()
            self.loop.detach(self.client, farewell=farewell)
            return
        self._inbox.put(_STOP)   # the worker first: no callback after close() returns
        if self._worker is not None and self._worker is not threading.current_thread():
            self._worker.join(timeout)
        self.client.close(farewell=farewell)

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> DeviceLink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        where = "dealing machine" if self.table is None else f"at table {self.table!r}"
        return f"DeviceLink({self.device!r} {where}, {self._connection})"

    # What the screen reads (any thread) ----------------------------------------------------
    @property
    def connection(self) -> LinkState:
        return self._connection

    @property
    def pending(self) -> int:
        """Envelopes not answered by the hub yet (entered offline, or in flight)."""
        return 0 if self.outbox.closed else self.outbox.count()

    @property
    def clock_offset(self) -> float | None:
        """The hub's clock minus the device's, as estimated (None before the first reply)."""
        return self.clock_estimate.offset

    @property
    def in_flight(self) -> Envelope | None:
        """The envelope published and waiting for its reply, if any."""
        flight = self._flight
        return None if flight is None else flight.envelope

    def send(self, type: str, body: dict[str, Any], *,
             device_time: float | None = None, at: dict[str, int] | None = None) -> Envelope:
        """Enter one event (any thread): stored in the outbox before this returns, published
        as soon as the hub can take it. Returns its envelope (``id``, ``seq``).
        ``device_time``: when it happened (default: ``clock()`` now); ``at``: where in the
        table's record it belongs (docs/protocol.md section 6, ordering by the record).
        InvalidEventError (a ValueError) for an event the hub could not parse."""
        if self._closed:
            raise LinkError(f"{self}: closed, {type} {body} not sent")
        env = self.outbox.add(type, body,
                              self.clock() if device_time is None else device_time, at=at)
        if self.loop is None:
            self._inbox.put(_WAKE)
        else:
            self.loop.call_soon(self._step)
        return env

    def wait_online(self, timeout: float = 10.0) -> bool:
        """Block until :attr:`connection` is online; False after ``timeout``."""
        return self._wait(lambda: self._connection is LinkState.ONLINE, timeout)

    def wait_delivered(self, timeout: float = 10.0) -> bool:
        """Block until every envelope has its answer and the callbacks about them have
        returned; False after ``timeout``. (Not from a callback: it would wait for itself.)"""
        deadline = time.monotonic() + timeout
        if not self._wait(lambda: self.pending == 0 and self._flight is None, timeout):
            return False
        return self._barrier(max(0.0, deadline - time.monotonic()))

    def _barrier(self, timeout: float) -> bool:
        """True once the worker has handled everything queued before this call."""
        worker = self._worker
        if worker is None or not worker.is_alive() or worker is threading.current_thread():
            return True
        passed = threading.Event()
        self._inbox.put(passed)
        return passed.wait(timeout)

    def _wait(self, done: Callable[[], bool], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        return True

    # The worker ----------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            try:
                item = self._inbox.get(timeout=_POLL)
            except queue.Empty:
                item = None
            try:
                while item is not None:
                    if item is _STOP:
                        return
                    self._look_at_connection()
                    if isinstance(item, Message):
                        self._handle(item)
                    elif isinstance(item, threading.Event):
                        item.set()   # a barrier: everything before it is handled
                    try:
                        item = self._inbox.get_nowait()
                    except queue.Empty:
                        item = None
                self._look_at_connection()
                self._look_at_clock()
                self._pump()
            except Exception:  # the link must outlive any bug and any bad file
                log.exception("%s: worker step failed", self)

    def _step(self, message: Message | None = None) -> None:
        """With a :class:`wire.mux.LinkLoop`, on its thread: what the worker does for one
        item (a message received, an event entered, the connection changed, a timeout due),
        then the next look at the reply timeout is booked."""
        if self._closed:
            return
        try:
            self._look_at_connection()
            if message is not None:
                self._handle(message)
                self._look_at_connection()
            self._look_at_clock()
            self._pump()
        except Exception:  # the link must outlive any bug and any bad file
            log.exception("%s: step failed", self)
        self._book()

    def _connected(self, up: bool) -> None:
        self._step()

    def _book(self) -> None:
        """Book the step that looks at the reply in flight when it is due (a copy the
        broker has not taken yet, or a hub away: looked at again every second)."""
        flight, loop = self._flight, self.loop
        if flight is None or loop is None or self._closed:
            return
        now = time.monotonic()
        due = flight.sent_at + self.reply_timeout
        if due <= now:
            due = now + min(1.0, self.reply_timeout)
        timer = self._timer
        if timer is not None and not timer.cancelled and now < timer.when <= due:
            return
        if timer is not None:
            timer.cancel()
        self._timer = loop.call_at(due, self._due)

    def _due(self) -> None:
        self._timer = None
        self._step()

    def _emit(self, callback: Callable[..., None] | None, *args: Any) -> None:
        if callback is None or self._closed:
            return
        try:
            callback(*args)
        except Exception:
            log.exception("%s: callback %r failed", self, callback)

    def _look_at_clock(self) -> None:
        """Notice a jump of the device's clock (module docstring)."""
        base = self.clock() - self.steady_clock()
        last, self._wall_base = self._wall_base, base
        if last is None or abs(base - last) <= JUMP:
            return
        jump = base - last
        self.clock_jumps += 1
        if self.hello:   # a fresh sample (the hello's) before the next event
            self.clock_estimate.clear()
            self._greeted = False
        else:
            self.clock_estimate.shift(jump)
        log.warning("%s: the device's clock jumped by %+.1f s: the hub's clock is now "
                    "estimated %s", self, jump, _seconds(self.clock_estimate.offset))

    def _look_at_connection(self) -> None:
        connections = self.client.connections
        connected = self.client.connected.is_set()
        if connections != self._connections:
            # (Re)connected, resubscribed and born: the reply to what was in flight may be
            # lost with the old connection, so the head goes again at once, after a hello.
            self._connections = connections
            self._flight = None
            self._greeted = not self.hello
            log.info("%s: connected (%d)", self, connections)
        elif not connected:
            self._flight = None
        self._set_connection(connected)

    def _set_connection(self, connected: bool) -> None:
        if not connected:
            state = LinkState.CONNECTING if self._connections == 0 else LinkState.OFFLINE
        elif self.hub_online is False:
            state = LinkState.OFFLINE
        else:
            state = LinkState.ONLINE
        if state is not self._connection:
            self._connection = state
            log.info("%s: %s", self, state.value)
            self._emit(self.on_connection, state)

    def _pump(self) -> None:
        """Publish the outbox's head when nothing is in flight; resend it when its reply is
        late (not while the hub is known to be away)."""
        if self._closed or self.outbox.closed or not self.client.connected.is_set():
            return
        now = time.monotonic()
        flight = self._flight
        if flight is not None and (now - flight.sent_at < self.reply_timeout
                                   or self.hub_online is False):
            return
        if flight is not None and flight.delivery is not None and not flight.delivery.done:
            # The broker has not taken the last copy: paho holds it (and sends it again on
            # reconnection); another copy would only pile up behind it.
            return
        if not self._greeted:
            if flight is None or not flight.hello or flight.tries < HELLO_TRIES:
                self._say_hello(flight, now)
                return
            log.warning("%s: no answer to hello after %d tries: events go without it", self,
                        flight.tries)
            self._greeted, flight = True, None
        env = self.outbox.head()
        if env is None:
            self._flight = None
            return
        tries = 1
        if flight is not None and flight.envelope.id == env.id:
            tries = flight.tries + 1
            log.info("%s: no reply to %s after %.1f s: sent again (try %d)", self, env.id,
                     self.reply_timeout, tries)
        self._publish(_Flight(env, now, tries))

    def _say_hello(self, flight: _Flight | None, now: float) -> None:
        """Publish this connection's ``hello`` (again, when the last one got no answer)."""
        tries = flight.tries + 1 if flight is not None and flight.hello else 1
        stamp = self.clock()
        if tries == 1:
            self._hellos += 1
            tail = f"-hello-{secrets.token_hex(3)}{self._hellos}"
            body: dict[str, Any] = {}
            acked, hub_log = self.outbox.acked(), self.outbox.hub_log
            if acked is not None and hub_log is not None:
                body = {"acked": acked, "log": hub_log}
            env = Envelope(f"{self.device[:64 - len(tail)]}{tail}", self.device,
                           self.outbox.last_seq, stamp, "hello", body)
        else:
            assert flight is not None
            env = flight.envelope
            log.info("%s: no answer to hello after %.1f s: said again (try %d)", self,
                     self.reply_timeout, tries)
        self._publish(_Flight(env, now, tries, hello=True))

    def _publish(self, flight: _Flight) -> None:
        self._flight = flight
        flight.stamped = self.clock()   # t0 of the clock sample its reply gives
        wire = self._stamp(flight.envelope, flight.stamped)
        try:
            flight.delivery = self.client.publish(self.event_topic, wire.to_json(), 1)
            if not flight.hello:
                self.published += 1
        except MqttError as err:  # closed or paho's queue full: tried again after the timeout
            log.warning("%s: %s not published: %s", self, flight.envelope.id, err)

    def _stamp(self, env: Envelope, now: float) -> Envelope:
        """The envelope as published: with ``sent``, the clock ``now`` (never before
        ``time``), and ``offset``, the hub's clock minus the device's as estimated (when
        known)."""
        if not self.stamp_sent:
            return env
        offset = self.clock_estimate.offset
        return msgspec.structs.replace(env, sent=max(now, env.time),
                                      offset=None if offset is None else round(offset, 6))
