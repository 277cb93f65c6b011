"""``serial``: a card reader built on a microcontroller, one line per tag
(:mod:`firmware_bridge.readers.tagline`), opened by pyserial URL: ``/dev/ttyUSB0``,
``socket://10.0.0.7:7001``, ``rfc2217://...``, ``loop://``.

One thread per reader reads the port and feeds the parser. A line that is not valid is
logged as an error with the port's name and skipped: the lines around it are read. The port
going away (USB cable pulled, socket closed) is a :class:`ReaderStatus` "gone", and the
port is opened again every ``retry`` seconds until it comes back.
"""

from __future__ import annotations

import logging
import threading
import time

import serial
import serial.tools.list_ports

from firmware_bridge.readers import DEBOUNCE, CardReader
from firmware_bridge.readers.tagline import LineError, TagLineParser

__all__ = ["SerialReader"]

log = logging.getLogger(__name__)


class SerialReader(CardReader):
    """``serial:URL`` (module docstring). ``baudrate`` for real UARTs (ptys and sockets
    ignore it)."""

    backend = "serial"

    def __init__(self, url: str, *, debounce: float = DEBOUNCE, baudrate: int = 115200,
                 retry: float = 1.0):
        super().__init__(url, debounce=debounce)
        self.url = url
        self.baudrate = baudrate
        self.retry = retry
        self.parser = TagLineParser()
        self._stop = threading.Event()
        self._tried = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"tenace-serial-{url}",
                                        daemon=True)
        self._thread.start()
        self._tried.wait(5.0)   # the first status is known when the reader is returned

    def _open(self) -> serial.SerialBase | None:
        try:
            port = serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=0.1)
        except (serial.SerialException, OSError, ValueError) as err:
            self._status(False, f"cannot open {self.url}: {err}")
            return None
        self._status(True, f"port {self.url} open")
        return port

    def _run(self) -> None:
        while not self._stop.is_set():
            port = self._open()
            self._tried.set()
            if port is None:
                self._stop.wait(self.retry)
                continue
            try:
                self._read_lines(port)
            finally:
                port.close()

    def _read_lines(self, port: serial.SerialBase) -> None:
        while not self._stop.is_set():
            try:
                data = port.read(port.in_waiting or 1)
            except (serial.SerialException, OSError, TypeError) as err:
                # TypeError: pyserial's socket:// port after the peer closed (a None socket).
                if self._stop.is_set():
                    return
                self._gone(f"port {self.url} failed: {err}")
                return
            if not data:
                continue
            when = time.time()
            log.debug("%s: %r", self.spec, data)
            for item in self.parser.feed(data):
                if isinstance(item, LineError):
                    log.error("%s: line refused: %s: %r", self.spec, item.reason, item.raw)
                elif item.kind == "TAG":
                    self._tag(item.value, when)
                elif item.kind == "RDY":
                    log.info("%s: reader ready: %s", self.spec, item.value)
                else:
                    log.error("%s: the reader reports a fault: %s", self.spec, item.value)

    def _gone(self, detail: str) -> None:
        cut = self.parser.reset()
        if cut is not None:
            log.error("%s: line refused: %s: %r", self.spec, cut.reason, cut.raw)
        self._status(False, detail)
        self._stop.wait(self.retry)

    def _release(self) -> None:
        self._stop.set()   # the thread sees it within the port's read timeout (0.1 s)
        if self._thread is not threading.current_thread():
            self._thread.join(5.0)

    @classmethod
    def available(cls) -> list[str]:
        return sorted(p.device for p in serial.tools.list_ports.comports())
