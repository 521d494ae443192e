#!/usr/bin/env python3
"""export_torchvision.py - exports a seeded random-weight torchvision classifier to ONNX (cached, atomic)."""
import argparse
import inspect
import os
import sys
import tempfile
import warnings

MODELS = ("resnet18", "mobilenet_v2")


def publish(tmp, out_path):
    """Moves the finished temporary file `tmp` to `out_path` with the permissions of a file
    created normally (mkstemp makes it 0600), atomically."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)
    os.replace(tmp, out_path)


def build_model(name):
    """The torchvision architecture `name`, random weights from torch.manual_seed(0), eval mode."""
    import torch
    import torchvision

    torch.manual_seed(0)
    ctor = getattr(torchvision.models, name)
    try:
        model = ctor(weights=None)
    except TypeError:  # torchvision < 0.13
        model = ctor(pretrained=False)
    return calibrate_batchnorm(model)


def calibrate_batchnorm(model, batches=4, batch_size=8, input_shape=(3, 224, 224)):
    """Sets BatchNorm running statistics from seeded random inputs of shape
    [batch_size, *input_shape], then returns the model in eval mode. torchvision's default init
    alone makes mobilenet_v2's outputs ~1e-9 (activations vanish through the depthwise
    convolutions), which would make any tolerance check vacuous."""
    import torch

    bns = [m for m in model.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    if not bns:
        return model.eval()
    for bn in bns:
        bn.reset_running_stats()
        bn.momentum = None  # cumulative average over the calibration batches
    gen = torch.Generator().manual_seed(1234)
    model.train()
    with torch.no_grad():
        for _ in range(batches):
            model(torch.randn(batch_size, *input_shape, generator=gen))
    return model.eval()


def export(name, out_path, verbose=True):
    """Writes `out_path` unless it already exists; returns out_path."""
    if name not in MODELS:
        raise ValueError(f"unknown model {name!r} (known: {', '.join(MODELS)})")
    if os.path.exists(out_path):
        if verbose:
            print(f"export_torchvision: {out_path} exists, not exported again")
        return out_path
    import torch

    model = build_model(name)
    example = torch.randn(1, 3, 224, 224, generator=torch.Generator().manual_seed(0))
    kwargs = dict(input_names=["input"], output_names=["output"], opset_version=17)
    if "dynamo" in inspect.signature(torch.onnx.export).parameters:
        kwargs["dynamo"] = False  # the TorchScript exporter
    out_dir = os.path.dirname(os.path.abspath(out_path))
    os.makedirs(out_dir, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".onnx.tmp", dir=out_dir)
    os.close(fd)
    try:
        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")
            torch.onnx.export(model, (example,), tmp, **kwargs)
        publish(tmp, out_path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    if verbose:
        print(f"export_torchvision: wrote {out_path} ({os.path.getsize(out_path)} bytes)")
    return out_path


def check_against_torch(name, onnx_path):
    """Runs PyTorch and onnxruntime on one seeded input; returns the max abs difference."""
    import numpy as np
    import onnxruntime as ort
    import torch

    x = torch.randn(1, 3, 224, 224, generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        ref = build_model(name)(x).numpy()
    sess = ort.InferenceSession(onnx_path, providers=["CPUExecutionProvider"])
    got = sess.run(None, {"input": x.numpy()})[0]
    err = float(np.abs(got - ref).max())
    print(f"export_torchvision: {name}: onnxruntime vs pytorch max abs err {err:.3g} "
          f"(max |ref| {float(np.abs(ref).max()):.3g}), top-1 {'same' if got.argmax() == ref.argmax() else 'DIFFERENT'}")
    return err


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--model", required=True, choices=MODELS)
    ap.add_argument("--out", required=True, help="PATH.onnx (kept when it already exists)")
    ap.add_argument("--check", action="store_true", help="compare onnxruntime with PyTorch afterwards")
    args = ap.parse_args()
    export(args.model, args.out)
    if args.check and check_against_torch(args.model, args.out) > 1e-3:
        sys.exit("export_torchvision: error: onnxruntime and PyTorch disagree")


if __name__ == "__main__":
    main()
