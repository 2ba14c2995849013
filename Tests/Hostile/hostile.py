#!/usr/bin/env python3
"""The hostile suite: cachectl's deletion promise tried as a hostile user and a busy machine would.

Each scenario attacks the built binary with real processes on real file systems (symlink swaps
mid-run, bind mounts and tmpfs in a private mount namespace, concurrent writers, SIGKILL, a full
disk, a read-only mount, a tag planted by another user) and checks afterwards that

  - a checksum of everything outside the cache root is unchanged, and
  - the store is consistent: every row's body exists with the recorded size and SHA-256.

Every scenario runs twice: with openat2 (the kernel's RESOLVE_BENEATH) and with the fallback
that resolves component by component (CACHECTL_TEST_NO_OPENAT2=1, debug builds only).

    hostile.py SCENARIO --bin PATH [--trials N]

Prints one JSON object: {"scenario", "trials", "violations": [...], "notes": [...]}; exits 0
when there is no violation, 1 when there is one, 77 when the scenario cannot run here (not root).
Deterministic interleavings stop the binary at a named moment (CACHECTL_STOP_AT, debug builds:
it raises SIGSTOP there), change the world, and resume it with SIGCONT.
"""
import argparse
import hashlib
import http.server
import json
import os
import random
import shutil
import signal
import socketserver
import sqlite3
import stat
import subprocess
import sys
import tempfile
import threading
import time

MODES = {"openat2": {}, "fallback": {"CACHECTL_TEST_NO_OPENAT2": "1"}}
TAG = b"Signature: 8a477f597d28d172789f06886806bc55\n# test tag\n"
OLD = time.time() - 10 * 86400


class Suite:
    def __init__(self, binary, trials):
        self.bin = binary
        self.trials = trials
        self.violations = []
        self.notes = []
        self.count = 0
        self.base = tempfile.mkdtemp(prefix="cachectl-hostile-")
        os.chmod(self.base, 0o755)

    # -- running the binary -------------------------------------------------------------

    def env(self, mode, extra=None):
        env = dict(os.environ)
        for key in ("CACHECTL_TEST_NO_OPENAT2", "CACHECTL_STOP_AT", "CACHECTL_CRASH_AT"):
            env.pop(key, None)
        env.update(MODES[mode])
        env["HOME"] = self.base
        env["XDG_CACHE_HOME"] = os.path.join(self.base, "xdg-cache")
        if extra:
            env.update(extra)
        return env

    def run(self, mode, args, cwd=None, extra=None, stdin=None):
        return subprocess.run([self.bin] + args, env=self.env(mode, extra), cwd=cwd, capture_output=True, input=stdin)

    def spawn(self, mode, args, cwd=None, extra=None):
        return subprocess.Popen([self.bin] + args, env=self.env(mode, extra), cwd=cwd,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def run_stopped(self, mode, args, point, action, cwd=None):
        """Runs the binary until it stops itself at `point`, runs `action`, resumes it; returns
        (exit status, stdout, stderr, whether it did stop there)."""
        # Output to files, not pipes: a stopped reader would block a writer with much to say.
        out_file, err_file = tempfile.TemporaryFile(), tempfile.TemporaryFile()
        proc = subprocess.Popen([self.bin] + args, env=self.env(mode, {"CACHECTL_STOP_AT": point}), cwd=cwd,
                                stdout=out_file, stderr=err_file)
        stopped = False
        while True:
            pid, status = os.waitpid(proc.pid, os.WUNTRACED)
            if os.WIFSTOPPED(status):
                stopped = True
                action()
                os.kill(proc.pid, signal.SIGCONT)
                continue
            code = os.waitstatus_to_exitcode(status)
            proc.returncode = code
            out_file.seek(0)
            err_file.seek(0)
            return code, out_file.read(), err_file.read(), stopped

    # -- checks ---------------------------------------------------------------------------

    def violation(self, mode, what):
        self.violations.append(f"[{mode}] {what}")

    @staticmethod
    def digest(path):
        """Every name below `path` (symlinks not followed) with its type, size and content hash."""
        out = {}
        if not os.path.lexists(path):
            return out
        for directory, dirs, files in os.walk(path):
            for name in dirs + files:
                full = os.path.join(directory, name)
                st = os.lstat(full)
                rel = os.path.relpath(full, path)
                if stat.S_ISLNK(st.st_mode):
                    out[rel] = ("link", os.readlink(full))
                elif stat.S_ISREG(st.st_mode):
                    with open(full, "rb") as f:
                        out[rel] = ("file", st.st_size, hashlib.sha256(f.read()).hexdigest())
                elif stat.S_ISDIR(st.st_mode):
                    out[rel] = ("dir",)
                else:
                    out[rel] = ("other", st.st_mode)
        return out

    def check_unchanged(self, mode, label, path, before):
        after = self.digest(path)
        if after != before:
            lost = sorted(set(before) - set(after))
            changed = sorted(k for k in before if k in after and before[k] != after[k])
            self.violation(mode, f"{label}: outside the cache changed: {len(lost)} of {len(before)} names gone "
                                 f"({lost[:3]}), {len(changed)} changed")
            return False
        return True

    @staticmethod
    def store_problems(root):
        """Rows whose body is missing or does not match the recorded size and SHA-256."""
        index = os.path.join(root, "index.sqlite")
        if not os.path.exists(index):
            return ["no index"]
        problems = []
        query = "SELECT url, body_path, apparent_bytes, sha256 FROM entries WHERE download_completed IS NOT NULL"
        rows = None
        # As cachectl reads a full disk: shared memory first, else the WAL index in memory.
        for exclusive in (False, True):
            db = sqlite3.connect(f"file:{index}?mode=ro", uri=True, timeout=30)
            try:
                if exclusive:
                    db.execute("PRAGMA locking_mode = EXCLUSIVE")
                rows = db.execute(query).fetchall()
                break
            except sqlite3.Error as error:
                last = error
            finally:
                db.close()
        if rows is None:
            return [f"index unreadable: {last}"]
        for url, body, size, sha in rows:
            path = os.path.join(root, body)
            try:
                with open(path, "rb") as f:
                    data = f.read()
            except OSError as error:
                problems.append(f"{url}: body {body} missing ({error.strerror})")
                continue
            if len(data) != size or hashlib.sha256(data).hexdigest() != sha:
                problems.append(f"{url}: body {body} does not match its row")
        return problems

    def check_store(self, mode, label, root):
        problems = self.store_problems(root)
        if problems:
            self.violation(mode, f"{label}: store inconsistent: {problems[:3]} ({len(problems)} rows)")
        return not problems

    # -- fixtures -------------------------------------------------------------------------

    def fresh(self, name):
        path = os.path.join(self.base, f"{name}-{self.count}")
        self.count += 1
        os.makedirs(path)
        return path

    @staticmethod
    def files(directory, count, prefix="f", size=100, old=True, suffix=""):
        os.makedirs(directory, exist_ok=True)
        for i in range(count):
            path = os.path.join(directory, f"{prefix}{i}{suffix}")
            with open(path, "wb") as f:
                f.write(bytes([65 + i % 26]) * size)
            if old:
                os.utime(path, (OLD, OLD))

    @staticmethod
    def tag(directory):
        with open(os.path.join(directory, "CACHEDIR.TAG"), "wb") as f:
            f.write(TAG)

    def store(self, mode, root, count, size=200, old=False):
        """A native store with `count` entries (bodies written through the binary)."""
        src = os.path.join(self.base, f"body-{self.count}")
        self.count += 1
        for i in range(count):
            with open(src, "wb") as f:
                f.write(os.urandom(size))
            r = self.run(mode, ["put", f"https://x.example/{i}.png", src, "--cache", root, "--expires", "1s" if old else "7d"])
            if r.returncode != 0:
                raise RuntimeError(f"put failed: {r.stderr.decode(errors='replace')}")
        return root


# -- scenarios ----------------------------------------------------------------------------

def swap_directory(s):
    """A directory inside the cache swapped for a symlink to another folder while prune and
    clear run: deterministically (stopped once the plan is made) and free-running."""
    n = 1000
    for mode in MODES:
        for command in ("prune", "clear"):
            for layout in ("plain", "plist", "sdwebimage", "native"):
                for free_running in (False, True):
                    for trial in range(1 if not free_running else s.trials):
                        s_trial(s, mode, command, layout, free_running, n)


def s_trial(s, mode, command, layout, free_running, n):
    base = s.fresh(f"swap-{layout}")
    victim = os.path.join(base, "victim")
    if layout == "plain":
        root = os.path.join(base, "cache")
        os.makedirs(root)
        s.tag(root)
        sub = os.path.join(root, "sub")
        s.files(sub, n, suffix=".part")
    elif layout == "sdwebimage":
        root = os.path.join(base, "com.hackemist.SDImageCache")
        sub = os.path.join(root, "default")
        os.makedirs(sub)
        for i in range(n):
            with open(os.path.join(sub, hashlib.md5(f"https://x/{i}".encode()).hexdigest() + ".png"), "wb") as f:
                f.write(b"\x89PNG\r\n\x1a\n" + b"x" * 20)  # cut short: corrupted
            os.utime(os.path.join(sub, hashlib.md5(f"https://x/{i}".encode()).hexdigest() + ".png"), (OLD, OLD))
    elif layout == "plist":
        root = os.path.join(base, "dl")
        sub = os.path.join(root, "sub")
        s.files(sub, n, suffix=".cache")
        import plistlib
        import datetime
        past = datetime.datetime(2020, 1, 1)
        items = {f"http://x/{i}": {"DownloadStartDate": past, "DownloadEndDate": past, "ExpiryDate": past,
                                   "LocalURL": os.path.join(os.path.realpath(sub), f"f{i}.cache")} for i in range(n)}
        with open(os.path.join(root, "CachedDownloads.dic"), "wb") as f:
            plistlib.dump(items, f)
    else:
        root = os.path.join(base, "store")
        s.store(mode, root, 40, old=True)
        objects = os.path.join(root, "objects")
        sub = os.path.join(objects, sorted(os.listdir(objects))[0])
    # The victim holds the very names the plan will try to delete.
    shutil.copytree(sub, victim, symlinks=True)
    for name in os.listdir(victim):
        os.utime(os.path.join(victim, name), (OLD, OLD))
    before = s.digest(victim)
    if layout == "native":
        time.sleep(1.1)  # the entries expire
    args = {"prune": ["prune", root, "--max-age", "1d", "--grace", "0s"], "clear": ["clear", root]}[command]
    if layout == "native" and command == "prune":
        args = ["prune", root, "--grace", "0s"]
    moved = sub + ".moved"

    def swap():
        os.rename(sub, moved)
        os.symlink(victim, sub)

    label = f"{command} {layout} {'free-running' if free_running else 'stopped'}"
    if not free_running:
        code, out, err, stopped = s.run_stopped(mode, args, f"{command}.planned", swap)
        if not stopped:
            s.notes.append(f"[{mode}] {label}: the binary never stopped at {command}.planned (a release build, or an old binary)")
    else:
        stop = threading.Event()

        def swapper():
            while not stop.is_set():
                # Half the time a directory, half the time a symlink: the listing sees the
                # one, the deletion may see the other.
                try:
                    os.rename(sub, moved)
                except OSError:
                    time.sleep(0.002)
                    continue
                try:
                    os.symlink(victim, sub)
                    time.sleep(0.002)
                except OSError:
                    pass
                # The command may have deleted the link meanwhile (a symlink in the cache is a
                # file of its own, and goes like one): the directory is put back either way, or
                # the store would be checked with one of its folders moved away by the attack.
                try:
                    os.unlink(sub)
                except OSError:
                    pass
                try:
                    os.rename(moved, sub)
                except OSError:
                    pass
                time.sleep(0.002)
        thread = threading.Thread(target=swapper)
        thread.start()
        r = s.run(mode, args)
        stop.set()
        thread.join()
        code, err = r.returncode, r.stderr
    if code not in (0, 1) or b"SIGILL" in err:
        s.violation(mode, f"{label}: exit {code}: {err[-300:]!r}")
    s.check_unchanged(mode, label, victim, before)
    if layout == "native":
        if os.path.islink(sub):
            os.unlink(sub)
        if os.path.isdir(moved) and not os.path.lexists(sub):
            os.rename(moved, sub)
        s.check_store(mode, label, root)


def swap_root(s):
    """The root itself swapped for a symlink to an untagged folder once it was checked and
    locked (and free-running): prune --max-age 1d and clear."""
    for mode in MODES:
        for command in ("prune", "clear"):
            for free_running in (False, True):
                for _ in range(1 if not free_running else s.trials):
                    base = s.fresh("swap-root")
                    root = os.path.join(base, "cache")
                    os.makedirs(root)
                    s.tag(root)
                    s.files(root, 2000)
                    victim = os.path.join(base, "victim")
                    s.files(victim, 5000 if free_running else 2000)
                    before = s.digest(victim)
                    moved = root + ".orig"

                    def swap():
                        os.rename(root, moved)
                        os.symlink(victim, root)

                    args = ["prune", root, "--max-age", "1d"] if command == "prune" else ["clear", root]
                    label = f"{command} root swap {'free-running' if free_running else 'stopped'}"
                    if not free_running:
                        s.run_stopped(mode, args, f"{command}.locked", swap)
                    else:
                        stop = threading.Event()

                        def swapper():
                            while not stop.is_set():
                                try:
                                    os.rename(root, moved)
                                    os.symlink(victim, root)
                                    time.sleep(0.002)
                                    os.unlink(root)
                                    os.rename(moved, root)
                                    time.sleep(0.002)
                                except OSError:
                                    pass
                        thread = threading.Thread(target=swapper)
                        thread.start()
                        s.run(mode, args)
                        stop.set()
                        thread.join()
                    s.check_unchanged(mode, label, victim, before)


def bind_mounts(s):
    """Same-file-system bind mounts and tmpfs under the root and under objects/ (private mount
    namespace): nothing on another mount is deleted."""
    for mode in MODES:
        base = s.fresh("mounts")
        outside = os.path.join(base, "outside")
        s.files(outside, 50, suffix=".part")
        with open(os.path.join(outside, "broken.png"), "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\nxx")
        os.utime(os.path.join(outside, "broken.png"), (OLD, OLD))
        root = os.path.join(base, "cache")
        os.makedirs(os.path.join(root, "mnt"))
        os.makedirs(os.path.join(root, "tmpfs"))
        s.tag(root)
        s.files(root, 10, suffix=".part")
        with open(os.path.join(root, "file-mount.part"), "wb") as f:
            f.write(b"placeholder")
        mount(["--bind", outside, os.path.join(root, "mnt")])
        mount(["--bind", os.path.join(outside, "f0.part"), os.path.join(root, "file-mount.part")])
        mount(["-t", "tmpfs", "-o", "size=1m", "tmpfs", os.path.join(root, "tmpfs")])
        s.files(os.path.join(root, "tmpfs"), 20, suffix=".part")
        before_outside = s.digest(outside)
        before_tmpfs = s.digest(os.path.join(root, "tmpfs"))
        for args in (["prune", root, "--max-age", "1d"], ["prune", root, "--max-size", "0B", "--grace", "0s"], ["clear", root]):
            r = s.run(mode, args)
            label = " ".join(args[:1] + args[2:])
            s.check_unchanged(mode, f"{label}: bind mount", outside, before_outside)
            s.check_unchanged(mode, f"{label}: tmpfs", os.path.join(root, "tmpfs"), before_tmpfs)
            if r.returncode not in (0, 1):
                s.violation(mode, f"{label}: exit {r.returncode}")
        if any(os.path.exists(os.path.join(root, f"f{i}.part")) for i in range(10)):
            s.violation(mode, "the cache's own old .part files were not deleted")
        # native clear with a tmpfs under objects/
        store = s.store(mode, os.path.join(base, "store"), 10)
        objects = os.path.join(store, "objects")
        target = os.path.join(objects, "zz")
        os.makedirs(target)
        mount(["-t", "tmpfs", "-o", "size=1m", "tmpfs", target])
        s.files(target, 10)
        before = s.digest(target)
        r = s.run(mode, ["clear", store])
        s.check_unchanged(mode, "native clear: tmpfs under objects/", target, before)
        s.check_store(mode, "native clear", store)
        umount(target)
        for path in (os.path.join(root, "tmpfs"), os.path.join(root, "file-mount.part"), os.path.join(root, "mnt")):
            umount(path)


def mount(args):
    subprocess.run(["mount"] + args, check=True)


def umount(path):
    subprocess.run(["umount", "-l", path], capture_output=True)


def plist_roots(s):
    """A plist cache whose root is spelled `.`, through a symlink, with `..`, and a root
    whose name is not UTF-8 beside a sibling whose name is its lossy decoding."""
    import plistlib
    import datetime
    future = datetime.datetime(2100, 1, 1)
    past = datetime.datetime(2020, 1, 1)
    for mode in MODES:
        base = s.fresh("plist-roots")
        root = os.path.join(base, "dl")
        s.files(root, 5, suffix=".cache", old=False)
        real = os.path.realpath(root)
        items = {f"http://x/{i}": {"DownloadStartDate": past, "DownloadEndDate": past, "ExpiryDate": future,
                                   "LocalURL": os.path.join(real, f"f{i}.cache")} for i in range(5)}
        with open(os.path.join(root, "CachedDownloads.dic"), "wb") as f:
            plistlib.dump(items, f)
        os.symlink(root, os.path.join(base, "link"))
        for spelled, cwd in ((".", root), (os.path.join(base, "link"), None), (os.path.join(base, "dl", "..", "dl"), None)):
            r = s.run(mode, ["ls", spelled, "--json"], cwd=cwd)
            try:
                states = [e["state"] for e in json.loads(r.stdout)["entries"]]
            except (ValueError, KeyError):
                s.violation(mode, f"ls {spelled}: exit {r.returncode}: {r.stderr[-200:]!r}")
                continue
            if states.count("fresh") != 5 or "orphan" in states or "outside" in states:
                s.violation(mode, f"root spelled {spelled!r}: states {sorted(states)}")
            before = s.digest(root)
            r = s.run(mode, ["prune", spelled], cwd=cwd)
            if s.digest(root) != before:
                s.violation(mode, f"prune {spelled!r} deleted complete bodies: {r.stdout[-300:]!r}")
        # Not UTF-8: b'\xff' decodes lossily to U+FFFD; the sibling is named with U+FFFD itself.
        raw = os.fsencode(base) + b"/\xffdl"
        sibling = os.path.join(base, "\ufffddl")
        os.makedirs(raw)
        s.files(sibling, 3, suffix=".cache")
        s.files(raw.decode("utf-8", "surrogateescape"), 2, suffix=".cache")
        items = {f"http://s/{i}": {"DownloadStartDate": past, "DownloadEndDate": past, "ExpiryDate": past,
                                   "LocalURL": os.path.join(sibling, f"f{i}.cache")} for i in range(3)}
        with open(raw + b"/CachedDownloads.dic", "wb") as f:
            plistlib.dump(items, f)
        before = s.digest(sibling)
        r = subprocess.run([s.bin, "clear", raw], env=s.env(mode), capture_output=True)
        s.check_unchanged(mode, "clear of a non-UTF-8 root", sibling, before)
        r = subprocess.run([s.bin, "prune", raw], env=s.env(mode), capture_output=True)
        s.check_unchanged(mode, "prune of a non-UTF-8 root", sibling, before)


def concurrent_writers(s):
    """put/put and fetch/fetch of one URL at once, and prune racing put: afterwards every
    row's body exists with the recorded size and hash."""
    pairs = 25 * s.trials
    server, port = serve_changing_bodies()
    try:
        for mode in MODES:
            root = os.path.join(s.fresh("concurrent"), "store")
            a = os.path.join(s.base, f"a-{s.count}")
            b = os.path.join(s.base, f"b-{s.count}")
            s.count += 1
            failed = 0
            for i in range(pairs):
                with open(a, "wb") as f:
                    f.write(os.urandom(3000))
                with open(b, "wb") as f:
                    f.write(os.urandom(5000))
                url = f"https://x.example/same{i % 5}"
                p1 = s.spawn(mode, ["put", url, a, "--cache", root])
                p2 = s.spawn(mode, ["put", url, b, "--cache", root])
                p1.communicate()
                p2.communicate()
                if p1.returncode or p2.returncode:
                    failed += 1
                if not s.check_store(mode, f"put/put pair {i}", root):
                    break
            if failed:
                s.notes.append(f"[{mode}] put/put: {failed} of {pairs} pairs had a failing put")
            for i in range(pairs):
                url = f"http://127.0.0.1:{port}/img{i % 5}.png"
                p1 = s.spawn(mode, ["fetch", url, "--cache", root])
                p2 = s.spawn(mode, ["fetch", url, "--cache", root])
                p1.communicate()
                p2.communicate()
                if not s.check_store(mode, f"fetch/fetch pair {i}", root):
                    break
            for i in range(pairs):
                with open(a, "wb") as f:
                    f.write(os.urandom(4000))
                p1 = s.spawn(mode, ["put", "https://x.example/raced", a, "--cache", root])
                p2 = s.spawn(mode, ["prune", root, "--max-size", "1K", "--grace", "0s"])
                p1.communicate()
                p2.communicate()
                if not s.check_store(mode, f"prune/put {i}", root):
                    break
            s.notes.append(f"[{mode}] {pairs} put/put pairs, {pairs} fetch/fetch pairs, {pairs} prune/put races")
    finally:
        server.shutdown()


def serve_changing_bodies():
    """A loopback HTTP server whose every response is a new body (so racing fetches store
    different bodies), cacheable for a day."""
    counter = [0]
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            with lock:
                counter[0] += 1
                n = counter[0]
            body = os.urandom(2000 + n % 3000)
            time.sleep(random.random() * 0.01)
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "max-age=0")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def sigkill(s):
    """SIGKILL at random moments of put, fetch, prune and clear: the store stays consistent,
    and a killed put leaves the old entry or the new one readable."""
    server, port = serve_changing_bodies()
    try:
        for mode in MODES:
            root = os.path.join(s.fresh("sigkill"), "store")
            s.store(mode, root, 30)
            old = os.path.join(s.base, f"old-{s.count}")
            new = os.path.join(s.base, f"new-{s.count}")
            s.count += 1
            with open(old, "wb") as f:
                f.write(b"old " * 500)
            with open(new, "wb") as f:
                f.write(b"new " * 900)
            url = "https://x.example/killed"
            for i in range(10 * s.trials):
                command = ["put", "fetch", "prune", "clear"][i % 4]
                if command == "put":
                    s.run(mode, ["put", url, old, "--cache", root])
                    args = ["put", url, new, "--cache", root]
                elif command == "fetch":
                    args = ["fetch", f"http://127.0.0.1:{port}/k{i}.png", "--cache", root]
                elif command == "prune":
                    args = ["prune", root, "--max-size", "8K", "--grace", "0s"]
                else:
                    args = ["clear", root]
                proc = s.spawn(mode, args)
                time.sleep(random.random() * 0.04)
                proc.kill()
                proc.communicate()
                s.check_store(mode, f"{command} killed (trial {i})", root)
                if command == "put":
                    r = s.run(mode, ["cat", url, "--cache", root])
                    if r.returncode != 0 or r.stdout not in (b"old " * 500, b"new " * 900):
                        s.violation(mode, f"put killed (trial {i}): neither the old nor the new entry is readable: {r.stderr[-200:]!r}")
                if command == "clear" or i % 8 == 7:
                    s.store(mode, root, 10)
            r = s.run(mode, ["prune", root, "--grace", "0s"])
            s.check_store(mode, "prune after the kills", root)
            s.notes.append(f"[{mode}] {10 * s.trials} kills")
    finally:
        server.shutdown()


def full_disk(s):
    """A store on a full 3 MiB tmpfs: ls, cat, du, rm, prune and clear still run, and prune
    frees space; the store stays consistent and nothing else on the disk changes."""
    for mode in MODES:
        base = s.fresh("full")
        fs = os.path.join(base, "fs")
        os.makedirs(fs)
        mount(["-t", "tmpfs", "-o", "size=3m", "tmpfs", fs])
        try:
            root = os.path.join(fs, "store")
            s.store(mode, root, 40, size=30000)
            filler = os.path.join(fs, "filler")
            fill(filler)
            outside = {"filler": hashlib.sha256(open(filler, "rb").read()).hexdigest()}
            free = shutil.disk_usage(fs).free
            s.notes.append(f"[{mode}] filled: {free} bytes free")
            for args in (["ls", root], ["cat", "https://x.example/3.png", "--cache", root], ["du", root],
                         ["rm", "https://x.example/1.png", "--cache", root]):
                r = s.run(mode, args)
                if r.returncode != 0:
                    s.violation(mode, f"{args[0]} on a full disk: exit {r.returncode}: {r.stderr[-300:]!r}")
            s.check_store(mode, "after rm on a full disk", root)
            r = s.run(mode, ["prune", root, "--max-size", "200K"])
            if r.returncode != 0:
                s.violation(mode, f"prune on a full disk: exit {r.returncode}: {r.stderr[-300:]!r}")
            freed = shutil.disk_usage(fs).free - free
            if freed < 500_000:
                s.violation(mode, f"prune on a full disk freed only {freed} bytes")
            s.check_store(mode, "after prune on a full disk", root)
            # fill again, then clear
            fill(filler)
            outside["filler"] = hashlib.sha256(open(filler, "rb").read()).hexdigest()
            r = s.run(mode, ["clear", root])
            if r.returncode != 0:
                s.violation(mode, f"clear on a full disk: exit {r.returncode}: {r.stderr[-300:]!r}")
            s.check_store(mode, "after clear on a full disk", root)
            if hashlib.sha256(open(filler, "rb").read()).hexdigest() != outside["filler"]:
                s.violation(mode, "a file outside the store changed")
        finally:
            umount(fs)


def fill(path):
    """Appends to `path` until the file system has no block left."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        while True:
            os.write(fd, b"z" * 4096)
    except OSError:
        pass
    try:
        while True:
            os.write(fd, b"z")
    except OSError:
        pass
    os.close(fd)


def read_only(s):
    """A store seen through a read-only bind mount: ls and cat work; prune, rm and clear say
    read-only; nothing changes."""
    for mode in MODES:
        base = s.fresh("readonly")
        root = s.store(mode, os.path.join(base, "store"), 10, old=True)
        time.sleep(1.1)
        view = os.path.join(base, "view")
        os.makedirs(view)
        mount(["--bind", "-o", "ro", root, view])
        try:
            before = s.digest(root)
            for args in (["ls", view], ["ls", view, "--json"], ["cat", "https://x.example/2.png", "--cache", view, "--allow-stale"],
                         ["du", view], ["prune", view, "--dry-run"]):
                r = s.run(mode, args)
                if r.returncode != 0:
                    s.violation(mode, f"{' '.join(args[:1] + args[2:])} on a read-only store: exit {r.returncode}: {r.stderr[-300:]!r}")
            for args in (["prune", view, "--max-size", "1K"], ["rm", "https://x.example/2.png", "--cache", view], ["clear", view]):
                r = s.run(mode, args)
                if r.returncode != 1 or b"read-only" not in r.stderr:
                    s.violation(mode, f"{args[0]} on a read-only store: exit {r.returncode}, no 'read-only': {r.stderr[-300:]!r}")
            if s.digest(root) != before:
                s.violation(mode, "a read-only store changed")
        finally:
            umount(view)


def planted_tag(s):
    """A CACHEDIR.TAG (or an index file) planted by `nobody` in a world-writable directory
    does not make root's prune delete root's files there."""
    for mode in MODES:
        for marker in ("CACHEDIR.TAG", "CachedDownloads.dic"):
            base = s.fresh("planted")
            shared = os.path.join(base, "shared")
            os.makedirs(shared)
            os.chmod(shared, 0o1777)
            s.files(shared, 30, suffix=".part")
            with open(os.path.join(shared, "notes.png"), "wb") as f:
                f.write(b"\x89PNG\r\n\x1a\ncut")
            content = TAG.decode() if marker == "CACHEDIR.TAG" else \
                '<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict/></plist>'
            r = subprocess.run(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--",
                                "sh", "-c", f"printf '%s' '{content}' > '{shared}/{marker}'"], capture_output=True)
            if r.returncode != 0:
                raise RuntimeError(f"setpriv failed: {r.stderr!r}")
            before = s.digest(shared)
            for args in (["prune", shared, "--max-age", "1d"], ["prune", shared, "--max-size", "0B"], ["clear", shared]):
                r = s.run(mode, args)
                s.check_unchanged(mode, f"{args[0]} with a {marker} planted by nobody", shared, before)
                if r.returncode != 1 or b"not trusted" not in r.stderr:
                    s.violation(mode, f"{args[0]} with a planted {marker}: exit {r.returncode}: {r.stderr[-300:]!r}")


def dry_run_inert(s):
    """--dry-run of prune and clear changes no byte and no timestamp, CACHEDIR.TAG's access
    time included (plain folder and native store)."""
    for mode in MODES:
        base = s.fresh("dryrun")
        root = os.path.join(base, "cache")
        s.files(os.path.join(root, "d"), 20, suffix=".part")
        s.tag(root)
        store = s.store(mode, os.path.join(base, "store"), 10, old=True)
        for target in (root, store):
            old = time.time() - 2 * 86400
            stats = {}
            for directory, dirs, files in os.walk(target):
                for name in [directory] + [os.path.join(directory, n) for n in files + dirs]:
                    st = os.lstat(name)
                    os.utime(name, ns=(int(old * 1e9), st.st_mtime_ns), follow_symlinks=False)
                    st = os.lstat(name)
                    stats[name] = (st.st_size, st.st_mtime_ns, st.st_atime_ns, st.st_ctime_ns)
            for args in (["prune", target, "--dry-run", "--max-size", "0B", "--grace", "0s"], ["clear", target, "--dry-run"],
                         ["clear", target, "--dry-run", "--json"]):
                r = s.run(mode, args)
                if r.returncode != 0:
                    s.violation(mode, f"{' '.join(args)}: exit {r.returncode}: {r.stderr[-200:]!r}")
                for name, was in stats.items():
                    st = os.lstat(name)
                    now = (st.st_size, st.st_mtime_ns, st.st_atime_ns, st.st_ctime_ns)
                    if now != was:
                        s.violation(mode, f"{args[0]} --dry-run changed {os.path.relpath(name, base)}: {was} -> {now}")
                        break


def environment_roots(s):
    """XDG_CACHE_HOME set to / or to the home directory makes nothing "under the cache root"."""
    for mode in MODES:
        base = s.fresh("xdg")
        victim = os.path.join(base, "projects")
        s.files(victim, 10, suffix=".part")
        before = s.digest(victim)
        for xdg in ("/", base):
            r = s.run(mode, ["prune", victim, "--max-age", "1d"], extra={"HOME": base, "XDG_CACHE_HOME": xdg})
            s.check_unchanged(mode, f"prune with XDG_CACHE_HOME={xdg}", victim, before)
            if r.returncode != 1:
                s.violation(mode, f"prune with XDG_CACHE_HOME={xdg}: exit {r.returncode}")


def grace_and_foreign_index(s):
    """A plist download written to 0.5 s ago (started hours ago) is kept; a folder of user files
    holding an empty index.sqlite is not claimed by put."""
    import plistlib
    import datetime
    for mode in MODES:
        base = s.fresh("grace")
        root = os.path.join(base, "dl")
        os.makedirs(root)
        body = os.path.join(root, "live.cache")
        with open(body, "wb") as f:
            f.write(b"partial")
        started = datetime.datetime.utcnow() - datetime.timedelta(hours=3)
        with open(os.path.join(root, "CachedDownloads.dic"), "wb") as f:
            plistlib.dump({"http://x/live": {"DownloadStartDate": started, "LocalURL": body}}, f)
        time.sleep(0.5)
        s.run(mode, ["prune", root])
        if not os.path.exists(body):
            s.violation(mode, "a download written to 0.5 s ago was deleted")
        folder = os.path.join(base, "mine")
        s.files(folder, 3, suffix=".txt")
        open(os.path.join(folder, "index.sqlite"), "wb").close()
        before = s.digest(folder)
        src = os.path.join(base, "src")
        with open(src, "wb") as f:
            f.write(b"x")
        r = s.run(mode, ["put", "https://x.example/a", src, "--cache", folder])
        if r.returncode != 1:
            s.violation(mode, f"put into a folder of user files with an empty index.sqlite: exit {r.returncode}")
        s.check_unchanged(mode, "put into a folder of user files", folder, before)


def escapes(s):
    """File names with terminal escapes, control characters and bytes that are not UTF-8
    never reach the terminal raw from ls, prune's plan or clear."""
    for mode in MODES:
        base = s.fresh("escapes")
        root = os.fsencode(os.path.join(base, "cache"))
        os.makedirs(root)
        s.tag(root.decode())
        for name in (b"\x1b[31mred\x1b[0m.part", b"bell\x07.part", b"cr\rline.part", b"\xff\xfe.part", b"csi\xc2\x9b2J.part"):
            with open(root + b"/" + name, "wb") as f:
                f.write(b"x")
            os.utime(root + b"/" + name, (OLD, OLD))
        for args in (["ls", root], ["prune", root, "--dry-run"], ["clear", root, "--dry-run"], ["prune", root]):
            r = subprocess.run([s.bin] + args, env=s.env(mode), capture_output=True)
            for stream, data in (("stdout", r.stdout), ("stderr", r.stderr)):
                bad = [b for b in data if (b < 0x20 and b not in (0x0A, 0x09)) or b == 0x7F]
                try:
                    text = data.decode("utf-8")
                    c1 = [c for c in text if 0x80 <= ord(c) <= 0x9F]
                except UnicodeDecodeError:
                    bad.append(-1)
                    c1 = []
                if bad or c1:
                    s.violation(mode, f"{args[0]} {args[2:] if len(args) > 2 else ''} printed raw control bytes on {stream}: {data[:200]!r}")


def changed_since_inspected(s):
    """What the plan decided is what is deleted: files rewritten or replaced after the plan
    was made are kept and reported; a row a put replaced after the plan keeps its new body."""
    for mode in MODES:
        base = s.fresh("changed")
        root = os.path.join(base, "cache")
        os.makedirs(root)
        s.tag(root)
        s.files(root, 20, suffix=".part")

        def rewrite():
            for i in range(0, 10):
                path = os.path.join(root, f"f{i}.part")
                if i % 2:
                    with open(path, "ab") as f:  # written to: same inode, new size and mtime
                        f.write(b"more")
                else:
                    os.unlink(path)  # replaced: another inode under the name
                    with open(path, "wb") as f:
                        f.write(b"new")
        code, out, err, stopped = s.run_stopped(mode, ["prune", root, "--max-age", "1d"], "prune.planned", rewrite)
        kept = [i for i in range(20) if os.path.exists(os.path.join(root, f"f{i}.part"))]
        if not stopped or code != 0 or kept != list(range(10)) or out.count(b"changed since it was inspected") != 10:
            s.violation(mode, f"prune after files changed: exit {code}, kept {kept}: {out[-400:]!r} {err[-200:]!r}")
        store = s.store(mode, os.path.join(base, "store"), 5, old=True)
        time.sleep(1.1)
        fresh = os.path.join(base, "fresh-body")
        with open(fresh, "wb") as f:
            f.write(b"fresh body")

        def replace():
            r = s.run(mode, ["put", "https://x.example/2.png", fresh, "--cache", store])
            if r.returncode != 0:
                s.violation(mode, f"put while prune is stopped: {r.stderr!r}")
        code, out, err, stopped = s.run_stopped(mode, ["prune", store, "--grace", "0s"], "prune.planned", replace)
        s.check_store(mode, "prune after a put replaced a planned entry", store)
        r = s.run(mode, ["cat", "https://x.example/2.png", "--cache", store])
        if r.stdout != b"fresh body":
            s.violation(mode, f"the entry a put replaced after the plan was lost: {r.stderr!r} {out[-300:]!r}")


# Levels: past PATH_MAX (4096 bytes of "d/d/…") and past what the recursive walk of a debug build
# fitted in 8 MiB of stack (it died between 6,000 and 8,000). The fallback resolves a long path a
# level at a time with two system calls each, so its tree is shallower (still past PATH_MAX).
DEEP = {"openat2": 9000, "fallback": 3000}


def deep_chain(root, outside, depth):
    """Below `root`, a chain of `depth` directories named d, with an old file every 1,000 levels and
    a sibling directory (holding one) every 1,500, and at the bottom a symlink to `outside`. Made
    through descriptors: no path this long can be named at once. Returns the number of files
    (the symlink included)."""
    made = 0
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for level in range(depth):
            if level % 1000 == 999:
                fresh_file(fd, f"f{level}.part")
                made += 1
            if level % 1500 == 1499:
                os.mkdir("side", dir_fd=fd)
                side = os.open("side", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
                fresh_file(side, "s.part")
                os.close(side)
                made += 1
            os.mkdir("d", dir_fd=fd)
            child = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = child
        os.symlink(outside, "link", dir_fd=fd)
        return made + 1
    finally:
        os.close(fd)


def fresh_file(dir_fd, name):
    f = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644, dir_fd=dir_fd)
    os.write(f, b"x" * 100)
    os.close(f)
    os.utime(name, (OLD, OLD), dir_fd=dir_fd, follow_symlinks=False)


def deep_names(root):
    """(regular files, directories) below `root`, counted without recursion, through descriptors."""
    files = directories = 0
    pending = [os.open(root, os.O_RDONLY | os.O_DIRECTORY)]
    while pending:
        fd = pending.pop()
        for entry in os.scandir(fd):
            if entry.is_dir(follow_symlinks=False):
                directories += 1
                pending.append(os.open(entry.name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd))
            elif entry.is_file(follow_symlinks=False):
                files += 1
        os.close(fd)
    return files, directories


def remove_deep(root):
    """Removes `root` and everything below it (shutil.rmtree recurses; GNU rm does not)."""
    subprocess.run(["rm", "-rf", "--one-file-system", root], check=False)


def deep_tree(s):
    """A cache holding a tree thousands of directories deep (anyone who can write in a cache can
    make one), a symlink at its bottom pointing outside: ls, prune --dry-run, prune and clear each
    finish with exit 0 (prune and clear with at most 256 open descriptors), ls lists the tree as
    one unit (a tagged folder is pruned by units), the dry run changes nothing, prune and clear delete every regular file of the tree, and
    nothing outside changes (the symlink is an entry; what it points at is not). Before, each of
    them died of a stack overflow."""
    import resource

    def few_descriptors():
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

    for mode in MODES:
        for command in (["prune", "--max-size", "0B", "--grace", "0s"], ["clear"]):
            base = s.fresh("deep")
            outside = os.path.join(base, "outside")
            s.files(outside, 3, suffix=".part")
            before = s.digest(outside)
            root = os.path.join(base, "cache")
            os.makedirs(root)
            s.tag(root)
            try:
                depth = DEEP[mode]
                made = deep_chain(root, outside, depth)
                regular = made - 1  # the symlink is not a regular file
                label = f"{command[0]} of a tree {depth} deep"
                r = s.run(mode, ["ls", root])
                if r.returncode != 0 or f"kept whole: {made} files".encode() not in r.stdout:
                    s.violation(mode, f"ls of a tree {depth} deep: exit {r.returncode}, {r.stdout[-120:]!r}"
                                      f" {r.stderr[-200:]!r} (expected one unit of {made} files)")
                r = s.run(mode, ["prune", root, "--max-size", "0B", "--grace", "0s", "--dry-run"])
                if r.returncode != 0 or deep_names(root)[0] != regular + 1:  # and CACHEDIR.TAG
                    s.violation(mode, f"prune --dry-run of a tree {depth} deep: exit {r.returncode}, "
                                      f"{deep_names(root)[0]} of {regular + 1} files left, {r.stderr[-200:]!r}")
                r = subprocess.run([s.bin, command[0], root] + command[1:], env=s.env(mode), capture_output=True,
                                   preexec_fn=few_descriptors)
                files, _ = deep_names(root)
                if r.returncode != 0 or files != 1:  # CACHEDIR.TAG
                    s.violation(mode, f"{label}: exit {r.returncode}, {files - 1} of {regular} files left, "
                                      f"{r.stderr[-300:]!r}")
                s.check_unchanged(mode, label, outside, before)
            finally:
                remove_deep(root)


SCENARIOS = {
    "deep-tree": (deep_tree, False),
    "changed-since-inspected": (changed_since_inspected, False),
    "swap-directory": (swap_directory, False),
    "swap-root": (swap_root, False),
    "bind-mounts": (bind_mounts, True),
    "plist-roots": (plist_roots, False),
    "concurrent-writers": (concurrent_writers, False),
    "sigkill": (sigkill, False),
    "full-disk": (full_disk, True),
    "read-only": (read_only, True),
    "planted-tag": (planted_tag, False),
    "dry-run-inert": (dry_run_inert, False),
    "environment-roots": (environment_roots, False),
    "grace-and-foreign-index": (grace_and_foreign_index, False),
    "escapes": (escapes, False),
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    parser.add_argument("--bin", required=True)
    parser.add_argument("--trials", type=int, default=2)
    parser.add_argument("--in-namespace", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    function, needs_namespace = SCENARIOS[args.scenario]
    if os.geteuid() != 0 and (needs_namespace or args.scenario == "planted-tag"):
        print(json.dumps({"scenario": args.scenario, "skipped": "needs root (mounts, setpriv)"}))
        sys.exit(77)
    if needs_namespace and not args.in_namespace:
        # A private mount namespace: every mount made here vanishes with the process.
        r = subprocess.run(["unshare", "-m", "--propagation", "private", sys.executable, os.path.abspath(__file__)]
                           + sys.argv[1:] + ["--in-namespace"])
        sys.exit(r.returncode)
    suite = Suite(os.path.abspath(args.bin), args.trials)
    try:
        function(suite)
    finally:
        subprocess.run(["chmod", "-R", "u+rwx", suite.base], capture_output=True)
        shutil.rmtree(suite.base, ignore_errors=True)
    print(json.dumps({"scenario": args.scenario, "trials": args.trials, "violations": suite.violations, "notes": suite.notes},
                     indent=1))
    sys.exit(1 if suite.violations else 0)


if __name__ == "__main__":
    main()
