#!/usr/bin/env python3
"""Opens N keep-alive connections to scamcheckd, sends one GET /health on
each, reads the answer and then keeps them open and idle. Prints "ready N"
once all are open; on SIGTERM prints "still open M" (how many the server
kept) and exits.

  idle_connections.py PORT N
"""
import signal
import socket
import sys


def main():
    port, count = int(sys.argv[1]), int(sys.argv[2])
    conns = []
    request = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        s.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data or not data.rstrip().endswith(b"}"):
            chunk = s.recv(4096)
            if not chunk:
                raise SystemExit("connection closed by the server")
            data += chunk
        conns.append(s)
    print(f"ready {len(conns)}", flush=True)

    def report(*_):
        alive = 0
        for s in conns:
            s.setblocking(False)
            try:
                if s.recv(1) != b"":
                    alive += 1  # unexpected data, but open
            except BlockingIOError:
                alive += 1  # nothing to read: still open
            except OSError:
                pass
        print(f"still open {alive}", flush=True)
        sys.exit(0)

    signal.signal(signal.SIGTERM, report)
    while True:
        signal.pause()

if __name__ == "__main__":
    main()
