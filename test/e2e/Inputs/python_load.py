"""python_load.py LIB - prints what the tcc Python package's tcc.load reads
from a shared library that tcc compile -o LIB made (no header)."""
import sys

import tcc

print(tcc.load(sys.argv[1]))
