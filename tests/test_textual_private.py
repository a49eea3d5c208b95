"""The app's uses of Textual's private parts are all in app/textual_private.py, and each is
still what the app was written against.

Textual is pinned exactly; on an upgrade these tests say which private part changed, which of
the app's modules relies on it, and why, rather than a screen that stays blank or a palette
that speaks English.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import inspect
import textwrap
from pathlib import Path

import pytest

from app.textual_private import PRIVATE, Private

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app"


def resolve(entry: Private) -> tuple[type, str]:
    module, _, path = entry.target.partition(":")
    owner_name, name = path.split(".")
    return getattr(importlib.import_module(module), owner_name), name


def told(entry: Private, what: str) -> str:
    return (
        f"{entry.target} {what}. {entry.where} uses it ({entry.use}): {entry.why}. Compare "
        f"with the new Textual, bring {entry.where.split()[0]} up to date, then its entry in "
        "app/textual_private.py."
    )


def defined(owner: type, name: str) -> bool:
    """Whether a class (or one it derives from) has the name: as a class attribute, an
    annotation, or an attribute its methods set on `self`."""
    for cls in owner.__mro__:
        if name in vars(cls) or name in getattr(cls, "__annotations__", {}):
            return True
        try:
            source = inspect.getsource(cls)
        except (OSError, TypeError):
            continue
        if f"self.{name} =" in source or f"self.{name}:" in source:
            return True
    return False


def source_digest(owner: type, name: str) -> str:
    member = inspect.getattr_static(owner, name)
    code = member.fget if isinstance(member, property) else member
    source = textwrap.dedent(inspect.getsource(code))
    return hashlib.sha256(source.encode()).hexdigest()[:16]


@pytest.mark.parametrize("entry", PRIVATE, ids=[entry.target for entry in PRIVATE])
def test_each_private_part_the_app_uses_is_still_there(entry):
    if entry.use == "module":
        try:
            importlib.import_module(entry.target)
        except ImportError:
            pytest.fail(told(entry, "can no longer be imported"))
        return
    owner, name = resolve(entry)
    assert defined(owner, name), told(entry, "is gone")


@pytest.mark.parametrize(
    "entry",
    [entry for entry in PRIVATE if entry.source is not None],
    ids=[entry.target for entry in PRIVATE if entry.source is not None],
)
def test_the_code_the_app_repeats_or_relies_on_is_unchanged(entry):
    owner, name = resolve(entry)
    assert source_digest(owner, name) == entry.source, told(entry, "has changed")


def test_every_override_of_a_private_method_is_listed():
    """A method of the app named like a private method of its Textual base class is an
    override of Textual's private parts: it must be in the list, with its reason."""
    listed = {entry.target.rpartition(".")[2] for entry in PRIVATE if entry.use != "module"}
    found = []
    for path in sorted(APP.rglob("*.py")):
        if path.name == "__main__.py":
            continue  # (runs the program)
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for cls in vars(importlib.import_module(module)).values():
            if not inspect.isclass(cls) or cls.__module__ != module:
                continue
            bases = [base for base in cls.__mro__[1:] if base.__module__.startswith("textual")]
            for name, member in vars(cls).items():
                if not (inspect.isfunction(member) or isinstance(member, property)):
                    continue  # (what Textual's metaclass sets on each class)
                private = name.startswith("_") and not name.startswith("__")
                if private and name not in listed and any(name in vars(b) for b in bases):
                    found.append(f"{module}.{cls.__name__}.{name}")
    assert found == []


def imported_modules(tree: ast.AST) -> list[str]:
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def test_the_app_imports_no_private_module_of_textual():
    private = []
    for path in sorted(APP.rglob("*.py")):
        for name in imported_modules(ast.parse(path.read_text(encoding="utf-8"))):
            parts = name.split(".")
            if parts[0] in ("textual", "textual_serve") and any(
                part.startswith("_") for part in parts[1:]
            ):
                private.append(f"{path.relative_to(ROOT)}: {name}")
    assert private == []


def test_textuals_private_names_are_read_only_in_app_textual_private():
    """What the app reads or calls of Textual's private parts goes through one module (the
    overrides, written in their subclasses, are listed there)."""
    names = {
        entry.target.partition(":")[2].split(".")[1]
        for entry in PRIVATE
        if entry.use in ("call", "attribute") and entry.target.startswith("textual.")
    }
    used = []
    for path in sorted(APP.rglob("*.py")):
        if path.name == "textual_private.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in names:
                used.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.attr}")
    assert used == []


def test_a_message_taken_out_of_the_queue_to_look_at_is_still_waiting():
    """Textual's loop takes the next message out of a pump's queue to see whether it replaces
    the one in hand, and runs the pump's idle handlers before handling it: a screen shown
    again had its idle while its `ScreenResume` sat there, with an empty queue."""
    from textual import events
    from textual.message_pump import MessagePump

    from app.textual_private import messages_waiting

    pump = MessagePump()
    assert not messages_waiting(pump)
    pump._message_queue.put_nowait(events.ScreenResume())
    assert messages_waiting(pump)
    assert pump._peek_message() is not None  # (what the loop does)
    assert pump._message_queue.empty()
    assert messages_waiting(pump)
