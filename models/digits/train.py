#!/usr/bin/env python3
"""train.py - trains the bundled digits CNN (sklearn 8x8 digits) and exports digits.onnx + sample data."""
import argparse
import inspect
import os
import warnings

import numpy as np
import onnx
import onnxruntime as ort
import torch
import torch.nn as nn
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

HERE = os.path.dirname(os.path.abspath(__file__))
NUM_SAMPLES = 100


class DigitsCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),   # 8x4x4
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),  # 16x2x2
        )
        self.fc = nn.Linear(16 * 2 * 2, 10)

    def forward(self, x):
        return self.fc(torch.flatten(self.features(x), 1))


def export_onnx(model, example, path):
    kwargs = dict(input_names=["image"], output_names=["logits"], opset_version=17,
                  do_constant_folding=False,  # keep BatchNormalization as its own node
                  training=torch.onnx.TrainingMode.EVAL)
    if "dynamo" in inspect.signature(torch.onnx.export).parameters:
        kwargs["dynamo"] = False  # the TorchScript exporter
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, (example,), path, **kwargs)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out-dir", default=HERE)
    ap.add_argument("--epochs", type=int, default=40)
    args = ap.parse_args()

    torch.manual_seed(0)
    np.random.seed(0)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)

    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32).reshape(-1, 1, 8, 8)
    y = digits.target.astype(np.int64)
    x_tr, x_te, y_tr, y_te = train_test_split(x, y, test_size=0.25, random_state=0, stratify=y)

    model = DigitsCNN()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    xt, yt = torch.from_numpy(x_tr), torch.from_numpy(y_tr)
    gen = torch.Generator().manual_seed(0)
    for epoch in range(args.epochs):
        model.train()
        for idx in torch.randperm(len(xt), generator=gen).split(64):
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(xt[idx]), yt[idx])
            loss.backward()
            opt.step()

    model.eval()
    with torch.no_grad():
        test_logits = model(torch.from_numpy(x_te)).numpy()
    acc = float((test_logits.argmax(1) == y_te).mean())
    print(f"test accuracy: {acc * 100:.2f}% ({int(round(acc * len(y_te)))}/{len(y_te)} held-out images)")

    os.makedirs(args.out_dir, exist_ok=True)
    onnx_path = os.path.join(args.out_dir, "digits.onnx")
    export_onnx(model, torch.from_numpy(x_te[:1]), onnx_path)
    m = onnx.load(onnx_path)
    onnx.checker.check_model(m, full_check=True)
    ops = sorted({n.op_type for n in m.graph.node})
    print(f"wrote {onnx_path} ({os.path.getsize(onnx_path)} bytes, ops: {', '.join(ops)})")

    samples, labels = x_te[:NUM_SAMPLES], y_te[:NUM_SAMPLES].astype(np.uint8)
    samples.tofile(os.path.join(args.out_dir, "samples.bin"))
    labels.tofile(os.path.join(args.out_dir, "labels.bin"))

    # Sanity: onnxruntime on the exported model agrees with PyTorch on the samples.
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(onnx_path, opts, providers=["CPUExecutionProvider"])
    ort_logits = np.concatenate([sess.run(None, {"image": s[None]})[0] for s in samples])
    err = float(np.abs(ort_logits - test_logits[:NUM_SAMPLES]).max())
    same = int((ort_logits.argmax(1) == test_logits[:NUM_SAMPLES].argmax(1)).sum())
    correct = int((ort_logits.argmax(1) == labels).sum())
    print(f"samples: {NUM_SAMPLES} images; onnxruntime vs pytorch max abs err {err:.3g}, "
          f"top-1 agreement {same}/{NUM_SAMPLES}; onnxruntime accuracy {correct}/{NUM_SAMPLES}")
    if err > 1e-4 or same != NUM_SAMPLES:
        raise SystemExit("error: onnxruntime and pytorch disagree")


if __name__ == "__main__":
    main()
