"""Every use the app makes of Textual's private parts (and textual-serve's), in one place.

Textual is pinned exactly (pyproject: textual==8.2.8, textual-serve==1.1.3), and each use below
is one that no public API allows: painting a screen once when it is shown, a screen-wide repaint
skipped, a crash told in one line, words of Textual's own in the player's language. The app
reaches a private name only through this module: what it reads or calls goes through the
functions below; what it overrides (a method of a Textual class, which has to be written in the
subclass) is listed in `PRIVATE` with the module that overrides it.

`tests/test_textual_private.py` checks every entry of `PRIVATE` against the Textual installed:
that the name is there, and for the code the app repeats or relies on step by step, that
Textual's source is the one the app was written against (a digest of it). After an upgrade,
a failure names the entry, the app's module to bring up to date, and why the entry exists.

Nothing of Textual is imported here at run time: the web server (`app.web_zygote`) reads
`PRELOADED_MODULES` before it loads Textual.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Callable

    from rich.console import RenderableType
    from textual.app import App
    from textual.command import CommandPalette
    from textual.geometry import Size
    from textual.message_pump import MessagePump
    from textual.screen import Screen
    from textual.scrollbar import ScrollBar
    from textual.widget import Widget


class Private(NamedTuple):
    """One private part of Textual (or textual-serve) that the app uses."""

    target: str
    """`module:Class.name` in Textual (or textual-serve)."""
    use: Literal["override", "call", "attribute", "module"]
    where: str
    """The app's module (and class) that uses it."""
    why: str
    source: str | None = None
    """The first 16 hex digits of the SHA-256 of Textual's source of it (dedented), for code
    the app repeats or relies on step by step; None where only the name matters."""


PRIVATE: tuple[Private, ...] = (
    # -- a screen painted once when shown (app/quiet/screen.py; docs/performance.md) ----------
    Private(
        "textual.screen:Screen._on_screen_resume",
        "override",
        "app/quiet/screen.py PaintOnceScreen",
        "repeats Textual's steps but paints a newly shown screen once, settled (3.6 full "
        "frames of bytes before the lobby settled, ≈ 4 for a game screen), and restyles a "
        "screen shown again only if the theme changed (≈ 0.15 s for a rule card)",
        "d4252a0cb873906a",
    ),
    Private(
        "textual.screen:Screen._compositor_refresh",
        "override",
        "app/quiet/screen.py PaintOnceScreen",
        "the one place a screen is painted: while the screen settles its paints are dropped",
        "55663d2f194daeb7",
    ),
    Private(
        "textual.app:App._load_screen_css",
        "override",
        "app/main.py CubileteApp",
        "a screen's new CSS files are read first (`read_screen_css`): else Textual parses "
        "every style sheet again and restyles every screen (≈ 35 ms when a game opens)",
        "b27ed51b13972d29",
    ),
    Private(
        "textual.screen:Screen._dirty_widgets",
        "attribute",
        "app/quiet/screen.py, app/main.py",
        "the widgets waiting to be painted: dropped while settling, checked to know whether "
        "a screen has settled, and the title bar added so that a new sub-title paints only "
        "its line (≈ 0.2 KB instead of ≈ 6 KB)",
    ),
    Private(
        "textual._compositor:Compositor._dirty_regions",
        "attribute",
        "app/quiet/screen.py",
        "the regions waiting to be painted, dropped while a screen settles",
    ),
    Private(
        "textual._compositor:Compositor.visible_widgets",
        "attribute",
        "app/quiet/screen.py",
        "the widgets on screen, whose first-size repaints the first full paint satisfied",
    ),
    Private(
        "textual.widget:Widget._repaint_regions",
        "attribute",
        "app/quiet/screen.py",
        "a widget's pending repaint, forgotten after the full paint that drew it",
    ),
    Private(
        "textual.screen:Screen._layout_required",
        "attribute",
        "app/quiet/screen.py",
        "with `_scroll_required` and `_repaint_required`: what a screen still has to do "
        "before it has settled",
    ),
    Private("textual.screen:Screen._scroll_required", "attribute", "app/quiet/screen.py", "idem"),
    Private("textual.screen:Screen._repaint_required", "attribute", "app/quiet/screen.py", "idem"),
    Private(
        "textual.widget:Widget._size",
        "attribute",
        "app/quiet/screen.py",
        "a screen's size as last laid out (Textual's resume handler compares it)",
    ),
    Private(
        "textual.screen:Screen._refresh_layout",
        "call",
        "app/quiet/screen.py",
        "a step of Textual's resume handler: lays the screen out and paints it in full",
    ),
    Private(
        "textual.screen:Screen._update_auto_focus",
        "call",
        "app/quiet/screen.py",
        "a step of Textual's resume handler",
    ),
    Private(
        "textual.app:App._refresh_notifications",
        "call",
        "app/quiet/screen.py",
        "a step of Textual's resume handler",
    ),
    Private(
        "textual.app:App._css_update_count",
        "attribute",
        "app/quiet/screen.py",
        "the app's CSS version: a screen shown again is restyled only when it changed",
    ),
    Private(
        "textual.app:App._batch_count",
        "attribute",
        "app/quiet/screen.py",
        "whether the app is batching updates (then nothing is painted)",
    ),
    Private(
        "textual.screen:Screen._on_idle",
        "override",
        "app/quiet/screen.py PaintOnceScreen",
        "runs what a handler queued after the refresh only after the paint it asked for (the "
        "coach's threads started before a filled box was painted, tripling the paint's CPU)",
        "07b070b1b717c1a6",
    ),
    Private(
        "textual.screen:Screen._callbacks",
        "attribute",
        "app/quiet/screen.py",
        "whether callbacks are queued after the refresh",
    ),
    Private(
        "textual.message_pump:MessagePump._message_queue",
        "attribute",
        "app/quiet/screen.py",
        "whether the widgets posted the screen their repaints meanwhile, and which widgets "
        "have messages waiting while a screen settles",
    ),
    Private(
        "textual.message_pump:MessagePump._pending_message",
        "attribute",
        "app/quiet/screen.py",
        "the message a pump's loop took out of its queue to look at, which it handles after "
        "its idle handlers (a screen shown again has its idle before its ScreenResume): "
        "such a message is waiting too",
    ),
    # -- painting now --------------------------------------------------------------------
    Private(
        "textual.screen:Screen._on_timer_update",
        "call",
        "app/main.py CubileteApp.loading, app/quiet/screen.py",
        "paints what is pending now, as Pilot.pause() does: 'Opening Generala…' reaches the "
        "terminal before the seconds of imports that follow; a settled screen is painted at "
        "once, not up to a frame later at the update timer's next tick",
        "af1f31e0921c3100",
    ),
    # -- a crash in one line (app/crash.py) -----------------------------------------------
    Private(
        "textual.app:App._handle_exception",
        "override",
        "app/main.py CubileteApp",
        "notes the error, so that the player gets one line instead of a traceback",
        "ee684ee67163e360",
    ),
    Private(
        "textual.app:App._print_error_renderables",
        "override",
        "app/main.py CubileteApp",
        "prints the one-line report instead of Textual's traceback",
        "852c30f5bccf3332",
    ),
    Private(
        "textual.app:App._exit_renderables",
        "attribute",
        "app/main.py CubileteApp",
        "Textual's traceback, dropped once the one-line report is written",
    ),
    # -- the command palette's words (app/palette.py) --------------------------------------
    Private(
        "textual.command:CommandPalette._start_no_matches_countdown",
        "override",
        "app/palette.py Palette",
        "Textual writes 'No matches found' in English: the same steps, in the player's words",
        "caa0724dc67501e9",
    ),
    Private(
        "textual.command:CommandPalette._stop_no_matches_countdown",
        "call",
        "app/palette.py",
        "a step of the method above",
    ),
    Private("textual.command:CommandPalette._NO_MATCHES", "attribute", "app/palette.py", "idem"),
    Private(
        "textual.command:CommandPalette._NO_MATCHES_COUNTDOWN",
        "attribute",
        "app/palette.py",
        "idem",
    ),
    Private(
        "textual.command:CommandPalette._no_matches_timer", "attribute", "app/palette.py", "idem"
    ),
    Private("textual.command:CommandPalette._list_visible", "attribute", "app/palette.py", "idem"),
    # -- widgets that repaint less ---------------------------------------------------------
    Private(
        "textual.widget:Widget._on_focus",
        "override",
        "app/quiet/setup_sheet.py SetupSheet",
        "Textual's handler repaints the whole widget; only the cursor's row changes "
        "(≈ 0.2 KB instead of ≈ 5 KB): the same steps, repainting that row",
        "b43865277c52274d",
    ),
    Private(
        "textual.widget:Widget._on_blur",
        "override",
        "app/quiet/setup_sheet.py SetupSheet",
        "as `_on_focus`",
        "e5fa30d0f5ee1297",
    ),
    Private(
        "textual.widget:Widget.vertical_scrollbar",
        "override",
        "app/quiet/table_talk.py TableTalk",
        "the same steps with a `QuietScrollBar`, which does not repaint an unchanged empty "
        "track (eight rows to the terminal at every write)",
        "11cc49e6c20e78c4",
    ),
    Private(
        "textual.widget:Widget._vertical_scrollbar", "attribute", "app/quiet/table_talk.py", "idem"
    ),
    Private("textual.app:App._start_widget", "call", "app/quiet/table_talk.py", "idem"),
    Private(
        "textual.widget:Widget._scroll_update",
        "call",
        "app/quiet/table_talk.py TableTalk",
        "what a layout does for a scroll view whose virtual size changed (its scrollbar's "
        "window and position, its scroll offsets within the new bounds): a write to a log of "
        "fixed size asks for that alone, not for a layout of the screen (4-6 ms of CPU at "
        "every line of table talk)",
        "520a061d9e6bf463",
    ),
    # -- modules the web server loads before it forks a tab (app/web_zygote.py) ------------
    Private(
        "textual._binary_encode",
        "module",
        "app/web_zygote.py PRELOAD",
        "imported by a tab only once it runs (the web driver): loaded once in the zygote",
    ),
    Private("textual._xterm_parser", "module", "app/web_zygote.py PRELOAD", "idem (input)"),
    Private(
        "textual.widgets._markdown",
        "module",
        "app/web_zygote.py PRELOAD",
        "the Markdown widget the rule cards import when first opened",
    ),
    # -- textual-serve (app/web.py) --------------------------------------------------------
    Private(
        "textual_serve.server:Server._process_messages",
        "override",
        "app/web.py WebServer",
        "textual-serve's loop over the browser's messages crashes on one it does not "
        "understand: one line in the log instead",
    ),
    Private(
        "textual_serve.server:Server._make_app",
        "override",
        "app/web.py WebServer",
        "the server's routes, limits and pages of our own",
    ),
    Private(
        "textual_serve.app_service:AppService._open_app_process",
        "override",
        "app/web.py Session",
        "a tab is forked from a zygote that has everything loaded, in its own process group",
    ),
    Private(
        "textual_serve.app_service:AppService._build_environment",
        "call",
        "app/web.py",
        "the environment textual-serve gives an app, for the zygote and the forked tabs",
    ),
    Private(
        "textual_serve.app_service:AppService._stdin", "attribute", "app/web.py Session", "idem"
    ),
    Private(
        "textual_serve.app_service:AppService._task", "attribute", "app/web.py Session", "idem"
    ),
    Private(
        "textual_serve.app_service:AppService._download_manager",
        "attribute",
        "app/web.py Session",
        "a stopped session's downloads are cancelled",
    ),
    Private(
        "textual.app:App._driver",
        "attribute",
        "app/screens/game.py GameScreen",
        "the terminal's title (OSC 2) says when your turn comes at a shared table: Textual "
        "writes no title of its own",
    ),
)

PRELOADED_MODULES = tuple(entry.target for entry in PRIVATE if entry.use == "module")
"""Textual's private modules the web server loads before it forks a tab."""


# -- the terminal --------------------------------------------------------------------------
def set_terminal_title(app: App[Any], title: str) -> None:
    """The terminal window's title (OSC 2), written with the app's output; nothing in a test
    (no terminal) or a browser tab."""
    driver = app._driver
    if driver is None or app.is_headless or app.is_web:
        return
    clean = "".join(c for c in title if c.isprintable())[:80]
    driver.write(f"\x1b]2;{clean}\x07")


# -- a screen painted once ---------------------------------------------------------------
def paint_now(screen: Screen[Any]) -> None:
    """Lay out and paint what is pending on `screen` now (`Screen._on_timer_update`)."""
    screen._on_timer_update()


def paint_with(screen: Screen[Any], widget: Widget) -> None:
    """Have `widget` painted with the screen's next update (as its own Update message would,
    later)."""
    screen._dirty_widgets.add(widget)


def drop_pending_paints(screen: Screen[Any]) -> None:
    """Forget what `screen` was about to paint (its regions and widgets)."""
    screen._compositor._dirty_regions.clear()
    screen._dirty_widgets.clear()


def paints_pending(screen: Screen[Any]) -> bool:
    """Whether `screen` still has a layout, a scroll or a repaint to do."""
    return bool(
        screen._layout_required
        or screen._scroll_required
        or screen._repaint_required
        or screen._dirty_widgets
    )


def forget_repaints(screen: Screen[Any]) -> None:
    """Drop the repaints that the visible widgets asked for before a full paint drew them."""
    for widget in screen._compositor.visible_widgets:
        widget._repaint_regions.clear()


def laid_out_size(screen: Screen[Any]) -> Size:
    """The size `screen` was last laid out at."""
    return screen._size


def lay_out(screen: Screen[Any], size: Size) -> None:
    """Lay `screen` out at `size` and paint it in full."""
    screen._refresh_layout(size)


def update_auto_focus(screen: Screen[Any]) -> None:
    screen._update_auto_focus()


def refresh_notifications(app: App[Any]) -> None:
    app._refresh_notifications()


def after_refresh_queued(screen: Screen[Any]) -> bool:
    """Whether callbacks wait to run after the screen's refresh (`call_after_refresh`)."""
    return bool(screen._callbacks)


def messages_waiting(pump: MessagePump) -> bool:
    """Whether messages wait for `pump` (a screen, a widget, the app): in its queue, or the
    one its loop took out of the queue to look at (`MessagePump._pending_message`: Textual
    then runs the pump's idle handlers before that message, a screen's `ScreenResume` say)."""
    return not pump._message_queue.empty() or pump._pending_message is not None


def css_version(app: App[Any]) -> int:
    """The app's CSS version: it changes when the theme or the style sheet does."""
    return app._css_update_count


def batching(app: App[Any]) -> bool:
    """Whether the app is batching updates (`App.batch_update`)."""
    return bool(app._batch_count)


# -- a crash in one line -----------------------------------------------------------------
def drop_exit_renderables(app: App[Any]) -> list[RenderableType]:
    """Textual's traceback, taken away so that it is not printed."""
    dropped = list(app._exit_renderables)
    app._exit_renderables.clear()
    return dropped


# -- the command palette's "No matches found" ------------------------------------------
def show_no_matches_later(
    palette: CommandPalette, search_value: str, no_matches: Callable[[], Any]
) -> None:
    """`CommandPalette._start_no_matches_countdown` (Textual 8.2.8), with `no_matches()` as
    the option shown (Textual's is "No matches found" in English)."""
    from textual.command import CommandList
    from textual.widgets.option_list import Option

    palette._stop_no_matches_countdown()

    def show() -> None:
        if search_value:
            palette.query_one(CommandList).add_option(
                Option(no_matches(), disabled=True, id=palette._NO_MATCHES)
            )
            palette._list_visible = True
        else:
            palette._list_visible = False

    palette._no_matches_timer = palette.set_timer(palette._NO_MATCHES_COUNTDOWN, show)


# -- a scrollbar of our own ------------------------------------------------------------
def vertical_scrollbar(widget: Widget, make: Callable[[], ScrollBar]) -> ScrollBar:
    """`Widget.vertical_scrollbar` (Textual 8.2.8), with the scrollbar `make()` gives."""
    if widget._vertical_scrollbar is None:
        bar = make()
        bar.display = False
        widget._vertical_scrollbar = bar
        widget.app._start_widget(widget, bar)
    return widget._vertical_scrollbar


def update_scrollbars(widget: Widget) -> None:
    """What a layout does for a scroll view whose virtual size changed, and no more
    (`Widget._scroll_update`, Textual 8.2.8): its scrollbars' window, its scroll offsets."""
    widget._scroll_update(widget.virtual_size)
