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


def ensure_tool(tool, package, required=True):
    """Installs `package` with apt-get when `tool` is not on PATH (refreshing the package lists
    once if apt-get cannot find it, as on a fresh machine). Returns whether `tool` is there;
    when `required`, exits with a message naming the tool instead of returning False."""
    import shutil
    if shutil.which(tool):
        return True
    if shutil.which("apt-get") and os.geteuid() == 0:
        install = ["apt-get", "install", "-y", "-qq", package]
        if subprocess.run(install, capture_output=True).returncode != 0:
            subprocess.run(["apt-get", "update", "-qq"], capture_output=True)
            subprocess.run(install, capture_output=True)
    if shutil.which(tool):
        return True
    if required:
        sys.exit("bench: %s is not installed and `apt-get install %s` did not provide it" % (tool, package))
    return False
