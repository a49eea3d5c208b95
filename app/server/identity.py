"""Who is at the other end of a connection.

- On the Unix socket the kernel says it: the peer's user id from `SO_PEERCRED`, named by the
  password database. A client cannot claim another name there: a hello that names a user, a
  guest or a secret is refused.
- On TCP the peer is a front end (the web server, another machine's `cubilete`) that proves
  itself with the server's shared secret and asserts who the person is: a user it
  authenticated (`Hello.user`), or a guest (`Hello.guest`, a name of their choosing). A guest
  owns a seat only through the seat's secret token (`Joined.token`), which their tab keeps.
  Another server on the same database relays its own people as what they are there: a Unix
  user stays one (`Hello.unix`), never a front end's user of the same name.
"""

from __future__ import annotations

import hmac
import os
import pwd
import re
import secrets
import socket
import stat
import struct
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from rules import N_, Text

from .protocol import MAX_NAME_CHARS, Hello

IdentityKind = Literal["unix", "user", "guest"]

USER_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._@-]{0,63}")
"""A user name a front end may assert (a login name, an e-mail address)."""
MIN_SECRET_CHARS = 16
SECRET_ENVIRONMENT = "CUBILETE_SERVER_SECRET"


class IdentityError(ValueError):
    """The peer cannot be told who it is: a refusal for it (`words`), and the connection ends."""

    def __init__(self, words: Text) -> None:
        super().__init__(str(words))
        self.words = words


class WrongSecret(IdentityError):
    """A TCP peer showed no secret, or a wrong one."""


@dataclass(frozen=True)
class Identity:
    """Who a connection speaks for. Two connections are the same person when their `key`s are
    equal: a Unix user, or a front end's user (each server-wide); a guest is only ever
    themselves (a fresh key per connection: their seat token is what brings them back)."""

    kind: IdentityKind
    name: str
    uid: int | None = None
    guest_id: str = field(default="", compare=False)
    origin: str = field(default="", compare=False)
    """Where a guest came from (`tcp 10.0.0.5`, their front end's address): the guests of one
    address share a limit of tables."""

    @property
    def key(self) -> str:
        if self.kind == "guest":
            return f"guest:{self.guest_id}"
        return f"{self.kind}:{self.name}"


def peer_uid(sock: socket.socket) -> int:
    """The user id of the process at the other end of a Unix socket (Linux `SO_PEERCRED`)."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        raise IdentityError(Text(N_("this system cannot tell who is connecting")))
    data = sock.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", data)
    return int(uid)


def unix_identity(uid: int) -> Identity:
    try:
        name = pwd.getpwuid(uid).pw_name
    except KeyError:  # a user id with no entry (a container's, a deleted user)
        name = f"uid{uid}"
    return Identity("unix", name, uid=uid)


def identify_unix(hello: Hello, uid: int) -> Identity:
    """The identity of a Unix-socket peer whose user id is `uid`: its own, whatever it says."""
    claims = (hello.user, hello.guest, hello.unix, hello.secret)
    if any(claim is not None for claim in claims):
        raise IdentityError(
            Text(N_("on this server's socket you are your own user: a name cannot be claimed"))
        )
    return unix_identity(uid)


def identify_front_end(hello: Hello, secret: bytes, origin: str = "") -> Identity:
    """The identity a TCP front end asserts, once it has shown the shared `secret` (`origin`:
    the front end's address, kept with a guest's identity)."""
    given = (hello.secret or "").encode()
    if not hmac.compare_digest(given, secret):
        raise WrongSecret(Text(N_("wrong or missing server secret")))
    if [hello.user, hello.guest, hello.unix].count(None) != 2:
        raise IdentityError(Text(N_("say who plays: a user or a guest name, one of them")))
    named: list[tuple[IdentityKind, str | None]] = [("user", hello.user), ("unix", hello.unix)]
    for kind, name in named:
        if name is not None:
            if not USER_NAME.fullmatch(name):
                raise IdentityError(Text(N_("{name!r} is not a user name"), {"name": name}))
            return Identity(kind, name)
    assert hello.guest is not None
    return Identity("guest", guest_name(hello.guest), guest_id=secrets.token_hex(8), origin=origin)


NAME_MARKS = " .-_'"
"""What a name may hold beside letters and digits."""
NAME_RULE = N_("a name has 1 to {most} characters: letters, digits, spaces and . - _ '")


def guest_name(name: str) -> str:
    """A name as shown: one line of letters (of any alphabet, accents included), digits,
    spaces and `.-_'`, its runs of spaces made one and trimmed. Refused (`NAME_RULE`) if it
    is empty, too long, or holds anything else: a newline, a tab, a control character."""
    if any(unicodedata.category(character).startswith("C") for character in name):
        raise IdentityError(Text(NAME_RULE, {"most": MAX_NAME_CHARS}))
    name = unicodedata.normalize("NFC", " ".join(name.split()))
    if not 1 <= len(name) <= MAX_NAME_CHARS or not all(
        character.isalnum() or character in NAME_MARKS for character in name
    ):
        raise IdentityError(Text(NAME_RULE, {"most": MAX_NAME_CHARS}))
    return name


def seat_token() -> str:
    """A seat's secret: whoever shows it gets the seat back."""
    return secrets.token_urlsafe(18)


def same_token(given: str | None, token: str | None) -> bool:
    if given is None or token is None:
        return False
    return hmac.compare_digest(given.encode(), token.encode())


class SecretError(ValueError):
    """The shared secret cannot be used; the message is one line for the admin."""


def load_secret(path: Path | None, environ: dict[str, str] | None = None) -> bytes:
    """The TCP listener's shared secret: from a file only its owner can read, else from
    `$CUBILETE_SERVER_SECRET`. At least MIN_SECRET_CHARS characters."""
    from ..i18n import tr

    environ = dict(os.environ) if environ is None else environ
    if path is not None:
        try:
            mode = path.stat().st_mode
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise SecretError(
                tr(N_("cannot read the secret file {path}: {error}"), path=path, error=error)
            ) from None
        if stat.S_IMODE(mode) & 0o077:
            raise SecretError(
                tr(
                    N_("the secret file {path} can be read by others: chmod 600 it"),
                    path=path,
                )
            )
    else:
        text = environ.get(SECRET_ENVIRONMENT, "")
        if not text:
            raise SecretError(
                tr(
                    N_("--listen needs a shared secret: --secret-file PATH or ${variable}"),
                    variable=SECRET_ENVIRONMENT,
                )
            )
    secret = text.strip()
    if len(secret) < MIN_SECRET_CHARS:
        raise SecretError(
            tr(N_("the shared secret needs at least {n} characters"), n=MIN_SECRET_CHARS)
        )
    return secret.encode()
