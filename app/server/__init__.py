"""`cubilete server`: the one authority over shared tables (no Textual here).

- `protocol.py`: the messages (pydantic models, newline-delimited JSON) and their version;
- `identity.py`: who a connection is (SO_PEERCRED on the Unix socket, a front end's word and
  the shared secret on TCP, a guest's seat token);
- `limits.py`: what one connection may ask, and the token bucket;
- `core.py`: the tables, who sits and watches where, and the interface the table host layer
  implements (`TableHosting`);
- `transport.py`: the listeners (Unix socket, TCP) and each connection's reading;
- `client.py`: a client of the protocol (`cubilete tables`, tests).
"""
