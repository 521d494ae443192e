"""Checks that docs/cli.md describes the command line `tcc --help` shows:
a section for each subcommand, and every option of every subcommand."""
import re
import subprocess
import sys


def help_text(tcc, *args):
    return subprocess.run([tcc, *args, "--help"], check=True,
                          capture_output=True, text=True).stdout


def section(text, title):
    """The lines of `text` under `title:` up to the next such title."""
    lines, inside = [], False
    for line in text.splitlines():
        if re.match(r"^[A-Z][A-Za-z ]*:\s*$", line):
            inside = line.strip().lower() == title.lower() + ":"
        elif inside:
            lines.append(line)
    return lines


def options(text):
    """The option names (-o, --output) of a subcommand's --help."""
    names = []
    for line in section(text, "OPTIONS"):
        m = re.match(r"^\s+(-[\w-]+(?:\s*,\s*-[\w-]+)*)", line)
        if m:
            names += [n.strip() for n in m.group(1).split(",")]
    return [n for n in names if n not in ("-h", "--help")]


def main():
    tcc, doc_path = sys.argv[1], sys.argv[2]
    doc = open(doc_path, encoding="utf-8").read()
    top = help_text(tcc)
    subcommands = [line.split()[0]
                   for line in section(top, "SUBCOMMANDS")
                   if line.strip()]
    if len(subcommands) < 4:
        sys.exit("cli_docs_check: found only %s in tcc --help" % subcommands)
    missing = ["%s of tcc" % name for name in options(top)
               if not re.search(r"(`|, )%s[ `,=\\|]" % re.escape(name), doc)]
    for sub in subcommands:
        if "## `tcc %s`" % sub not in doc:
            missing.append("a section `tcc %s`" % sub)
        names = options(help_text(tcc, sub))
        if not names:
            sys.exit("cli_docs_check: no options read from tcc %s --help"
                     % sub)
        for name in names:
            if not re.search(r"(`|, )%s[ `,=\\|]" % re.escape(name), doc):
                missing.append("%s of tcc %s" % (name, sub))
    if missing:
        sys.exit("cli_docs_check: %s does not describe: %s"
                 % (doc_path, "; ".join(missing)))
    print("cli_docs_check: %d subcommands, every option described"
          % len(subcommands))


if __name__ == "__main__":
    main()
