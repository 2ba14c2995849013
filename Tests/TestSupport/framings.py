#!/usr/bin/env python3
"""A loopback HTTP/1.1 server written on raw sockets, for what the threaded http.server
cannot say: each framing of a response body, informational responses, a kept-alive
connection closed while idle, a cut body, a malformed status line. Every connection's
requests are logged, in order; GET /__connections answers them as JSON (a list per
connection, this request left out).

Routes (any other path: 200, the path as the body, Content-Length, kept alive):
  /chunked/NAME   the body "chunked NAME" in three chunks, with a trailer
  /close/NAME     "closed NAME" delimited by the end of the connection (no length)
  /continue/NAME  a 100 Continue, then 200 "continued NAME"
  /once/NAME      200 "once NAME", then the connection is closed as if idle too long
  /cut            Content-Length 100, 10 bytes, then the end of the connection
  /notify/NAME    (with --tls) 200 "notify NAME", then TLS's close_notify, the TCP connection
                  left open
  /garbage        a status line that is not HTTP
  /upgrade        101 Switching Protocols (asked for by no request), then bytes of no HTTP
  /lf/NAME        200 "lf NAME", every line of its head ended by LF alone (max-age=600)
  /lfcontinue/NAME  a 100 Continue and then 200 "lfcontinue NAME", both heads' lines ended
                  by LF alone
  /locate/HEX     302 whose Location is the bytes HEX spells (not necessarily UTF-8)
  /fold/NAME      200 "fold NAME" whose Cache-Control and Content-Type are folded over two
                  lines each (obs-fold, a tab and a space): `public, max-age=600` and
                  `text/plain; charset=utf-8`
  /unasked        200 "unasked" and, in the same send, a second response no request asked for
  /extra/NAME     200 "extra NAME" (Content-Length), then, 200 ms later, bytes that belong to
                  no response; the connection stays open
  /endless/KIND   a response that never gets to a body: KIND continue (100 Continue heads
                  without end), status (a status line without end) or extension (a chunk
                  whose extension has no end); sent until the client stops reading, at most
                  64 MiB, then the connection is closed
"""
import argparse, json, socket, ssl, sys, threading, time

LOCK = threading.Lock()
CONNECTIONS = []


def response(status, body, headers=()):
    head = "HTTP/1.1 %s\r\n" % status + "".join("%s: %s\r\n" % h for h in headers)
    return head.encode() + b"\r\n" + body


def answer(path):
    """The bytes to send, and whether to close the connection after them."""
    name = path.split("/")[-1]
    if path.startswith("/chunked/"):
        body = ("chunked " + name).encode()
        chunks = [body[:3], body[3:5], body[5:]]
        data = b"".join(b"%x;ext=1\r\n%s\r\n" % (len(c), c) for c in chunks) + b"0\r\nX-Trailer: t\r\n\r\n"
        return response("200 OK", data, [("Transfer-Encoding", "chunked"), ("Cache-Control", "max-age=600")]), False
    if path.startswith("/close/"):
        return response("200 OK", ("closed " + name).encode(), [("Connection", "close"), ("Cache-Control", "max-age=600")]), True
    if path.startswith("/continue/"):
        body = ("continued " + name).encode()
        return b"HTTP/1.1 100 Continue\r\n\r\n" + response(
            "200 OK", body, [("Content-Length", len(body)), ("Cache-Control", "max-age=600")]), False
    if path.startswith("/once/"):
        body = ("once " + name).encode()
        return response("200 OK", body, [("Content-Length", len(body)), ("Cache-Control", "max-age=600")]), True
    if path.startswith("/notify/"):
        body = ("notify " + name).encode()
        return response("200 OK", body, [("Content-Length", len(body)), ("Cache-Control", "max-age=600")]), "notify"
    if path.startswith("/extra/"):
        body = ("extra " + name).encode()
        return response("200 OK", body, [("Content-Length", len(body)), ("Cache-Control", "max-age=600")]), False
    if path.startswith("/lf/") or path.startswith("/lfcontinue/"):
        body = (path.split("/")[1] + " " + name).encode()
        head = response("200 OK", body, [("Content-Length", len(body)), ("Cache-Control", "max-age=600")])
        if path.startswith("/lfcontinue/"):
            head = b"HTTP/1.1 100 Continue\r\n\r\n" + head
        split = head.index(b"\r\n\r\n") + 4
        return head[:split].replace(b"\r\n", b"\n") + head[split:], False
    if path.startswith("/locate/"):
        return response("302 Found", b"", [("Content-Length", 0)]).replace(
            b"\r\n\r\n", b"\r\nLocation: " + bytes.fromhex(name) + b"\r\n\r\n", 1), False
    if path.startswith("/fold/"):
        body = ("fold " + name).encode()
        return (b"HTTP/1.1 200 OK\r\nCache-Control: public,\r\n\tmax-age=600\r\nContent-Type: text/plain;\r\n"
                b" charset=utf-8\r\nContent-Length: %d\r\n\r\n" % len(body) + body), False
    if path == "/cut":
        return response("200 OK", b"0123456789", [("Content-Length", 100)]), True
    if path == "/unasked":
        return response("200 OK", b"unasked", [("Content-Length", 7)]) * 2, False
    if path == "/upgrade":
        return b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\nhi", True
    if path == "/garbage":
        return b"SPDY/9 what\r\n\r\n", True
    body = path.encode()
    return response("200 OK", body, [("Content-Length", len(body)), ("Cache-Control", "max-age=600")]), False


ENDLESS = {
    "continue": (b"", b"HTTP/1.1 100 Continue\r\n\r\n" * 2048),
    "status": (b"HTTP/1.1 200 ", b"a" * 65536),
    "extension": (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;x=", b"a" * 65536),
}


def endless(conn, kind):
    """Sends KIND's endless response until the client stops reading or 64 MiB have gone."""
    first, repeated = ENDLESS[kind]
    sent = 0
    try:
        conn.sendall(first)
        while sent < 64 << 20:
            conn.sendall(repeated)
            sent += len(repeated)
    except OSError:
        pass  # the client stopped reading


def serve(conn):
    with LOCK:
        mine = []
        CONNECTIONS.append(mine)
    data = b""
    try:
        while True:
            while b"\r\n\r\n" not in data:
                more = conn.recv(65536)
                if not more:
                    return
                data += more
            head, data = data.split(b"\r\n\r\n", 1)
            path = head.split(b"\r\n")[0].split(b" ")[1].decode()
            if path == "/__connections":
                with LOCK:
                    CONNECTIONS.remove(mine)
                    body = json.dumps(CONNECTIONS).encode()
                conn.sendall(response("200 OK", body, [("Content-Length", len(body)), ("Connection", "close")]))
                return
            with LOCK:
                mine.append(path)
            if path.startswith("/endless/"):
                return endless(conn, path.split("/")[-1])
            out, close = answer(path)
            conn.sendall(out)
            if path.startswith("/extra/"):
                time.sleep(0.2)
                conn.sendall(b"junk after the response\r\n")
            if close == "notify":
                conn.unwrap()  # close_notify; the TCP connection stays open, idle
                time.sleep(60)
                return
            if close:
                return
    finally:
        conn.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root")
    ap.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    args = ap.parse_args()
    context = None
    if args.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls[0], args.tls[1])
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    print(listener.getsockname()[1], flush=True)
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=start, args=(conn, context), daemon=True).start()


def start(conn, context):
    if context:
        try:
            conn = context.wrap_socket(conn, server_side=True)
        except (ssl.SSLError, OSError):
            return conn.close()
    serve(conn)


if __name__ == "__main__":
    main()
