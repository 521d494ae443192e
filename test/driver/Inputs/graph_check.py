"""graph_check.py DOT STATS - checks a --graph DOT file against `tcc compile --stats`: one box
per kernel call the stats count, each labelled with a kernel name, every edge between defined
nodes, the model's inputs and outputs as ellipses. Prints a summary line."""
import re
import sys

dot = open(sys.argv[1]).read()
stats = open(sys.argv[2]).read()
want = int(re.search(r"^kernels: (\d+)", stats, re.M).group(1))
kernels = re.findall(r'^  (k\d+) \[label="([^"\\]*)', dot, re.M)
ends = re.findall(r'^  (b\d+) \[shape=ellipse, label="(input|output) ', dot, re.M)
defined = {k for k, _ in kernels} | {b for b, _ in ends}
edges = re.findall(r"^  ([kb]\d+) -> ([kb]\d+) ", dot, re.M)
assert dot.startswith("// The fused graph") and dot.rstrip().endswith("}"), "not a whole graph"
assert len(kernels) == want, f"{len(kernels)} kernel boxes, --stats says {want}"
assert all(re.fullmatch(r"\w+_k\d+_\w+", name) for _, name in kernels), "a box without a kernel name"
bad = [e for e in edges if e[0] not in defined or e[1] not in defined]
assert not bad, f"edges to undefined nodes: {bad}"
print(f"graph: {len(kernels)} kernels, {sum(k == 'input' for _, k in ends)} inputs, "
      f"{sum(k == 'output' for _, k in ends)} outputs, {len(edges)} edges")
