"""The release binary the benchmarks time, built as Scripts/bootstrap builds it."""
import os, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def release_binary(binary=None):
    """`binary` when given, else builds cachectl in release mode (with the Swift runtime
    linked in on Linux, as Scripts/bootstrap does) and returns its path."""
    if binary:
        return binary
    static = ["--static-swift-stdlib"] if sys.platform.startswith("linux") else []
    subprocess.run(["swift", "build", "-c", "release", "--product", "cachectl"] + static, cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    out = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    return os.path.join(out, "cachectl")
