#!/usr/bin/env python3
"""A loopback HTTP server for cachectl's fetch tests. Prints its port on the first line.

Routes (GET):
  /files/NAME            bytes of NAME under --root, with ETag and Last-Modified; honours
                         If-None-Match / If-Modified-Since (304). ?cc=VALUE sets Cache-Control,
                         ?expires=SECONDS sets Expires relative to now, ?age=N sets Age,
                         ?type=VALUE sets Content-Type. ?coding=C sends the body coded
                         whatever the request accepts: gzip, deflate (zlib-wrapped),
                         rawdeflate (sent as deflate), gzip2 (two gzip members), gzipcut
                         (the gzip data cut in half, its length declared), br (sent as is).
                         ?transfer=T codes it for the transfer instead (no Content-Length):
                         gzip (`Transfer-Encoding: gzip, chunked`, several chunks), gzipclose
                         (`gzip`, delimited by the end of the connection), gzipgzip (a
                         gzip-coded body, `Content-Encoding: gzip`, coded again for the
                         transfer), br (`br, chunked`, the body as is)
  /redirect/N/NAME       302 to /redirect/N-1/NAME ... then /files/NAME (a request with
                         If-None-Match or If-Modified-Since is also logged as
                         `Conditional: PATH`)
  /loop                  302 to itself
  /slow/NAME             headers and half the body, then a pause of ?pause=SECONDS (default
                         30), then the rest
  /truncated/NAME        Content-Length of the whole body, half of it sent, connection closed
  /flaky/NAME            the first request for the path: as /truncated/; later ones as /files/
                         (a Range request is logged as `Range: VALUE If-Range: VALUE PATH`;
                         ?resume=416 answers a Range request 416, ?resume=wrong with a 206
                         from byte 0)
  /big?size=N            N bytes (no Content-Length when &chunked=1: streamed until done)
  /hang                  accepts and never answers
  /status/CODE           that status, empty body
  /echo-headers          the request's header fields as the body, one `name: value` a line
                         (every field as received, repeated ones too); max-age=60
  /seq?r=JSON            replays a script: a JSON list of responses [status, {header: value},
                         body]; the n-th request for the same full path gets the n-th (the
                         last repeats). `{date:N}` in a header value is the HTTP-date of now
                         plus N seconds.
  /test/page.html?p=NAME NAME under --root (a corpus page where it was saved from); any other
                         path ending in an image extension is a small PNG, in .css (or
                         /load.php, MediaWiki's) a
                         stylesheet giving <html> a background image (max-age=3600)
  /__requests            JSON list of every request path seen so far (not counted)

As a proxy: a request in absolute form (`GET http://host/path`) is logged as written and
answered by the route of its path; `CONNECT host:port` is logged as `CONNECT host:port` and
tunnels to that address. With --tls CERT KEY the server speaks HTTPS.
"""
import argparse, gzip, re, struct, zlib, email.utils, hashlib, json, os, select, socket, ssl, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, parse_qs

def coded(body, how):
    """The body coded as `how` (see ?coding=), and the Content-Encoding to send with it."""
    if how == "gzip":
        return gzip.compress(body), "gzip"
    if how == "gzip2":
        half = len(body) // 2
        return gzip.compress(body[:half]) + gzip.compress(body[half:]), "gzip"
    if how == "gzipcut":
        data = gzip.compress(body)
        return data[:len(data) // 2], "gzip"
    if how == "deflate":
        return zlib.compress(body), "deflate"
    if how == "rawdeflate":
        c = zlib.compressobj(wbits=-15)
        return c.compress(body) + c.flush(), "deflate"
    return body, how

def _png(width=6, height=4):
    raw = b"".join(b"\x00" + b"\xd0\x40\x20" * width for _ in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


PNG = _png()
LOG = []
SEQ = {}
LOCK = threading.Lock()
DATE = re.compile(r"\{date:([+-]?\d+)\}")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_body(self, code, body, headers=()):
        self.send_response(code)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def send_transfer_coded(self, body, headers, how):
        """200 with the body coded for the transfer (see ?transfer=)."""
        if how == "gzipgzip":
            headers = headers + [("Content-Encoding", "gzip")]
            body = gzip.compress(body)
        coding = "br" if how == "br" else "gzip"
        data = body if how == "br" else gzip.compress(body)
        self.send_response(200)
        for name, value in headers:
            self.send_header(name, value)
        if how == "gzipclose":
            self.send_header("Transfer-Encoding", "gzip")
            self.end_headers()
            self.wfile.write(data)
            self.close_connection = True
            return
        self.send_header("Transfer-Encoding", coding + ", chunked")
        self.end_headers()
        step = max(1, len(data) // 3)
        for start in range(0, len(data), step):
            piece = data[start:start + step]
            self.wfile.write(b"%x\r\n" % len(piece) + piece + b"\r\n")
        self.wfile.write(b"0\r\n\r\n")

    def file(self, name):
        path = os.path.join(self.server.root, os.path.basename(name))
        with open(path, "rb") as f:
            return f.read(), os.stat(path).st_mtime

    def do_CONNECT(self):
        with LOCK:
            LOG.append("CONNECT " + self.path)
        host, _, port = self.path.rpartition(":")
        try:
            upstream = socket.create_connection((host.strip("[]"), int(port)), timeout=10)
        except OSError:
            return self.send_body(502, b"cannot connect")
        self.send_response(200, "Connection established")
        self.end_headers()
        self.wfile.flush()
        peers = [self.connection, upstream]
        try:
            while True:
                readable, _, _ = select.select(peers, [], [], 30)
                if not readable:
                    break
                for sock in readable:
                    data = sock.recv(65536)
                    if not data:
                        return
                    (upstream if sock is self.connection else self.connection).sendall(data)
        except OSError:
            return
        finally:
            upstream.close()
            self.close_connection = True

    def do_GET(self):
        if self.path.startswith("http://") or self.path.startswith("https://"):
            # Absolute form: a proxy request. Logged as written, answered by its path.
            with LOCK:
                LOG.append(self.path)
            self.path = "/" + self.path.split("/", 3)[3] if self.path.count("/") >= 3 else "/"
            self.proxied = True
        parts = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        path = parts.path
        if path == "/__requests":
            with LOCK:
                data = json.dumps(LOG).encode()
            return self.send_body(200, data, [("Content-Type", "application/json")])
        if not getattr(self, "proxied", False):
            with LOCK:
                LOG.append(self.path)
        self.proxied = False
        try:
            if path.startswith("/flaky/"):
                with LOCK:
                    n = SEQ.get(self.path, 0)
                    SEQ[self.path] = n + 1
                if n == 0:
                    path = "/truncated/" + path[len("/flaky/"):]
                else:
                    path = "/files/" + path[len("/flaky/"):]
            if path.startswith("/redirect/") and (self.headers.get("If-None-Match") or self.headers.get("If-Modified-Since")):
                with LOCK:
                    LOG.append("Conditional: %s" % self.path)
            if self.headers.get("Range"):
                with LOCK:
                    LOG.append("Range: %s If-Range: %s %s" % (self.headers.get("Range"), self.headers.get("If-Range"), self.path))
            if path.startswith("/files/"):
                body, mtime = self.file(path[len("/files/"):])
                etag = '"%s"' % hashlib.sha1(body).hexdigest()[:16]
                modified = email.utils.formatdate(mtime, usegmt=True)
                headers = [("ETag", etag), ("Last-Modified", modified), ("Date", email.utils.formatdate(usegmt=True))]
                if "cc" in query:
                    headers.append(("Cache-Control", query["cc"]))
                if "expires" in query:
                    headers.append(("Expires", email.utils.formatdate(time.time() + float(query["expires"]), usegmt=True)))
                if "age" in query:
                    headers.append(("Age", query["age"]))
                if "type" in query:
                    headers.append(("Content-Type", query["type"]))
                if "coding" in query:
                    body, coding = coded(body, query["coding"])
                    headers.append(("Content-Encoding", coding))
                inm = self.headers.get("If-None-Match")
                ims = self.headers.get("If-Modified-Since")
                if (inm and inm == etag) or (not inm and ims and ims == modified):
                    self.send_response(304)
                    for h in headers:
                        self.send_header(*h)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                rng = self.headers.get("Range", "")
                if_range = self.headers.get("If-Range")
                if rng and query.get("resume") == "416":
                    return self.send_body(416, b"", [("Content-Range", "bytes */%d" % len(body))])
                if rng and query.get("resume") == "wrong":
                    return self.send_body(206, body, headers + [("Content-Range", "bytes 0-%d/%d" % (len(body) - 1, len(body)))])
                if rng.startswith("bytes=") and rng.endswith("-") and (if_range is None or if_range in (etag, modified)):
                    start = int(rng[6:-1])
                    if start >= len(body):
                        return self.send_body(416, b"", [("Content-Range", "bytes */%d" % len(body))])
                    return self.send_body(206, body[start:], headers + [("Content-Range", "bytes %d-%d/%d" % (start, len(body) - 1, len(body)))])
                if "transfer" in query:
                    return self.send_transfer_coded(body, headers, query["transfer"])
                return self.send_body(200, body, headers)
            if path == "/seq":
                script = json.loads(query["r"])
                with LOCK:
                    n = SEQ.get(self.path, 0)
                    SEQ[self.path] = n + 1
                status, headers, body = script[min(n, len(script) - 1)]
                values = [(k, DATE.sub(lambda m: email.utils.formatdate(time.time() + int(m.group(1)), usegmt=True), v))
                          for k, v in headers.items()]
                # The script's Date, when it has one, is the only one (send_response adds
                # the current date).
                if not any(k.lower() == "date" for k, _ in values):
                    values.append(("Date", email.utils.formatdate(usegmt=True)))
                self.send_response_only(status)
                for h in values:
                    self.send_header(*h)
                if status != 304:
                    self.send_header("Content-Length", str(len(body.encode())))
                self.end_headers()
                if status != 304:
                    self.wfile.write(body.encode())
                return
            if path.startswith("/redirect/"):
                _, _, n, name = path.split("/", 3)
                target = "/files/%s" % name if int(n) <= 1 else "/redirect/%d/%s" % (int(n) - 1, name)
                return self.send_body(302, b"", [("Location", target)])
            if path == "/loop":
                return self.send_body(302, b"", [("Location", "/loop")])
            if path.startswith("/slow/") or path.startswith("/truncated/"):
                body, mtime = self.file(path.split("/", 2)[2])
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                if "validators" in query or self.path.startswith("/flaky/"):
                    self.send_header("ETag", '"%s"' % hashlib.sha1(body).hexdigest()[:16])
                    self.send_header("Last-Modified", email.utils.formatdate(mtime, usegmt=True))
                self.end_headers()
                half = len(body) // 2
                self.wfile.write(body[:half])
                self.wfile.flush()
                if path.startswith("/truncated/"):
                    self.close_connection = True
                    return
                time.sleep(float(query.get("pause", "30")))
                self.wfile.write(body[half:])
                return
            if path == "/big":
                size = int(query["size"])
                self.send_response(200)
                chunked = query.get("chunked") == "1"
                if chunked:
                    self.send_header("Transfer-Encoding", "chunked")
                else:
                    self.send_header("Content-Length", str(size))
                self.end_headers()
                block = b"x" * 65536
                sent = 0
                while sent < size:
                    n = min(len(block), size - sent)
                    if chunked:
                        self.wfile.write(b"%x\r\n" % n + block[:n] + b"\r\n")
                    else:
                        self.wfile.write(block[:n])
                    sent += n
                if chunked:
                    self.wfile.write(b"0\r\n\r\n")
                return
            if path == "/hang":
                time.sleep(600)
                return
            if path == "/test/page.html" and "p" in query:
                body, _ = self.file(query["p"])
                return self.send_body(200, body, [("Content-Type", "text/html"), ("Cache-Control", "max-age=3600")])
            if re.search(r"\.(png|jpe?g|gif|webp|svg|ico)$", path, re.I) and not path.startswith("/files/"):
                return self.send_body(200, PNG, [("Content-Type", "image/png"), ("Cache-Control", "max-age=3600")])
            if (re.search(r"\.css$", path, re.I) or path.endswith("/load.php")) and not path.startswith("/files/"):
                css = b"html { background-image: url(/__background.png) }\n"
                return self.send_body(200, css, [("Content-Type", "text/css"), ("Cache-Control", "max-age=3600")])
            if path.startswith("/status/"):
                return self.send_body(int(path.split("/")[2]), b"")
            if path == "/echo-headers":
                lines = "".join("%s: %s\n" % (k, v) for k, v in self.headers.items())
                return self.send_body(200, lines.encode(), [("Cache-Control", "max-age=60")])
            return self.send_body(404, b"not found")
        except FileNotFoundError:
            return self.send_body(404, b"not found")
        except (BrokenPipeError, ConnectionResetError):
            return


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    ap.add_argument("--host", default="127.0.0.1", help="the loopback address to listen on")
    args = ap.parse_args()
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    if args.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls[0], args.tls[1])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    server.daemon_threads = True
    server.root = args.root
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
