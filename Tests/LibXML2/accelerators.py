#!/usr/bin/env python3
"""The accelerators cachectl adds to the libxml2 it carries change nothing the parser reports.

Sources/CLibXML2/libxml2/HTMLparser.c holds libxml2's text with cachectl's additions between
`/* cachectl-begin: ... */` and `/* cachectl-end */` lines. Without them it must be upstream's
file byte for byte (its SHA-256 is checked). Both texts are then built with the rest of the
carried library into events.c, a program that prints every SAX event of a parse, and both
programs parse the same inputs (the bench's pages when given, and generated pages dense in
what the accelerators stop at: NUL, CR, LF, '&', '-', '<', quotes, '>', whitespace, bytes of
0x80 and above, valid and not), from memory and pushed in random chunks. Any difference in
any event is a failure, and the input is kept.

Usage: accelerators.py [--inputs N] [--work DIR] [PAGE ...]
"""
import argparse
import hashlib
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CARRIED = os.path.join(ROOT, "Sources", "CLibXML2")
LIBRARY = os.path.join(CARRIED, "libxml2")
# HTMLparser.c of libxml2 v2.15.3, as upstream tagged it.
UPSTREAM_SHA256 = "903e29c329610a2ff51d30c66a39b4001df01829742c75a8a22c60a77f755e07"


def upstream_text(carried):
    out, inside = [], False
    for line in carried.splitlines(keepends=True):
        if line.startswith("/* cachectl-begin:"):
            inside = True
        elif inside and line.startswith("/* cachectl-end */"):
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        sys.exit("HTMLparser.c: a cachectl-begin without its cachectl-end")
    return "".join(out)


def compiler():
    """$CC, else clang on PATH or beside the Swift toolchain's swift, else cc or gcc."""
    swift = shutil.which("swift") or shutil.which("swiftc")
    candidates = [os.environ.get("CC"), shutil.which("clang"),
                  os.path.join(os.path.dirname(os.path.realpath(swift)), "clang") if swift else None,
                  shutil.which("cc"), shutil.which("gcc")]
    for path in candidates:
        if path and os.access(path, os.X_OK):
            return path
    sys.exit("no C compiler ($CC, clang beside swift, cc or gcc)")


def build(work, name, parser_text):
    source = os.path.join(work, name)
    os.makedirs(source)
    for entry in os.listdir(LIBRARY):
        if entry.endswith(".c") and entry != "HTMLparser.c":
            os.symlink(os.path.join(LIBRARY, entry), os.path.join(source, entry))
    with open(os.path.join(source, "HTMLparser.c"), "w") as f:
        f.write(parser_text)
    program = os.path.join(work, "events-" + name)
    sources = [os.path.join(HERE, "events.c")] + sorted(
        os.path.join(source, e) for e in os.listdir(source) if e.endswith(".c"))
    made = subprocess.run(
        [compiler(), "-O2", "-w", "-o", program] + sources
        + ["-I", os.path.join(CARRIED, "include"), "-I", os.path.join(LIBRARY, "include"), "-I", LIBRARY,
           "-lpthread", "-lm"], capture_output=True, text=True)
    if made.returncode != 0:
        sys.exit("building %s: %s" % (name, made.stderr[-2000:]))
    return program


ATOMS = ["a", "xyz", "0123456789abcdef", "&amp;", "&#x41;", "&#65;", "&lt", "&notin;", "&#0;", "&", "\r\n", "\r",
         "\n", "\0", "\u00e9", "\u65e5\u672c", "-", "--", "<", ">", '"', "'", "=", " ", "\t", "\x0c", "/", "!", "?",
         "<!--", "-->", "<![CDATA[", "]]>", "#", ";"]


def generated(seed):
    r = random.Random(seed)

    def text(n):
        return "".join(r.choice(ATOMS) if r.random() < 0.4 else "x" * r.randint(1, 40) for _ in range(n))

    def value():
        v = "".join(r.choice(["a" * r.randint(1, 30), "&amp;", "&#x26;", '"', "'", ">", "<", "\n", "\r", "\r\n",
                              "\0", "\u00e9", " ", "\t", "&", "-", "=", "/"]) for _ in range(r.randint(0, 8)))
        quote = r.choice(['"', "'", ""])
        if quote:
            return quote + v.replace(quote, "") + quote
        return "".join(c for c in v if c not in " \t\n\r\x0c>") or "u"

    parts = ["<!DOCTYPE html><html><body>"]
    for _ in range(r.randint(5, 60)):
        c = r.random()
        if c < 0.35:
            parts.append(text(r.randint(1, 12)))
        elif c < 0.6:
            tag = r.choice(["img", "a", "p", "div", "source", "link", "meta", "td", "br"])
            attributes = "".join(
                " " + r.choice(["src", "href", "srcset", "alt", "data-src", "class", "style"]) + "=" + value()
                for _ in range(r.randint(0, 4)))
            parts.append("<" + tag + attributes + r.choice([">", "/>", " >"]))
        elif c < 0.7:
            parts.append("<!--" + text(r.randint(0, 6)) + r.choice(["-->", "--!>", "->", ""]))
        elif c < 0.8:
            element = r.choice(["script", "style", "textarea", "title"])
            parts.append("<%s>%s</%s>" % (element, text(r.randint(0, 8)),
                                          r.choice(["script", "style", "textarea", "title", "p"])))
        elif c < 0.85:
            parts.append("<!" + text(2) + ">")
        else:
            parts.append("</" + r.choice(["p", "div", "a", "td", "x"]) + ">")
    data = "".join(parts).encode("utf-8")
    if r.random() < 0.3:  # invalid UTF-8 too
        data = data.replace("\u00e9".encode(), b"\xe9" if r.random() < 0.5 else b"\xc3")
    return data


def events(program, path, seed):
    return subprocess.run([program, path, str(seed)], capture_output=True).stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--inputs", type=int, default=500)
    ap.add_argument("--work")
    ap.add_argument("pages", nargs="*")
    args = ap.parse_args()
    with open(os.path.join(LIBRARY, "HTMLparser.c")) as f:
        carried = f.read()
    upstream = upstream_text(carried)
    digest = hashlib.sha256(upstream.encode()).hexdigest()
    if digest != UPSTREAM_SHA256:
        sys.exit("HTMLparser.c without cachectl's additions is not upstream's (sha256 %s): a change is "
                 "outside cachectl-begin/cachectl-end" % digest)
    if carried.count("/* cachectl-begin:") == 0:
        sys.exit("HTMLparser.c has no cachectl additions to check")
    work = args.work or tempfile.mkdtemp(prefix="libxml2-accelerators-")
    os.makedirs(work, exist_ok=True)
    upstream_program = build(work, "upstream", upstream)
    carried_program = build(work, "carried", carried)
    inputs = [(page, page) for page in args.pages]
    for i in range(1, args.inputs + 1):
        path = os.path.join(work, "input-%d.html" % i)
        with open(path, "wb") as f:
            f.write(generated(i))
        inputs.append(("generated %d" % i, path))
    differing = 0
    for number, (label, path) in enumerate(inputs):
        for seed in (0, 1 + number):
            if events(upstream_program, path, seed) != events(carried_program, path, seed):
                differing += 1
                kept = os.path.join(work, "differs-%d.html" % differing)
                shutil.copyfile(path, kept)
                print("%s (%s): the events differ; kept as %s" % (label, "pushed" if seed else "memory", kept))
    print("%d inputs, each parsed from memory and pushed in chunks: %d differ" % (len(inputs), differing))
    if not args.work and differing == 0:
        shutil.rmtree(work)
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
