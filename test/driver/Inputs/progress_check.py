"""Checks what `tcc` wrote to a terminal (captured by `script`): the
progress line, rewritten in place with "\\r\\x1b[K", is erased before the
command ends, and every other line of tcc's (-v stages, errors, bench
results) starts on a line of its own, never after a progress line."""
import argparse
import re
import sys

ERASE = "\r\x1b[K"


def fail(message, data):
    sys.exit("progress_check: %s\noutput was: %r" % (message, data))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--model", required=True)
    parser.add_argument("--stages", action="store_true",
                        help="-v was given: its stage lines must be there")
    parser.add_argument("--then", help="text that must follow the erase")
    parser.add_argument("--maybe-no-line", action="store_true",
                        help="the command may end before a line is drawn")
    args = parser.parse_args()
    data = open(args.file, encoding="utf-8", errors="replace",
                newline="").read()

    progress = re.compile(r"tcc: %s: [a-zA-Z ]+( \d+/\d+ functions)? "
                          r"\(\d+\.\d s\)$" % re.escape(args.model))
    # Split at each "\r\x1b[K": a piece is either a progress line (one
    # line, no newline) or what was printed after an erase.
    pieces = data.split(ERASE)
    drawn = [i for i, piece in enumerate(pieces)
             if i > 0 and progress.match(piece)]
    if not drawn and not args.maybe_no_line:
        fail("no progress line naming %s" % args.model, data)
    if drawn and drawn[-1] == len(pieces) - 1:
        fail("the last progress line is never erased", data)

    # Outside progress lines, text starts at the start of a line.
    lines = []
    for i, piece in enumerate(pieces):
        if i in drawn:
            continue
        for line in piece.replace("\r\n", "\n").split("\n"):
            # One line of tcc's each: none written after a progress line.
            if "tcc: " in line and (not line.startswith("tcc: ") or
                                    line.count("tcc: ") > 1):
                fail("a line of tcc's does not start a line: %r" % line,
                     data)
            lines.append(line)
    if args.stages:
        for stage in ("import", "codegen", "write", "total"):
            if not any(re.match(r"tcc: %s: \d+\.\d{3} s" % stage, line)
                       for line in lines):
                fail("no -v line for stage %r" % stage, data)
    if args.then:
        last = drawn[-1] if drawn else 0
        after = ERASE.join(pieces[last + 1:]) if drawn else data
        if args.then not in after:
            fail("%r does not follow the erased progress line" % args.then,
                 data)


if __name__ == "__main__":
    main()
