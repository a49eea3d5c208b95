"""`cubilete web`: the game in a browser tab, served from this machine by textual-serve.

Each browser tab (one websocket) runs its own app process in its own process group. When the
tab closes or the socket drops, the app is asked to quit, given a grace period, and then its
whole group is killed with SIGKILL: an app seen spinning after a disconnect must not outlive its
tab. `max_sessions` caps the app processes alive at once (those in their grace period count),
and a tab beyond the cap gets a plain "full" page instead of a terminal.

The page loads nothing from the internet: it is the installed textual-serve's own template, made
at run time, with its web-font `<link>` replaced by the font textual-serve ships.

Everything this server says goes to stderr; stdout is left alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import html
import ipaddress
import logging
import os
import re
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import web
from rich.console import Console
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from .i18n import _
from .locations import data_dir

log = logging.getLogger("cubilete.web")

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_MAX_SESSIONS = 8
DEFAULT_GRACE = 5.0
"""Seconds an app has to quit by itself after its tab went away, before SIGKILL."""
REAP_TIMEOUT = 5.0
"""Seconds to wait for a killed process group to be gone and its pipes closed."""

MAX_COLUMNS, MAX_ROWS = 500, 200
"""The largest terminal a browser may ask for (it sends its size in the websocket URL)."""

TEMPLATE_NAME = "app_index.html"
FONT_FILE = "fonts/RobotoMono-VariableFont_wght.ttf"

_EXTERNAL_STYLESHEET = re.compile(
    r"<link\b[^>]*\bhref\s*=\s*[\"']https?://[^\"']*[\"'][^>]*>", re.IGNORECASE | re.DOTALL
)
_EXTERNAL_FETCH = re.compile(
    r"(?:\b(?:href|src)\s*=\s*[\"']|url\(\s*[\"']?)(?:https?:)?//", re.IGNORECASE
)
_LOCAL_FONT = (
    "<style>\n"
    "      @font-face {\n"
    '        font-family: "Roboto Mono";\n'
    '        src: url("{{ config.static.url }}' + FONT_FILE + '") format("truetype");\n'
    "        font-weight: 100 700;\n"
    "      }\n"
    "    </style>"
)


# -- the page ------------------------------------------------------------------------------
def textual_serve_templates() -> Path:
    """The templates folder of the installed textual-serve."""
    import textual_serve

    return Path(textual_serve.__file__).parent / "templates"


def offline_page(template: str) -> str:
    """textual-serve's page with its web-font link replaced by its bundled font.

    Raises ValueError if anything else in the page would still be fetched from another site
    (a newer textual-serve): better no server than a page that reaches out to the internet.
    """
    page = _EXTERNAL_STYLESHEET.sub(lambda _match: _LOCAL_FONT, template)
    if found := _EXTERNAL_FETCH.search(page):
        start = max(0, found.start() - 40)
        raise ValueError(f"the page template still loads an external asset: {page[start:]!r:.120}")
    return page


def full_page(limit: int) -> str:
    """The page a tab gets when every session is taken. Plain HTML, nothing to fetch."""
    title = html.escape(_("Cubilete is full"))
    text = html.escape(
        _("All {limit} tables are taken. Try again in a minute.").format(limit=limit)
    )
    again = html.escape(_("Try again"))
    return (
        "<!DOCTYPE html>\n"
        '<html><head><meta charset="utf-8"><title>' + title + "</title>"
        "<style>body{background:#0c181f;color:#eee;font-family:monospace;"
        "display:flex;align-items:center;justify-content:center;height:100vh;margin:0}"
        "main{background:#12232d;padding:2em 3em;text-align:center}"
        "a{color:#ac5af4}</style></head>\n"
        '<body><main id="full"><h1>' + title + "</h1><p>" + text + "</p>"
        '<p><a href="">' + again + "</a></p></main></body></html>\n"
    )


def is_loopback(host: str) -> bool:
    """True for the hosts only this machine can reach (no login is needed there)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def exposure_warning(host: str) -> str | None:
    """What to say when the server listens beyond this machine: the page has no login."""
    if is_loopback(host):
        return None
    return (
        f"cubilete web: warning: listening on {host}: anyone who can reach this port can play "
        "and start processes here, and the page has no login. Listen on 127.0.0.1 and put an "
        "authenticating reverse proxy in front (see README.md, 'Browser and SSH')."
    )


def terminal_size(width: int, height: int) -> tuple[int, int]:
    """A browser's terminal size, kept within reason (it comes from the page, unchecked)."""
    return min(max(int(width), 10), MAX_COLUMNS), min(max(int(height), 5), MAX_ROWS)


def user_dir_name(user: str) -> str:
    """A safe folder name for a user named by the reverse proxy (odd names get a hash)."""
    safe = re.sub(r"[^A-Za-z0-9._@-]", "_", user)[:64].lstrip(".")
    if safe != user or not safe:
        safe = f"{safe or 'user'}-{hashlib.sha256(user.encode()).hexdigest()[:12]}"
    return safe


# -- one session ---------------------------------------------------------------------------
class Session(AppService):
    """One browser tab's app: its own process group, reaped with SIGKILL after a grace period."""

    def __init__(
        self, argv: Sequence[str], *, grace: float, env: dict[str, str], **kwargs: Any
    ) -> None:
        super().__init__(" ".join(argv), **kwargs)
        self.argv = list(argv)
        self.grace = grace
        self.extra_env = env
        self.stopped = asyncio.Event()

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    async def _open_app_process(
        self, width: int = 80, height: int = 24
    ) -> asyncio.subprocess.Process:
        environment = self._build_environment(width=width, height=height) | self.extra_env
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=environment,
            start_new_session=True,  # its own session and process group: killpg reaches it all
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def stop(self) -> None:
        """Ask the app to quit; after the grace period kill its process group. Idempotent."""
        if self.stopped.is_set():
            return
        self.stopped.set()
        process = self._process
        if process is None:
            return
        with contextlib.suppress(Exception):
            await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
        if process.returncode is None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._quit(process), self.grace)
        self.kill()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(process.wait(), REAP_TIMEOUT)
        if self._task is not None:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(self._task, REAP_TIMEOUT)
            self._task = None

    async def set_terminal_size(self, width: int, height: int) -> None:
        await super().set_terminal_size(*terminal_size(width, height))

    async def _quit(self, process: asyncio.subprocess.Process) -> None:
        """Ask the app to quit (as textual-serve does) and wait for it to be gone."""
        with contextlib.suppress(Exception):
            await self.send_meta({"type": "quit"})
        await process.wait()

    async def run(self) -> None:
        """Relay the app's output; when the app is gone, hang up so the tab says so."""
        await super().run()
        if not self.stopped.is_set():
            with contextlib.suppress(Exception):
                await self.remote_close()

    def kill(self) -> None:
        """SIGKILL the session's whole process group (whatever is left of it)."""
        if self._process is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._process.pid, signal.SIGKILL)


# -- the server ----------------------------------------------------------------------------
class WebServer(Server):
    """textual-serve's Server with sessions in process groups, a cap, and an offline page."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        host: str = DEFAULT_HOST,
        port: int = DEFAULT_PORT,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
        grace: float = DEFAULT_GRACE,
        public_url: str | None = None,
        user_header: str | None = None,
        title: str = "Cubilete",
    ) -> None:
        super().__init__(" ".join(argv), host=host, port=port, title=title, public_url=public_url)
        self.argv = list(argv)
        self.max_sessions = max_sessions
        self.grace = grace
        self.fixed_public_url = public_url
        self.user_header = user_header
        self.sessions: set[Session] = set()
        self.console = Console(stderr=True)
        self.page = offline_page(
            (textual_serve_templates() / TEMPLATE_NAME).read_text(encoding="utf-8")
        )

    @property
    def full(self) -> bool:
        return len(self.sessions) >= self.max_sessions

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        aiohttp_jinja2.setup(app, loader=jinja2.DictLoader({TEMPLATE_NAME: self.page}))
        return app

    async def on_startup(self, app: web.Application) -> None:
        """Say nothing yet: the port may still turn out to be taken (see `announce`)."""

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
        )

    async def on_shutdown(self, app: web.Application) -> None:
        """Stop every session the same way a closed tab is stopped: quit, grace, SIGKILL."""
        await asyncio.gather(*(session.stop() for session in list(self.sessions)))

    # -- who is asking ---------------------------------------------------------------------
    def base_url(self, request: web.Request) -> str:
        """The URL the browser reached us at: --public-url, else what the request says."""
        if self.fixed_public_url:
            return self.fixed_public_url.rstrip("/")
        scheme = request.headers.get("X-Forwarded-Proto", request.scheme).split(",")[0].strip()
        host = request.headers.get("X-Forwarded-Host", request.host).split(",")[0].strip()
        return f"{scheme}://{host}"

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

    def refuse_full(self) -> web.Response:
        return web.Response(
            text=full_page(self.max_sessions),
            status=503,
            content_type="text/html",
            headers={"Retry-After": "30", "Cache-Control": "no-store"},
        )

    def refuse_anonymous(self) -> web.Response:
        return web.Response(text=_("Log in through the proxy first.") + "\n", status=403)

    # -- routes ----------------------------------------------------------------------------
    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        if self.user_env(request) is None:
            return self.refuse_anonymous()
        if self.full:
            return self.refuse_full()
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
        }
        response = aiohttp_jinja2.render_template(TEMPLATE_NAME, request, context)
        response.headers["Cache-Control"] = "no-store"
        return response

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        websocket = web.WebSocketResponse(heartbeat=15)
        env = self.user_env(request)
        await websocket.prepare(request)
        if env is None or self.full:
            reason = (
                _("Cubilete is full: all {limit} tables are taken. Try again in a minute.").format(
                    limit=self.max_sessions
                )
                if env is not None
                else _("Log in through the proxy first.")
            )
            await websocket.send_bytes(f"\r\n  {reason}\r\n".encode())
            await websocket.close()
            return websocket
        session = Session(
            self.argv,
            grace=self.grace,
            env=env,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=websocket.close,
            download_manager=self.download_manager,
            debug=self.debug,
        )
        self.sessions.add(session)
        width, height = terminal_size(
            to_int(request.query.get("width", "80"), 80),
            to_int(request.query.get("height", "24"), 24),
        )
        try:
            await session.start(width, height)
            log.info("session %s started (pid %s)", session.app_service_id[:8], session.pid)
            await self._process_messages(websocket, session)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:
            log.exception(error)
        finally:
            await asyncio.shield(self._end(session))
        return websocket

    async def _end(self, session: Session) -> None:
        try:
            await session.stop()
        finally:
            self.sessions.discard(session)
            log.info("session %s ended (pid %s)", session.app_service_id[:8], session.pid)


def session_argv(game_args: Sequence[str]) -> list[str]:
    """The command each tab runs: this Python, this package, the game flags passed through.

    `-P` keeps the server's working directory off the app's import path, so a folder named
    `app` wherever the server was started cannot stand in for this package.
    """
    return [sys.executable, "-P", "-m", "app", *game_args]


def serve(
    game_args: Sequence[str],
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    max_sessions: int = DEFAULT_MAX_SESSIONS,
    grace: float = DEFAULT_GRACE,
    public_url: str | None = None,
    user_header: str | None = None,
) -> None:
    """Run the web server until Ctrl+C or SIGTERM. Warnings and logs go to stderr."""
    if warning := exposure_warning(host):
        sys.stderr.write(warning + "\n")
    server = WebServer(
        session_argv(game_args),
        host=host,
        port=port,
        max_sessions=max_sessions,
        grace=grace,
        public_url=public_url,
        user_header=user_header,
    )
    with contextlib.redirect_stdout(sys.stderr):
        server.serve()
