"""Finds the tcc binary and says which version it is."""
import functools
import os
import shutil
import subprocess

__all__ = ["tcc_binary", "tcc_version"]


def tcc_binary():
    """The tcc binary: $TCC_BIN, else `tcc` on PATH, else build/bin/tcc of
    the source tree this package sits in (tools/python/tcc)."""
    env = os.environ.get("TCC_BIN")
    if env:
        if not os.access(env, os.X_OK):
            raise FileNotFoundError("TCC_BIN=%s is not an executable" % env)
        return env
    found = shutil.which("tcc")
    if found and _is_ours(found):
        return found
    here = os.path.dirname(os.path.abspath(__file__))
    tree = os.path.normpath(os.path.join(here, "..", "..", "..", "build",
                                         "bin", "tcc"))
    if os.access(tree, os.X_OK):
        return tree
    raise FileNotFoundError(
        "no tcc binary: set TCC_BIN, put tcc on PATH, or build it "
        "(bash utils/build.sh) in the source tree of this package")


@functools.lru_cache(maxsize=None)
def _version_of(path, mtime):
    out = subprocess.run([path, "--version"], capture_output=True,
                         text=True)
    return out.stdout.strip() if out.returncode == 0 else ""


def _is_ours(path):
    # The Tiny C Compiler is also called tcc.
    return _version_of(path, os.path.getmtime(path)).startswith("tcc ")


def tcc_version(path=None):
    """`tcc --version` of the binary (its output line), and the binary's
    modification time: a rebuilt tcc changes the cache key."""
    path = path or tcc_binary()
    mtime = os.path.getmtime(path)
    return "%s @%d" % (_version_of(path, mtime), int(mtime))
