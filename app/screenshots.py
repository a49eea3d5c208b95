"""The command palette's "Screenshot": an SVG of the screen, saved where it can be found.

Textual saves to the Downloads folder and fails when there is none (a server, a fresh
account). Cubilete saves to Downloads when it exists, else to `screenshots/` in its data dir,
and says where in a notification. In a browser the page downloads it, as Textual does.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .i18n import _
from .locations import data_dir

if TYPE_CHECKING:
    from textual.app import App


def screenshot_folder() -> Path:
    """The Downloads folder if the player has one, else the data dir's `screenshots/`."""
    from platformdirs import user_downloads_path

    downloads = user_downloads_path()
    if downloads.is_dir():
        return downloads
    folder = data_dir() / "screenshots"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


def take_screenshot(app: App[Any]) -> Path | None:
    """Save the screen as SVG and tell the player where; None (and a message) if it failed."""
    if app.is_web:
        app.deliver_screenshot()
        return None
    folder: Path | None = None
    try:
        folder = screenshot_folder()
        path = Path(app.save_screenshot(path=str(folder)))
    except OSError as error:
        where = folder if folder is not None else _("the data dir")
        app.notify(
            _("Could not save the screenshot in {folder}: {reason}").format(
                folder=where, reason=error.strerror or error
            ),
            title=_("Screenshot"),
            severity="error",
            markup=False,
        )
        return None
    app.notify(
        _("Saved to {path}").format(path=path), title=_("Screenshot"), markup=False, timeout=8
    )
    return path
