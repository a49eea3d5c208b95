"""`cubilete web`: the game in a browser tab, served from this machine by textual-serve.

Each browser tab (one websocket) runs its own app process in its own process group. When the
tab closes or the socket drops, the app is asked to quit, given a grace period, and then its
whole group is killed with SIGKILL: an app seen spinning after a disconnect must not outlive its
tab. `max_sessions` caps the app processes alive at once (those in their grace period count;
one that has exited does not, from the moment it exits), and each client has a share of them
and a rate of new ones (`app/web_guard.py`, which also says which Host names and websocket
origins are served). A tab turned away is sent to a plain page that says why.

The page loads nothing from the internet: it is the installed textual-serve's own template, made
at run time, with its web-font `<link>` replaced by the font textual-serve ships, a `<title>`,
and our own icon.

Everything this server says goes to stderr, one line per event (`app/web_log.py`); stdout is
left alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import html
import json
import logging
import os
import re
import signal
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager
from textual_serve.server import Server, to_int

from rules import N_, Text

from . import web_log
from .i18n import _, current_language, language_of_browser, render, speaking, tr
from .locations import data_dir
from .web_guard import Gate, Limits, client_of_address, first, is_loopback, last
from .web_spawn import AppProcess, ForkServer, ForkServerError, start_plain

log = logging.getLogger("cubilete.web")

Launcher = Callable[[Sequence[str], dict[str, str]], Awaitable[AppProcess]]
"""Starts a tab's app: (argv, environment) -> the running process."""

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_MAX_SESSIONS = 8
DEFAULT_PER_CLIENT = 3
"""Tables one client may have open at once."""
DEFAULT_PER_MINUTE = 10
"""Tables one client may start a minute (in a burst of up to as many)."""
DEFAULT_GRACE = 5.0
"""Seconds an app has to quit by itself after its tab went away, before SIGKILL."""
REAP_TIMEOUT = 5.0
"""Seconds to wait for a killed process group to be gone and its pipes closed."""
NOTICE_TIMEOUT = 5.0
"""Seconds a turned-away tab has to follow us to the page that says why, before we hang up."""
STDERR_KEPT = 4096
"""Bytes of an app's stderr kept, for the one line logged about it."""

MAX_COLUMNS, MAX_ROWS = 500, 200
"""The largest terminal a browser may ask for (it sends its size in the websocket URL)."""

TEMPLATE_NAME = "app_index.html"
FONT_FILE = "fonts/RobotoMono-VariableFont_wght.ttf"
ICON = Path(__file__).resolve().parents[1] / "assets" / "favicon.ico"

_EXTERNAL_STYLESHEET = re.compile(
    r"<link\b[^>]*\bhref\s*=\s*[\"']https?://[^\"']*[\"'][^>]*>", re.IGNORECASE | re.DOTALL
)
_EXTERNAL_FETCH = re.compile(
    r"(?:\b(?:href|src)\s*=\s*[\"']|url\(\s*[\"']?)(?:https?:)?//", re.IGNORECASE
)
_HEAD = re.compile(r"<head\b[^>]*>", re.IGNORECASE)
_LOCAL_FONT = (
    "<style>\n"
    "      @font-face {\n"
    '        font-family: "Roboto Mono";\n'
    '        src: url("{{ config.static.url }}' + FONT_FILE + '") format("truetype");\n'
    "        font-weight: 100 700;\n"
    "      }\n"
    "    </style>"
)
_PAGE_WORDS = {
    ">Start<": ("{{ words.start }}", N_("Start")),
    ">Session ended.<": ("{{ words.ended }}", N_("Session ended.")),
    ">Restart<": ("{{ words.restart }}", N_("Restart")),
}
"""The words on textual-serve's page: each becomes a value of the page's context, written in
the browser's language (`page_words`)."""
_HTML_TAG = re.compile(r"<html\b", re.IGNORECASE)
_TITLE_AND_ICON = (
    "\n    <title>{{ application.name }}</title>"
    '\n    <link rel="icon" href="{{ icon_url }}" type="image/x-icon" />'
)


# -- the page ------------------------------------------------------------------------------
def textual_serve_templates() -> Path:
    """The templates folder of the installed textual-serve."""
    import textual_serve

    return Path(textual_serve.__file__).parent / "templates"


def offline_page(template: str) -> str:
    """textual-serve's page with its web-font link replaced by its bundled font, a title and
    our icon.

    Raises ValueError if anything else in the page would still be fetched from another site
    (a newer textual-serve): better no server than a page that reaches out to the internet.
    """
    page = _EXTERNAL_STYLESHEET.sub(lambda _match: _LOCAL_FONT, template)
    if found := _EXTERNAL_FETCH.search(page):
        start = max(0, found.start() - 40)
        raise ValueError(f"the page template still loads an external asset: {page[start:]!r:.120}")
    if "<title" not in page.lower():
        page = _HEAD.sub(lambda head: head.group() + _TITLE_AND_ICON, page, count=1)
    for words, (variable, _message) in _PAGE_WORDS.items():
        page = page.replace(words, ">" + variable + "<")
    return _HTML_TAG.sub('<html lang="{{ words.lang }}"', page, count=1)


def page_words(language: str) -> dict[str, str]:
    """The page's words (and its `lang`) in `language`."""
    with speaking(language):
        words = {
            variable.strip("{} ").removeprefix("words."): _(message)
            for variable, message in _PAGE_WORDS.values()
        }
    return {**words, "lang": language}


def notice_page(title: Text, text: Text, language: str | None = None) -> str:
    """A plain page that tells a turned-away tab why, in `language` (default: the server's).
    Nothing to fetch."""
    with speaking(language):
        title_words, text_words = html.escape(render(title)), html.escape(render(text))
        again, lang = html.escape(_("Try again")), current_language()
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{lang}"><head><meta charset="utf-8"><title>' + title_words + "</title>"
        "<style>body{background:#0c181f;color:#eee;font-family:monospace;"
        "display:flex;align-items:center;justify-content:center;height:100vh;margin:0}"
        "main{background:#12232d;padding:2em 3em;text-align:center}"
        "a{color:#ac5af4}</style></head>\n"
        '<body><main id="full"><h1>' + title_words + "</h1><p>" + text_words + "</p>"
        '<p><a href="./">' + again + "</a></p></main></body></html>\n"
    )


def full_page(limit: int, language: str | None = None) -> str:
    """The page a tab gets when every session is taken."""
    return notice_page(*Refusal.full(limit).words, language)


def exposure_warning(host: str) -> str | None:
    """What to say when the server listens beyond this machine: the page has no login."""
    if is_loopback(host):
        return None
    warning = N_(
        "cubilete web: warning: listening on {host}: anyone who can reach this port can play "
        "and start processes here, and the page has no login. Listen on 127.0.0.1 and put an "
        "authenticating reverse proxy in front (see README.md, 'Browser and SSH')."
    )
    return render(Text(warning, {"host": host}))


def terminal_size(width: int, height: int) -> tuple[int, int]:
    """A browser's terminal size, kept within reason (it comes from the page, unchecked)."""
    return min(max(int(width), 10), MAX_COLUMNS), min(max(int(height), 5), MAX_ROWS)


def user_dir_name(user: str) -> str:
    """A safe folder name for a user named by the reverse proxy (odd names get a hash)."""
    safe = re.sub(r"[^A-Za-z0-9._@-]", "_", user)[:64].lstrip(".")
    if safe != user or not safe:
        digest = hashlib.sha256(user.encode("utf-8", "surrogateescape")).hexdigest()
        safe = f"{safe or 'user'}-{digest[:12]}"
    return safe


LOG_IN_FIRST = N_("Log in through the proxy first.")


def language_of(request: web.Request) -> str | None:
    """The language the browser asks for, if the app speaks it (else the server's own)."""
    return language_of_browser(request.headers.get("Accept-Language"))


class Refusal:
    """Why a tab gets no table: the page's words, its HTTP status, the `why=` of /busy."""

    def __init__(self, why: str, status: int, title: Text, text: Text, retry: int) -> None:
        self.why, self.status, self.retry = why, status, retry
        self.words = (title, text)
        """The page's title and text, as messages: each browser reads them in its language."""

    @classmethod
    def full(cls, limit: int) -> Refusal:
        text = Text(N_("All {limit} tables are taken. Try again in a minute."), {"limit": limit})
        return cls("full", 503, Text(N_("Cubilete is full")), text, 30)

    @classmethod
    def yours(cls, limit: int) -> Refusal:
        text = N_(
            "You already have {limit} tables open, the most one player may have. "
            "Close one of your tabs to open another."
        )
        return cls("yours", 429, Text(N_("Too many tables")), Text(text, {"limit": limit}), 30)

    @classmethod
    def rate(cls, seconds: float) -> Refusal:
        wait = max(1, min(3600, int(seconds + 0.999)))
        text = N_("You opened many tables in a short time. Try again in {seconds} s.")
        return cls("rate", 429, Text(N_("Slow down")), Text(text, {"seconds": wait}), wait)

    def terminal_text(self, language: str | None = None) -> str:
        with speaking(language):
            return f"\r\n  {render(self.words[0])}: {render(self.words[1])}\r\n"

    def response(self, language: str | None = None) -> web.Response:
        return web.Response(
            text=notice_page(*self.words, language),
            status=self.status,
            content_type="text/html",
            headers={"Retry-After": str(self.retry), "Cache-Control": "no-store"},
        )


# -- one session ---------------------------------------------------------------------------
class Session(AppService):
    """One browser tab's app: its own process group, reaped with SIGKILL after a grace period.

    `launch` starts the app (forked by the fork server, or a fresh process); textual-serve's
    own start (a shell command) is not used.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        grace: float,
        env: dict[str, str],
        client: str = "",
        launch: Launcher | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(" ".join(argv), **kwargs)
        self.argv = list(argv)
        self.grace = grace
        self.extra_env = env
        self.client = client
        self.launch = launch or start_plain
        self.app: AppProcess | None = None
        self.stopped = asyncio.Event()

    @property
    def pid(self) -> int | None:
        return self.app.pid if self.app is not None else None

    @property
    def exited(self) -> bool:
        """Whether the app process has exited (a session still starting has not).

        Asked of the kernel through a pidfd, so it is true from the moment the process is
        gone, before the event loop has heard of it: a seat is free as soon as its app is.
        """
        return self.app is not None and self.app.exited

    async def _open_app_process(self, width: int = 80, height: int = 24) -> AppProcess:  # type: ignore[override]  # our AppProcess, not asyncio's Process: nothing of textual-serve's uses it
        environment = self._build_environment(width=width, height=height) | self.extra_env
        self.app = app = await self.launch(self.argv, environment)
        self._stdin = app.stdin
        return app

    async def stop(self) -> None:
        """Ask the app to quit; after the grace period kill its process group. Idempotent."""
        if self.stopped.is_set():
            return
        self.stopped.set()
        app = self.app
        if app is None:
            return
        with contextlib.suppress(Exception):
            await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
        if not app.exited:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._quit(app), self.grace)
        self.kill()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(app.wait(), REAP_TIMEOUT)
        if self._task is not None:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(self._task, REAP_TIMEOUT)
            self._task = None
        app.close()

    async def set_terminal_size(self, width: int, height: int) -> None:
        await super().set_terminal_size(*terminal_size(width, height))

    async def _quit(self, app: AppProcess) -> None:
        """Ask the app to quit (as textual-serve does) and wait for it to be gone."""
        with contextlib.suppress(Exception):
            await self.send_meta({"type": "quit"})
        await app.wait()

    async def run(self) -> None:
        """Relay the app's packets to the tab (textual-serve's loop); when the app is gone,
        hang up so the tab says so. What the app wrote to stderr is logged as one line."""
        assert self.app is not None
        stdout, stderr = self.app.stdout, self.app.stderr
        errors = bytearray()

        async def read_stderr() -> None:
            while data := await stderr.read(4096):
                errors.extend(data)
                del errors[:-STDERR_KEPT]

        stderr_task = asyncio.create_task(read_stderr())
        handlers: dict[bytes, Callable[[bytes], Awaitable[None]]] = {
            b"D": self.on_data,
            b"M": self.on_meta,
            b"P": self.on_packed,
        }
        try:
            for _attempt in range(10):  # the prelude that says it is a Textual app
                line = await stdout.readline()
                if not line or line == b"__GANGLION__\n":
                    break
            if line == b"__GANGLION__\n":
                while True:
                    kind = await stdout.readexactly(1)
                    size = int.from_bytes(await stdout.readexactly(4), "big")
                    payload = await stdout.readexactly(size)
                    if handler := handlers.get(kind):
                        await handler(payload)
            else:
                log.error("session %s: the app did not start", self.app_service_id[:8])
        except (asyncio.IncompleteReadError, ConnectionResetError):
            pass
        finally:
            stderr_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await stderr_task
        if errors:
            lines = bytes(errors).decode("utf-8", "replace").strip().splitlines() or [""]
            log.warning(
                "session %s: the app wrote to stderr, ending: %s",
                self.app_service_id[:8],
                web_log.printable(lines[-1]),
            )
        if not self.stopped.is_set():
            with contextlib.suppress(Exception):
                await self.remote_close()

    def kill(self) -> None:
        """SIGKILL the session's whole process group (whatever is left of it)."""
        if self.app is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.app.pid, signal.SIGKILL)


# -- the server of shared tables -----------------------------------------------------------
class SharedTables:
    """`cubilete web --server HOST:PORT`: the server of shared tables each tab plays at, over
    its TCP listener with its shared secret, as the person this web front end knows: the user
    the proxy authenticated (`--user-header`), else a guest name of the tab's own (whose seats
    are theirs by the tokens the tab keeps). Two tabs are two people.

    Several servers of one database (`--server A:1,B:2`): each tab's app is given them all,
    connects to the first that answers, and to the next when it loses its server."""

    def __init__(self, host: str, port: int, secret: str, *more: tuple[str, int]) -> None:
        self.host, self.port, self.secret = host, port, secret
        self.more = more
        """The other servers of the list, in order."""

    def tab_env(self, user: str | None) -> dict[str, str]:
        """What a tab's environment says of the servers (`app.server.address.tab_server`)."""
        from .server.address import TAB_GUEST, TAB_SECRET, TAB_SERVER, TAB_USER

        places = ((self.host, self.port), *self.more)
        listed = ",".join(f"[{h}]:{p}" if ":" in h else f"{h}:{p}" for h, p in places)
        env = {TAB_SERVER: listed, TAB_SECRET: self.secret}
        if user:
            env[TAB_USER] = user
        else:
            env[TAB_GUEST] = guest_name()
        return env


def guest_name() -> str:
    """A tab's guest name when no proxy names its person: "Guest" and three figures."""
    import secrets

    return tr(N_("Guest {n}"), n=str(100 + secrets.randbelow(900)))


# -- the server ----------------------------------------------------------------------------
class WebServer(Server):
    """textual-serve's Server with sessions in process groups, a cap, limits per client, Host
    and Origin checks, plain logs and an offline page."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        host: str = DEFAULT_HOST,
        port: int = DEFAULT_PORT,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
        per_client: int = DEFAULT_PER_CLIENT,
        per_minute: int = DEFAULT_PER_MINUTE,
        grace: float = DEFAULT_GRACE,
        public_url: str | None = None,
        user_header: str | None = None,
        trust_proxy: bool = False,
        allowed_hosts: Sequence[str] = (),
        fork_server: ForkServer | None = None,
        title: str = "Cubilete",
        shared: SharedTables | None = None,
    ) -> None:
        super().__init__(" ".join(argv), host=host, port=port, title=title, public_url=public_url)
        self.argv = list(argv)
        self.shared = shared
        self.fork_server = fork_server
        self.max_sessions = max_sessions
        self.grace = grace
        self.fixed_public_url = public_url.rstrip("/") if public_url else None
        self.user_header = user_header
        self.trust_proxy = trust_proxy
        self.gate = Gate(host, public_url, tuple(allowed_hosts), trust_proxy)
        self.limits = Limits(per_client, per_minute)
        self.sessions: set[Session] = set()
        self.page = offline_page(
            (textual_serve_templates() / TEMPLATE_NAME).read_text(encoding="utf-8")
        )
        self.icon = ICON.read_bytes()

    def in_play(self) -> list[Session]:
        """The sessions that hold a seat: starting, playing, or in their grace period."""
        return [session for session in self.sessions if not session.exited]

    @property
    def full(self) -> bool:
        return len(self.in_play()) >= self.max_sessions

    def initialize_logging(self) -> None:
        web_log.setup(sys.stderr, debug=self.debug)

    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self.check_host])
        aiohttp_jinja2.setup(app, loader=jinja2.DictLoader({TEMPLATE_NAME: self.page}))
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.get("/busy", self.handle_busy, name="busy"),
                web.get("/favicon.ico", self.handle_icon, name="icon"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, show_index=False, name="static"),
            ]
        )
        app.on_startup.append(self.on_startup)
        app.on_shutdown.append(self.on_shutdown)
        return app

    async def on_startup(self, app: web.Application) -> None:
        """Watch the fork server from the loop. Say nothing yet: the port may still turn out
        to be taken (see `announce`)."""
        if self.fork_server is not None:
            self.fork_server.attach(asyncio.get_running_loop())

    async def launch(self, argv: Sequence[str], env: dict[str, str]) -> AppProcess:
        """A tab's app: forked by the fork server when it is ready, else started afresh."""
        if self.fork_server is not None and self.fork_server.ready:
            with contextlib.suppress(ForkServerError):
                return await self.fork_server.fork(env)
        return await start_plain(argv, env)

    def announce(self, _aiohttp_message: str = "") -> None:
        """Called by aiohttp once the port is open."""
        sys.stderr.write(
            f"Cubilete: serving the game on {self.public_url}\n"
            f"  {self.max_sessions} sessions at most; press Ctrl+C to stop\n"
        )
        sys.stderr.flush()

    def serve(self, debug: bool = False) -> None:
        """textual-serve's `serve`, announcing the address only once it is listening."""
        self.debug = debug
        self.initialize_logging()
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, self.request_exit)
        web.run_app(
            self._make_app(),
            host=self.host,
            port=self.port,
            handle_signals=False,
            loop=loop,
            print=self.announce,
            access_log_class=web_log.AccessLogger,
        )

    async def on_shutdown(self, app: web.Application) -> None:
        """Stop every session the same way a closed tab is stopped: quit, grace, SIGKILL."""
        await asyncio.gather(*(session.stop() for session in list(self.sessions)))
        if self.fork_server is not None:
            self.fork_server.close()

    # -- who is asking ---------------------------------------------------------------------
    def forwarded(self, request: web.Request, name: str) -> str | None:
        """A proxy's `X-Forwarded-*` header, only with --trust-proxy."""
        return request.headers.get(name) if self.trust_proxy else None

    def address_of(self, request: web.Request) -> str:
        """The client's address: the one our proxy saw (--trust-proxy), else the peer's."""
        address = last(self.forwarded(request, "X-Forwarded-For")) or request.remote or "-"
        return client_of_address(address)

    def client_of(self, request: web.Request) -> str:
        """Who the limits count: the user the proxy named, else the client's address."""
        if self.user_header is not None:
            user = request.headers.get(self.user_header, "").strip()
            if user:
                return "user:" + user
        return self.address_of(request)

    def host_of(self, request: web.Request) -> str | None:
        return first(self.forwarded(request, "X-Forwarded-Host")) or request.host

    def page_origin(self, request: web.Request) -> str:
        """Where the browser reached us, as this request says (the page's own origin)."""
        scheme = first(self.forwarded(request, "X-Forwarded-Proto")) or request.scheme
        scheme = "https" if scheme.lower() in ("https", "wss") else "http"
        return f"{scheme}://{self.host_of(request)}"

    def base_url(self, request: web.Request) -> str:
        """The URL the browser reached us at: --public-url, else what the request says."""
        return self.fixed_public_url or self.page_origin(request)

    def user_env(self, request: web.Request) -> dict[str, str] | None:
        """The session's environment for the user the proxy named; None if it named nobody."""
        if self.user_header is None:
            return {}
        user = request.headers.get(self.user_header, "").strip()
        if not user:
            return None
        users = data_dir() / "web-users"
        users.mkdir(mode=0o700, exist_ok=True)
        return {"CUBILETE_DATA_DIR": str(users / user_dir_name(user))}

    def refusal(self, client: str) -> Refusal | None:
        """Why `client` may not start a table now, if it may not."""
        playing = self.in_play()
        if len(playing) >= self.max_sessions:
            return Refusal.full(self.max_sessions)
        if self.limits.too_many(client, (session.client for session in playing)):
            return Refusal.yours(self.limits.per_client)
        if wait := self.limits.wait(client):
            return Refusal.rate(wait)
        return None

    def refuse_anonymous(self, request: web.Request) -> web.Response:
        with speaking(language_of(request)):
            words = _(LOG_IN_FIRST)
        return web.Response(text=words + "\n", status=403)

    # -- routes ----------------------------------------------------------------------------
    @web.middleware
    async def check_host(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Serve only the Host names this server is known by (DNS rebinding)."""
        request["client"] = self.address_of(request)
        if not self.gate.host_allowed(self.host_of(request)):
            with speaking(language_of(request)):
                words = _("This server does not answer to that host name.")
            return web.Response(text=words + "\n", status=421)
        return await handler(request)

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        if self.user_env(request) is None:
            return self.refuse_anonymous(request)
        language = language_of(request)
        if refusal := self.refusal(self.client_of(request)):
            return refusal.response(language)
        base = self.base_url(request)
        router = request.app.router
        static = base + str(router["static"].url_for(filename="/")).rstrip("/") + "/"
        websocket = base + str(router["websocket"].url_for())
        scheme, _colon, rest = websocket.partition(":")
        websocket = ("wss:" if scheme == "https" else "ws:") + rest
        context = {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": websocket,
            "config": {"static": {"url": static}},
            "application": {"name": self.title},
            "icon_url": base + str(router["icon"].url_for()),
            "words": page_words(language or current_language()),
        }
        response = aiohttp_jinja2.render_template(TEMPLATE_NAME, request, context)
        response.headers["Cache-Control"] = "no-store"
        return response

    async def handle_busy(self, request: web.Request) -> web.Response:
        """Where a tab turned away at the websocket is sent: the page that says why."""
        why = request.query.get("why", "full")
        if why == "yours":
            refusal = Refusal.yours(self.limits.per_client)
        elif why == "rate":
            refusal = Refusal.rate(to_int(request.query.get("wait", "60"), 60))
        else:
            refusal = Refusal.full(self.max_sessions)
        return refusal.response(language_of(request))

    async def handle_icon(self, request: web.Request) -> web.Response:
        return web.Response(
            body=self.icon,
            content_type="image/x-icon",
            headers={"Cache-Control": "public, max-age=86400"},
        )

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]  # a plain response when the handshake is refused
        language = language_of(request)
        if not self.gate.origin_allowed(request.headers.get("Origin"), self.page_origin(request)):
            with speaking(language):
                words = _("This page may not open a game here.")
            return web.Response(text=words + "\n", status=403)
        websocket = web.WebSocketResponse(heartbeat=15)
        try:
            ready = websocket.can_prepare(request).ok
        except (ValueError, UnicodeError):  # aiohttp reads a key of raw bytes as text
            ready = False
        if not ready:
            with speaking(language):
                words = _("This is the game's websocket.")
            return web.Response(text=words + "\n", status=400)
        env = self.user_env(request)
        if env is not None and language is not None:
            env = {**env, "LANGUAGE": language}  # the tab speaks the browser's language
        if env is not None and self.shared is not None:  # the tab plays at the shared tables
            user = request.headers.get(self.user_header, "").strip() if self.user_header else ""
            with speaking(language):
                env = {**env, **self.shared.tab_env(user or None)}
        client = self.client_of(request)
        refusal = self.refusal(client) if env is not None else None
        if env is None or refusal is not None:
            await websocket.prepare(request)
            await self.turn_away(request, websocket, refusal)
            return websocket
        session = Session(
            self.argv,
            grace=self.grace,
            env=env,
            client=client,
            launch=self.launch,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=websocket.close,
            download_manager=self.download_manager,
            debug=self.debug,
        )
        self.sessions.add(session)  # the seat is taken here, with no await since the check
        self.limits.take(client)
        width, height = terminal_size(
            to_int(request.query.get("width", "80"), 80),
            to_int(request.query.get("height", "24"), 24),
        )
        try:
            await websocket.prepare(request)
            await session.start(width, height)
            log.info(
                "session %s started (pid %s, %s)",
                session.app_service_id[:8],
                session.pid,
                "forked" if session.app is not None and session.app.forked else "fresh",
            )
            await self._process_messages(websocket, session)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:
            log.error("session %s failed", session.app_service_id[:8], exc_info=error)
        finally:
            await asyncio.shield(self._end(session))
        return websocket

    async def turn_away(
        self, request: web.Request, websocket: web.WebSocketResponse, refusal: Refusal | None
    ) -> None:
        """Say why in the terminal, and send the browser to the page that says it too (the
        page would otherwise cover the words with "Session ended" when we hang up)."""
        language = language_of(request)
        if refusal is None:
            with speaking(language):
                words = _(LOG_IN_FIRST)
            await websocket.send_bytes(f"\r\n  {words}\r\n".encode())
            await websocket.close()
            return
        await websocket.send_bytes(refusal.terminal_text(language).encode())
        query = f"why={refusal.why}" + (f"&wait={refusal.retry}" if refusal.why == "rate" else "")
        url = self.base_url(request) + str(request.app.router["busy"].url_for()) + "?" + query
        await websocket.send_str(json.dumps(["open_url", {"url": url, "new_tab": False}]))
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(NOTICE_TIMEOUT):
                async for message in websocket:
                    if message.type in (WSMsgType.CLOSE, WSMsgType.ERROR):
                        break
        await websocket.close()

    async def _process_messages(self, websocket: web.WebSocketResponse, app_service: Any) -> None:
        """textual-serve's loop over what the browser sends, less its crash on a message
        that is not the JSON list it expects (one line in the log instead)."""
        try:
            await super()._process_messages(websocket, app_service)
        except (ValueError, TypeError, KeyError, IndexError, AssertionError) as error:
            log.warning(
                "session %s: the browser sent a message that is not understood: %s",
                app_service.app_service_id[:8],
                type(error).__name__,
            )

    async def _end(self, session: Session) -> None:
        try:
            await session.stop()
        finally:
            self.sessions.discard(session)
            log.info("session %s ended (pid %s)", session.app_service_id[:8], session.pid)


def session_argv(game_args: Sequence[str]) -> list[str]:
    """The command a tab started afresh runs: this Python, the game as a tab
    (`app/web_tab.py`), the game flags passed through.

    `-P` keeps the server's working directory off the app's import path, so a folder named
    `app` wherever the server was started cannot stand in for this package.
    """
    return [sys.executable, "-P", "-m", "app.web_tab", *game_args]


def serve(
    game_args: Sequence[str],
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    max_sessions: int = DEFAULT_MAX_SESSIONS,
    per_client: int = DEFAULT_PER_CLIENT,
    per_minute: int = DEFAULT_PER_MINUTE,
    grace: float = DEFAULT_GRACE,
    public_url: str | None = None,
    user_header: str | None = None,
    trust_proxy: bool = False,
    allowed_hosts: Sequence[str] = (),
    fork: bool = True,
    shared: SharedTables | None = None,
) -> None:
    """Run the web server until Ctrl+C or SIGTERM. Warnings and logs go to stderr.

    With `fork`, the fork server is started first, before the event loop and any thread."""
    if warning := exposure_warning(host):
        sys.stderr.write(warning + "\n")
    fork_server = ForkServer(game_args, tab_environment()) if fork else None
    server = WebServer(
        session_argv(game_args),
        host=host,
        port=port,
        max_sessions=max_sessions,
        per_client=per_client,
        per_minute=per_minute,
        grace=grace,
        public_url=public_url,
        user_header=user_header,
        trust_proxy=trust_proxy,
        allowed_hosts=allowed_hosts,
        fork_server=fork_server,
        shared=shared,
    )
    if fork_server is not None:
        fork_server.start()  # before the event loop exists (it loads while the server starts)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            server.serve()
    finally:
        if fork_server is not None and fork_server.process is not None:
            fork_server.process.kill()  # only if the server stopped before its loop ran
            fork_server.process.wait()


def tab_environment() -> dict[str, str]:
    """The environment textual-serve gives a tab's app (less its size): the fork server loads
    Textual under it, since Textual reads some of it once, at import."""

    async def ignore(*_args: object) -> None:
        return None

    holder = AppService(
        "", write_bytes=ignore, write_str=ignore, close=ignore, download_manager=DownloadManager()
    )
    environment = holder._build_environment()
    for name in ("COLUMNS", "ROWS"):
        environment.pop(name, None)
    return environment
