#!/usr/bin/env python3
"""qemu_icount.py - guest instructions a program executes under qemu user mode, per function.

Runs COMMAND under the emulator with `-d in_asm,exec,nochain` (every translated block's
instructions, then a line per block executed, blocks unchained so each execution is logged)
and sums the executed instructions of each block by the function qemu names it under (the
program's symbols). For counts of one kernel against another where no hardware counters or
TCG plugins exist (Debian's qemu-user-static has none); docs/cross.md. The log grows by one
line per block executed: keep runs to a few million blocks.

    utils/qemu_icount.py --qemu "qemu-aarch64-static -L /usr/aarch64-linux-gnu" -- ./app ARGS
"""
import argparse
import collections
import os
import re
import shlex
import subprocess
import sys
import tempfile

BLOCK_START = re.compile(r"^IN: ?(.*)$")
INSN = re.compile(r"^0x([0-9a-f]+):")
EXEC = re.compile(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")


def count(log_path):
    """(instructions by function, blocks executed) from a qemu in_asm+exec log."""
    size, name = {}, {}
    executed = collections.Counter()
    current, first = None, None
    with open(log_path, errors="replace") as f:
        for line in f:
            m = BLOCK_START.match(line)
            if m:
                current, first = m.group(1) or "?", None
                continue
            m = INSN.match(line)
            if m and current is not None:
                pc = int(m.group(1), 16)
                if first is None:
                    first = pc
                    size[pc], name[pc] = 0, current
                size[first] += 1
                continue
            if not line.strip():
                current = None
                continue
            m = EXEC.match(line)
            if m:
                executed[int(m.group(1), 16)] += 1
    by_function = collections.Counter()
    for pc, n in executed.items():
        by_function[name.get(pc, "?")] += n * size.get(pc, 0)
    return by_function, sum(executed.values())


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--qemu", required=True, help="the emulator command, one string")
    p.add_argument("--top", type=int, default=10, help="functions listed (default 10)")
    p.add_argument("--match", help="also print the sum over functions matching REGEX")
    p.add_argument("command", nargs=argparse.REMAINDER)
    args = p.parse_args()
    cmd = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not cmd:
        p.error("no command to run")
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "qemu.log")
        run = shlex.split(args.qemu) + ["-d", "in_asm,exec,nochain", "-D", log] + cmd
        rc = subprocess.run(run, stdout=subprocess.DEVNULL).returncode
        if rc != 0:
            print(f"qemu_icount: {shlex.join(run)}: exit status {rc}", file=sys.stderr)
            return 1
        by_function, blocks = count(log)
    total = sum(by_function.values())
    print(f"{total} instructions in {blocks} blocks executed")
    for fn, n in by_function.most_common(args.top):
        print(f"{n:12d}  {fn}")
    if args.match:
        rx = re.compile(args.match)
        print(f"{sum(n for fn, n in by_function.items() if rx.search(fn)):12d}  "
              f"(functions matching {args.match!r})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
