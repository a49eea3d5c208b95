"""Who may use `cubilete web`: the Host names served, the origins a websocket may come from,
who a client is, and how many tables and starts each client gets.

- **Host.** A page from another site can make the browser talk to this server through a name
  of its own that resolves here (DNS rebinding); it then sends that name as `Host`. Only the
  names this server is known by are served: the listen address, `localhost` and the loopback
  addresses when it listens on loopback, the machine's own name and any IP address when it
  listens on every interface (a browser that reached an address typed as digits cannot have
  been rebound), the `--public-url`'s host and every `--allowed-host`. Ports are not compared:
  a proxy that passes nginx's `$host` drops the port.
- **Origin.** A browser names the page that opens a websocket in `Origin`. Only the page's own
  origin (the scheme and `Host` it was served at) and the `--public-url`'s are let in, so a
  page of another site cannot drive a game even on a name that passed the Host check. A
  request without `Origin` does not come from a browser page and is let in (RFC 6455: a browser
  always sends it); `Origin: null` (a sandboxed frame, a file) is not.
- **Forwarded headers.** `X-Forwarded-Host`, `-Proto` and `-For` are believed only with
  `--trust-proxy`, since any client can send them.
- **Client.** The user the proxy named (`--user-header`), else the address the proxy saw
  (`--trust-proxy`: the last `X-Forwarded-For` entry, the one the proxy added), else the peer
  address; an IPv6 address counts by its /64, which one machine usually owns whole.
- **Limits.** Each client gets at most `per_client` tables at once and starts tables at
  `per_minute` a minute (a token bucket that holds `per_minute`, so a burst of reloads is fine).
"""

from __future__ import annotations

import ipaddress
import socket
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from urllib.parse import urlsplit

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARDS = frozenset({"", "0.0.0.0", "::"})
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def is_loopback(host: str) -> bool:
    """True for the hosts only this machine can reach (no login is needed there)."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def split_host(value: str) -> tuple[str, int | None] | None:
    """A `Host` header's name (lower case, no trailing dot, IPv6 without brackets) and port;
    None when it is not a host name at all."""
    value = value.strip()
    if not value or any(c in value for c in "/\\@?# \t"):
        return None
    try:
        parts = urlsplit("//" + value)
        name, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not name:
        return None
    return name.rstrip("."), port


def origin(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of a URL, default ports filled in; None if it has none."""
    try:
        parts = urlsplit(url.strip())
        scheme, host, port = parts.scheme.lower(), parts.hostname, parts.port
    except ValueError:
        return None
    if scheme not in DEFAULT_PORTS or not host:
        return None
    return scheme, host.rstrip("."), port or DEFAULT_PORTS[scheme]


def first(value: str | None) -> str | None:
    """The first entry of a comma-separated forwarded header."""
    if value is None:
        return None
    return value.split(",")[0].strip() or None


def last(value: str | None) -> str | None:
    """The last entry of a comma-separated forwarded header (the one our proxy added)."""
    if value is None:
        return None
    return value.split(",")[-1].strip() or None


def client_of_address(address: str) -> str:
    """An address as a client: IPv4 as it is, IPv6 by its /64."""
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


@dataclass(frozen=True)
class Gate:
    """The Host names and websocket origins this server accepts."""

    listen_host: str
    public_url: str | None = None
    allowed_hosts: tuple[str, ...] = ()
    trust_proxy: bool = False
    machine_name: str = field(default_factory=socket.gethostname)

    @cached_property
    def names(self) -> frozenset[str]:
        names = {name.lower().rstrip(".").strip("[]") for name in self.allowed_hosts}
        listen = self.listen_host.lower().strip("[]")
        if listen not in WILDCARDS:
            names.add(listen)
        if is_loopback(listen) or listen in WILDCARDS:
            names |= LOOPBACK_NAMES
        if listen in WILDCARDS and self.machine_name:
            names.add(self.machine_name.lower())
        if self.public_url and (public := origin(self.public_url)):
            names.add(public[1])
        return frozenset(names)

    def host_allowed(self, host_header: str | None) -> bool:
        """Whether a request for this `Host` (or trusted `X-Forwarded-Host`) is served."""
        parsed = split_host(host_header or "")
        if parsed is None:
            return False
        name = parsed[0]
        if name in self.names:
            return True
        if self.listen_host.strip("[]") in WILDCARDS and is_ip(name):
            return True
        return is_loopback(self.listen_host) and is_ip(name) and is_loopback(name)

    def origin_allowed(self, origin_header: str | None, page_url: str) -> bool:
        """Whether a websocket opened by a page of `origin_header` is let in (see above)."""
        if origin_header is None:
            return True
        theirs = origin(origin_header)
        if theirs is None:
            return False
        return theirs in {origin(page_url), origin(self.public_url or "")}


@dataclass
class Bucket:
    tokens: float
    stamp: float


@dataclass
class Limits:
    """Tables per client at once, and table starts per client per minute (a token bucket)."""

    per_client: int
    per_minute: int
    clock: Callable[[], float] = time.monotonic
    buckets: dict[str, Bucket] = field(default_factory=dict)
    MAX_CLIENTS_KEPT = 10_000

    def _bucket(self, client: str) -> Bucket:
        now = self.clock()
        bucket = self.buckets.get(client)
        if bucket is None:
            if len(self.buckets) >= self.MAX_CLIENTS_KEPT:
                self._forget_full(now)
            bucket = self.buckets[client] = Bucket(float(self.per_minute), now)
        else:
            rate = self.per_minute / 60.0
            bucket.tokens = min(float(self.per_minute), bucket.tokens + (now - bucket.stamp) * rate)
            bucket.stamp = now
        return bucket

    def _forget_full(self, now: float) -> None:
        rate = self.per_minute / 60.0
        for client, bucket in list(self.buckets.items()):
            if bucket.tokens + (now - bucket.stamp) * rate >= self.per_minute:
                del self.buckets[client]

    def wait(self, client: str) -> float:
        """Seconds until `client` may start a table (0: now)."""
        bucket = self._bucket(client)
        if bucket.tokens >= 1:
            return 0.0
        return (1 - bucket.tokens) * 60.0 / self.per_minute

    def take(self, client: str) -> None:
        """Count a table started by `client`."""
        self._bucket(client).tokens -= 1

    def too_many(self, client: str, open_tables: Iterable[str]) -> bool:
        """Whether `client` already has its share of the tables in play."""
        return sum(1 for owner in open_tables if owner == client) >= self.per_client
