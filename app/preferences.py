"""The player's remembered language, in the data dir (`<data dir>/language`: its code).

Kept behind these two functions so that it can move into the lobby's settings store as it is.
Reading never fails: a missing, unreadable or unknown value means "not chosen".
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .i18n import LANGUAGES
from .locations import data_dir

FILE = "language"


def remembered_language(directory: Path | None = None) -> str | None:
    """The language the player chose in the lobby or the palette, if any."""
    try:
        folder = directory or data_dir(create=False)
        code = (folder / FILE).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return code if code in LANGUAGES else None


def remember_language(code: str, directory: Path | None = None) -> None:
    """Keep the player's choice for the next start (atomically: a temp file, then a rename).
    Raises OSError if the data dir cannot be written."""
    folder = directory or data_dir()
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(code + "\n")
        os.replace(tmp, folder / FILE)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
