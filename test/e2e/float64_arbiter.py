"""Checks utils/model_suite.py's float64 arbiter on a model whose float32 results round
differently: a long dot product (a Linear layer with 20000 inputs, seeded weights).

  closer: a float32 result rounded once from the float64 one passes arbitration against a
          float32 reference computed by PyTorch (which rounds after every partial sum);
  worse:  that reference, with one element off by 1e-3, does not;
  mismatch: a reference from other weights (the PyTorch model is not what was exported) never
          lets a result pass."""
import argparse
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "utils"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "models"))
import export_suite  # noqa: E402
import model_suite  # noqa: E402


def build():
    return torch.nn.Linear(20000, 64).eval()


spec = export_suite.Spec("long_dot", "custom", "test", build,
                         [export_suite.Input("x", (1, 20000))], ["y"])
feeds = {"x": np.random.default_rng(0).standard_normal((1, 20000)).astype(np.float32)}
args = argparse.Namespace(rtol=1e-3, atol=1e-4)
truth = export_suite.float64_outputs(spec, feeds)[0]
torch.manual_seed(0)
with torch.no_grad():
    ref32 = build()(torch.from_numpy(feeds["x"])).numpy()
refs = {"y": ref32}

rounded = truth.astype(np.float32)
print("closer:", model_suite.float64_arbiter(args, spec, feeds, refs, {"y": rounded})["closer"])
worse = ref32.copy()
worse[0, 3] += 1e-3
print("worse:", model_suite.float64_arbiter(args, spec, feeds, refs, {"y": worse})["closer"])
other = {"y": ref32 + np.float32(1.0)}
verdict = model_suite.float64_arbiter(args, spec, feeds, other, {"y": rounded})
print("mismatch:", verdict["closer"], "|", verdict["detail"])
