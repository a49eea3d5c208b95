"""The version of Cubilete that wrote a record (kept in every record's header)."""

from __future__ import annotations

from functools import cache


@cache
def app_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("cubilete")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"
