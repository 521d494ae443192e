"""kernel_plan_check.py PLAN.json STATS MODEL.onnx [DIM=V ...] - checks the kernel plan of
`tcc inspect --kernels --json` against the compile's `--stats` and against the
model as onnx reads it: one entry per kernel call the stats count, each named
as a kernel and listing only nodes of the model; every Conv, Gemm and MatMul
inside some kernel; and the kernels' FLOPs adding up to those of the model's
contractions, computed here from onnx's own shape inference (2 per
multiply-add); no kernel naming two of them (each computes one, and must
not name another that CSE made share an op with it). Prints a summary
line."""
import json
import math
import re
import sys

import onnx


def dims(shapes, name):
    return [d.dim_value for d in shapes[name].tensor_type.shape.dim]


def contraction_flops(model, pinned):
    for v in model.graph.input:
        for d in v.type.tensor_type.shape.dim:
            if d.dim_param in pinned:
                d.dim_value = pinned[d.dim_param]
    model = onnx.shape_inference.infer_shapes(model, strict_mode=True,
                                              data_prop=True)
    g = model.graph
    shapes = {v.name: v.type for v in
              list(g.input) + list(g.value_info) + list(g.output)}
    for t in g.initializer:
        shapes[t.name] = onnx.helper.make_tensor_type_proto(t.data_type,
                                                            t.dims)
    flops = {}
    for n in g.node:
        if n.op_type == "Conv":
            w, y = dims(shapes, n.input[1]), dims(shapes, n.output[0])
            # Each output element: C/group x kernel multiply-adds.
            flops[n.name] = 2 * math.prod(y) * math.prod(w[1:])
        elif n.op_type == "Gemm":
            a = dims(shapes, n.input[0])
            trans_a = any(x.name == "transA" and x.i for x in n.attribute)
            y = dims(shapes, n.output[0])
            flops[n.name] = 2 * math.prod(y) * (a[0] if trans_a else a[1])
        elif n.op_type == "MatMul":
            a, y = dims(shapes, n.input[0]), dims(shapes, n.output[0])
            flops[n.name] = 2 * math.prod(y) * a[-1]
    return flops


def main():
    plan = json.load(open(sys.argv[1]))["kernel_plan"]
    stats = open(sys.argv[2]).read()
    model = onnx.load(sys.argv[3])
    kernels = plan["kernels"]
    want = int(re.search(r"^kernels: (\d+)", stats, re.M).group(1))
    assert len(kernels) == want, f"{len(kernels)} kernels, --stats says {want}"
    distinct = re.search(r"; (\d+) distinct\)", stats).group(1)
    assert plan["functions"] == int(distinct), \
        f"{plan['functions']} functions, --stats says {distinct} distinct"
    names = {n.name for n in model.graph.node}
    for k in kernels:
        assert re.fullmatch(r"\w+_k\d+_\w+", k["name"]), k["name"]
        assert set(k["nodes"]) <= names, \
            f"{k['name']}: nodes not in the model: {set(k['nodes']) - names}"
    pinned = dict((a.split("=")[0], int(a.split("=")[1])) for a in sys.argv[4:])
    flops = contraction_flops(model, pinned)
    for k in kernels:
        mine = [n for n in k["nodes"] if n in flops]
        assert len(mine) <= 1, f"{k['name']} names contractions {mine}"
    covered = {n for k in kernels for n in k["nodes"]}
    missing = set(flops) - covered
    assert not missing, f"contractions in no kernel: {missing}"
    got = sum(k["flops"] for k in kernels)
    assert got == sum(flops.values()), \
        f"kernels' FLOPs {got}, onnx's shapes give {sum(flops.values())}"
    print(f"kernel plan: {len(kernels)} kernels, {plan['functions']} "
          f"functions, {got} FLOPs as onnx's shapes give")


if __name__ == "__main__":
    main()
