"""runtime_size.py - the size and dependencies of the tcc runtime.

Builds libtccrt as a stripped shared library from lib/Runtime/runtime.c
(-O2, -Wl,--no-undefined, so every symbol it uses must come from the
libraries it names), then prints its size and the shared libraries it
needs, and fails when it is 100 KB or more or needs anything beyond libc,
libm and pthreads.

Usage: runtime_size.py CC RUNTIME_C INCLUDE_DIR WORK_DIR
"""
import os
import subprocess
import sys

GOAL_BYTES = 100 * 1024
ALLOWED = {"libc.so.6", "libm.so.6", "libpthread.so.0"}


def main():
    cc, source, include, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    lib = os.path.join(work, "libtccrt.so")
    subprocess.run([cc, "-O2", "-shared", "-fPIC", "-I", include, source,
                    "-Wl,--no-undefined", "-lpthread", "-lm", "-o", lib],
                   check=True)
    subprocess.run(["strip", "--strip-unneeded", lib], check=True)
    size = os.path.getsize(lib)
    dynamic = subprocess.run(["readelf", "-d", lib], check=True,
                             capture_output=True, text=True).stdout
    needed = sorted(line.split("[", 1)[1].split("]", 1)[0]
                    for line in dynamic.splitlines() if "(NEEDED)" in line)
    print(f"runtime: {size} bytes stripped (goal < {GOAL_BYTES}); "
          f"needs {' '.join(needed)}")
    ok = True
    if size >= GOAL_BYTES:
        print(f"runtime_size: FAIL: {size} bytes, the goal is < {GOAL_BYTES}")
        ok = False
    extra = [n for n in needed if n not in ALLOWED]
    if extra:
        print(f"runtime_size: FAIL: needs {' '.join(extra)} (allowed: "
              f"{' '.join(sorted(ALLOWED))})")
        ok = False
    if ok:
        print("runtime_size: OK")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
