"""One user flooding `cubilete server` (run as another Unix user by the tests):
`python3 flood_client.py SOCKET VERSION MOST`.

It opens connections, each saying hello, until the server refuses one (or MOST are open),
asks on each for the list of tables forty times and never reads an answer, and writes
`{"accepted": N, "refusal": {...}}` as a line to stdout. Then it keeps knocking (a new
connection, a hello, the refusal read) until its stdin closes, and writes `{"knocks": N}`.
The standard library only: the other user runs it with the system's Python."""

from __future__ import annotations

import contextlib
import json
import select
import socket
import sys

MOST_KNOCKS = 1_000_000


def answer(sock: socket.socket) -> dict[str, object] | None:
    data = b""
    while b"\n" not in data:
        try:
            chunk = sock.recv(4096)
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            return None
        data += chunk
    return json.loads(data.partition(b"\n")[0])


def knock(path: str, hello: bytes) -> tuple[socket.socket, dict[str, object] | None]:
    """A new connection and its hello; the server's answer (None: it hung up unheard)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(10)
    sock.connect(path)
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # (refused at once)
        sock.sendall(hello)
    return sock, answer(sock)


def main(path: str, version: int, most: int) -> int:
    hello = json.dumps({"type": "hello", "version": version, "client": "flood", "ref": 1})
    hello_line = hello.encode() + b"\n"
    held: list[socket.socket] = []
    refusal = None
    while len(held) < most:
        sock, said = knock(path, hello_line)
        if said is None or said.get("type") != "welcome":
            refusal = said
            sock.close()
            break
        held.append(sock)
    for sock in held:  # never read what comes back
        sock.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            sock.send(b'{"type":"list_tables"}\n' * 40)
    sys.stdout.write(json.dumps({"accepted": len(held), "refusal": refusal}) + "\n")
    sys.stdout.flush()
    knocks = 0
    while knocks < MOST_KNOCKS and not select.select([sys.stdin], [], [], 0)[0]:
        sock, _said = knock(path, hello_line)
        sock.close()
        knocks += 1
    sys.stdout.write(json.dumps({"knocks": knocks}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
