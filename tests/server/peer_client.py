"""A client of `cubilete server` run as its own process (as another Unix user, by the tests):
`python3 peer_client.py SOCKET VERSION REQUESTS_JSON`. It says hello, sends each request in
turn and writes every answer to stdout as one JSON line (the welcome first). The standard
library only: the other user runs it with the system's Python."""

from __future__ import annotations

import json
import socket
import sys


def main(path: str, version: int, requests: list[dict[str, object]]) -> int:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(10)
        sock.connect(path)
        reader = sock.makefile("rb")
        for number, request in enumerate(
            [{"type": "hello", "version": version}, *requests], start=1
        ):
            sock.sendall(json.dumps({**request, "ref": number}).encode() + b"\n")
            while True:  # skip the events of a table, up to the answer
                line = reader.readline()
                if not line:
                    return 0
                answer = json.loads(line)
                if answer.get("ref") == number:
                    sys.stdout.write(json.dumps(answer) + "\n")
                    break
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])))
