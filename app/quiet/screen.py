"""Screens that are painted once when shown, and then only where they change.

**Painted once.** Textual paints a screen several times as it is shown: its first layout paints
it in full; every widget, getting its first size, asks for a repaint that then repaints it
again, region by region; the screen-resume handler asks for another full repaint right after
the first; a pushed screen gets one more when `push_screen`'s mount-await ends; and what the
widgets do on their first `Resize` (a log writing the lines it held back, a panel taking its
width) comes after. At 80×24 that was 3.6 full frames of bytes before the lobby settled and
about 4 for the Generala screen, every time one was opened. A `PaintOnceScreen` instead:

- as the app's first screen (the lobby, whose first frame is the start-up time), writes its
  first layout's paint and drops the repaints that paint already satisfied (the widgets'
  first-size repaints, and the resume's own full repaint);
- shown at any other time (pushed, switched to, or back from a screen above it), keeps its
  paints off the terminal until it has settled (a round of its repaints passes with nothing new
  to paint, or `SETTLE_ROUNDS` rounds have passed), then paints it once, in full.

**Styled once.** Textual restyles every widget of a screen each time it is shown (≈ 0.15 s for
the hundred widgets of a rule card, a third of that for a game's screen back from a
confirmation); a `PaintOnceScreen` shown again is restyled only if the app's CSS (the theme)
changed while it was hidden. And when a screen brings CSS files of its own, Textual parses every
style sheet of the app again and restyles every widget of every screen; `read_screen_css` reads
the new files beforehand, so that only they are parsed and only the new screen is styled.

**Quiet.** Textual repaints the whole screen (all 80×24 cells, ≈ 8 KB over SSH) when the focus
moves (`Screen.focused` is a repainting reactive), and twice for every click, because a click
starts and ends a text selection (`Screen._select_state`). The widgets that gain or lose the
focus, or that answer the click, repaint themselves, so those screen-wide repaints draw nothing
new. A `QuietScreen`'s focus does not repaint it, and it has no mouse text selection of its own
(the terminal's own selection, usually with shift held, still works).

`tests/ui/test_ui_repaint.py` checks, step by step, that the terminal shows what a full repaint
would, and counts the bytes; `tests/ui/test_ui_paint_once.py` counts the paints of each screen
switch, and `tests/test_textual_private.py` fails if the Textual internals used here change
(each reached through `app/textual_private.py`; they are Textual 8.2.8's:
`Screen._on_screen_resume`, whose steps `_on_screen_resume` below repeats; `Screen.
_compositor_refresh`, the one place a screen is painted; `Screen._on_idle`, which runs the
callbacks queued after a refresh (`Screen._callbacks`) unless a widget waits to be painted;
the screen's compositor and its widgets' pending repaint regions; `App._batch_count`,
`App._css_update_count` and `App._load_screen_css`, which `CubileteApp` extends with
`read_screen_css`). There is no public way to do this: Textual offers `App.batch_update`, which
drops paints without knowing when the screen has settled, no hook between a paint and the
repaints queued before it, and no say in when a screen is restyled or its CSS parsed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from textual import events
from textual.app import App
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget

from ..textual_private import (
    after_refresh_queued,
    batching,
    css_version,
    drop_pending_paints,
    forget_repaints,
    laid_out_size,
    lay_out,
    messages_waiting,
    paint_now,
    paints_pending,
    refresh_notifications,
    update_auto_focus,
)
from .collector import COLLECTOR

ResultT = TypeVar("ResultT")

SETTLE_ROUNDS = 8
"""At most this many rounds of repaints are kept off the terminal while a screen settles (a
screen that never settles, say one that animates from the start, is shown after them)."""

AFTER_PAINT_YIELDS = 4
"""At most this many idles in a row put off the callbacks queued after a refresh while the
widgets report the repaints asked for before them (see `PaintOnceScreen._on_idle`)."""


class PaintOnceScreen(Screen[ResultT]):
    """A screen that reaches the terminal settled: painted once when it is shown."""

    _held_paints: int | None = None
    """While the screen settles, the number of its paints kept off the terminal; else None."""
    _styled_for: int | None = None
    """The app's CSS version (`App._css_update_count`) the screen was last restyled for."""
    _shown = False
    """Whether the screen has reached the terminal (its one paint at its first showing)."""
    _when_shown: list[Callable[[], object]] | None = None
    _after_settling: list[Callable[[], object]] | None = None
    """What `after_paint` put off while the screen settles (shown again)."""
    _idle_yields = 0
    """Idles in a row at which the callbacks queued after a refresh were put off."""
    _uncovered = False
    """Shown again as a question the app keeps closes over it (`uncovered`)."""

    def when_shown(self, callback: Callable[[], object]) -> None:
        """Run `callback` once the screen is on the terminal: work the player does not see
        (a coach getting ready, say) then waits until the screen has been painted."""
        if self._shown:
            self.call_after_refresh(callback)
        else:
            self._when_shown = [*(self._when_shown or []), callback]

    def _now_shown(self) -> None:
        self._shown = True
        for callback in self._when_shown or []:
            self.call_after_refresh(callback)
        self._when_shown = None
        self._run_after_settling(self.app.call_after_refresh)

    def uncovered(self) -> None:
        """A question kept by the app (installed: nothing of it is removed when it closes)
        is closing over this screen, which was laid out and drawn under it all along. What
        it waits for to settle is only the answer's own repaints (a move): its settling
        rounds lay out and drop them at once instead of at the update timer's next tick, up
        to a frame later each (the zero's "y", the slowest key of a Generala game)."""
        self._uncovered = True

    def after_paint(self, callback: Callable[[], object]) -> None:
        """Run `callback` once what was just asked of the screen has been painted: after the
        app's next refresh (`App.call_after_refresh`: it runs even if the screen goes
        meanwhile), or, while the screen settles to be shown again (a confirmation over it
        closed), after the one paint that ends the settling. There, work started at once (the
        coach's rating and preparation of a move made from the confirmation) kept the
        settling going until it was done: the screen waited for the coach's worker threads
        before its paint (docs/performance.md, "Fifth pass")."""

        def refreshed() -> None:
            if self._held_paints is not None and self.is_attached:
                self._after_settling = [*(self._after_settling or []), callback]
            else:
                callback()

        if self._held_paints is None:
            # (a move made as a confirmation over the screen closes comes before the screen
            # is shown again: by the refresh, it settles)
            self.app.call_after_refresh(refreshed)
        else:
            self._after_settling = [*(self._after_settling or []), callback]

    def _run_after_settling(self, run: Callable[[Callable[[], object]], object]) -> None:
        waiting, self._after_settling = self._after_settling or [], None
        for callback in waiting:
            run(callback)

    def on_screen_suspend(self) -> None:
        """Another screen covers this one before it settled: what waited for its paint runs
        now (a rating must come in, even if the screen is not painted again), and the next
        showing settles as any other, unless a kept question closes over it again."""
        self._uncovered = False
        self._run_after_settling(self.app.call_later)

    def on_unmount(self) -> None:
        self._run_after_settling(self.app.call_later)  # (as when suspended)

    async def _on_idle(self, event: events.Idle) -> None:
        """Run what was queued "after the refresh" (`call_after_refresh`) after the paint that
        the same handler asked for.

        Textual runs those callbacks at the screen's next idle unless a widget of the screen
        is waiting to be painted then. A widget reports a repaint from its own task, at its
        own idle; a handler of the screen (a key, a box chosen) that refreshes widgets and then
        queues a callback reaches the screen's idle first, and the callback ran before the
        paint: the coach's rating and preparation started their worker threads then, and the
        paint of the key, sharing the interpreter with them, took three times its CPU time.
        So with callbacks queued, the screen lets the other tasks run once first; if they
        posted anything to it (the widgets' repaints), its next idle decides, after that."""
        if after_refresh_queued(self) and self._idle_yields < AFTER_PAINT_YIELDS:
            await asyncio.sleep(0)  # the widgets' tasks report their repaints
            if messages_waiting(self):
                self._idle_yields += 1
                event.prevent_default()  # (Screen._on_idle: at the next idle)
                return
        self._idle_yields = 0

    @property
    def settling(self) -> bool:
        """Whether the screen's paints are being kept off the terminal."""
        return self._held_paints is not None

    def _compositor_refresh(self) -> None:
        """Textual's paint of the screen (its compositor's dirty regions, to the terminal). While
        the screen settles nothing is rendered: the one paint at the end draws it all."""
        if self._held_paints is not None and self is self.app.screen:
            self._held_paints += 1
            drop_pending_paints(self)
            return
        super()._compositor_refresh()
        COLLECTOR.painted()  # (the garbage collection waits for a quiet moment after it)

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        """Textual's `Screen._on_screen_resume` (which this replaces: `prevent_default`), but
        painting a newly shown screen once (see the module's docstring)."""
        event.prevent_default()
        app = self.app
        if app.SUSPENDED_SCREEN_CLASS:
            self.remove_class(app.SUSPENDED_SCREEN_CLASS)
        self.stack_updates += 1
        refresh_notifications(app)
        size = app.size
        update_auto_focus(self)
        if not self.is_attached:
            return
        if event.refresh_styles and self._styled_for != css_version(app):
            # Textual restyles every widget of a screen at each showing; shown again, a screen
            # needs it only if the app's CSS (the theme) changed while it was hidden
            self.update_node_styles(animate=False)
            self._styled_for = css_version(app)
        if not (self is app.screen_stack[0] and laid_out_size(self) != size):
            # not the app's first paint (which is its start-up time): hold the paints until
            # the screen settles, then paint it once (also when it is shown again: what the
            # screen does on its return, the lobby showing the game just left, say, comes in
            # that one paint)
            self._held_paints = 0
            self._next_round(0, 1)
        if laid_out_size(self) != size:
            lay_out(self, size)  # paints the screen in full
            if self.is_current and not batching(app):
                # that paint drew every widget as it is now: the repaints they asked for
                # before it (their first size, mostly) would draw the same cells again
                forget_repaints(self)
                if self._held_paints is None:
                    self._now_shown()

    def _next_round(self, seen: int, rounds: int) -> None:
        """Check again once the app and every widget of the screen have handled what they
        had queued (a pushed screen's mount-await or a popped screen's removal, in the app,
        each asks for a repaint of this screen; a widget's first `Resize` may change it)."""
        # the app (whose handler may still be under way) and every widget with messages
        # waiting: one with none has nothing left to do (a message to each of the screen's
        # dozens of widgets cost a round 2-4 ms)
        widgets = self.walk_children(with_self=True)
        pumps = [self.app, *(pump for pump in widgets if messages_waiting(pump))]
        left = len(pumps)

        def handled() -> None:
            nonlocal left
            left -= 1
            if left == 0:
                self.call_later(self._check_settled, seen, rounds)

        for pump in pumps:
            if not pump.call_later(handled):
                handled()  # (a widget being removed)

    def _check_settled(self, seen: int, rounds: int) -> None:
        """Paint the screen once if the last round neither painted it (kept back) nor left it
        anything to lay out or repaint; if it did, wait for that, then go round again."""
        held = self._held_paints
        if held is None:
            return
        pending = paints_pending(self)
        if rounds < SETTLE_ROUNDS:
            if pending:  # laid out and painted (kept back), then again
                if self._uncovered:  # now
                    paint_now(self)
                    self._next_round(self._held_paints or 0, rounds + 1)
                else:  # at the screen's next refresh
                    self.call_after_refresh(self._next_round, held, rounds + 1)
                return
            if held != seen:
                self._next_round(held, rounds + 1)
                return
        self._held_paints = None
        self._uncovered = False
        self.refresh()
        paint_now(self)  # (the update timer would paint it up to a frame later)
        self._now_shown()


class QuietScreen(PaintOnceScreen[ResultT]):
    ALLOW_SELECT: ClassVar[bool] = False
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    @property
    def opening_as_the_app_exits(self) -> bool:
        """The app is exiting as this screen opens (ctrl+q in the moment a bot's move opened
        it, or the end of a test): Textual mounts part of what it composed, or none of it, so
        the screen sets nothing up."""
        app = self.app
        return not self.is_attached or not app.is_running or app.return_code is not None


def read_screen_css(app: App[Any], screen: Screen[Any]) -> None:
    """Add `screen`'s CSS files to the app's style sheet, before Textual shows it.

    Textual's `App._load_screen_css`, finding a CSS file it has not read, parses every style
    sheet of the app again from scratch and restyles every widget of every screen (≈ 35 ms
    when a game opens, and again for a confirmation or the game's end). Read here, the file is
    parsed alone when the new screen's widgets are styled (the style sheet parses only the
    sources it has not parsed), and only those are styled; `_load_screen_css` then finds
    nothing new."""
    stylesheet = app.stylesheet
    for path in screen.css_path:
        if not stylesheet.has_source(str(path), ""):
            stylesheet.read(path)
