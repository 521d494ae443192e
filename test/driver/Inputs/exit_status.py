"""exit_status.py - runs a command and checks its exact exit status.

Usage: exit_status.py STATUS COMMAND...   (exits 0 iff COMMAND exits STATUS;
the command's output passes through)."""
import subprocess
import sys

expected = int(sys.argv[1])
status = subprocess.run(sys.argv[2:]).returncode
if status != expected:
    print(f"exit_status.py: expected status {expected}, got {status}", file=sys.stderr)
sys.exit(0 if status == expected else 1)
