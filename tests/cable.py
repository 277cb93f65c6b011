"""One device's network to the broker, for the tests that break it: :class:`Cable` is a
:class:`tenace.sim.proxy.Proxy` (the simulator's chaos proxy) with the words the tests use.

``Cable(broker_url).url`` is where the device connects (no credentials: the tests give their
own); :meth:`Cable.cut` drops every connection and refuses new ones, :meth:`Cable.plug` lets
them through again, :meth:`Cable.stall` goes silent (the connections stay open, every byte
is dropped: only the keepalive notices), :meth:`Cable.close` ends it."""

from __future__ import annotations

from tenace.sim.proxy import Proxies
from wire.mqtt import parse_url

__all__ = ["Cable"]


class Cable:
    """A TCP proxy in front of the broker at ``broker_url`` (module docstring)."""

    def __init__(self, broker_url: str):
        address = parse_url(broker_url)
        self._proxies = Proxies((address.host, address.port))
        try:
            self._proxy = self._proxies.add("cable")
        except BaseException:
            self._proxies.close()
            raise
        self.url = f"mqtt://127.0.0.1:{self._proxy.port}"

    def cut(self) -> None:
        self._proxy.cut()

    def plug(self) -> None:
        self._proxy.restore()

    def stall(self) -> None:
        self._proxy.stall()

    def close(self) -> None:
        self._proxies.close()
