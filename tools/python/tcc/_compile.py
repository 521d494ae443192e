"""tcc.compile: a PyTorch module exported to ONNX, compiled by tcc into a
shared library, loaded, and called like the module."""
import contextlib
import hashlib
import inspect
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

from ._binary import tcc_binary, tcc_version
from ._runtime import Model, TccError

__all__ = ["compile", "CompiledModule", "TccCompileError", "default_cache_dir"]


class TccCompileError(RuntimeError):
    """tcc could not compile the exported model. `unsupported` lists the
    nodes whose ops tcc does not support, all of them, each a dict with
    node, op, domain, opset and module (the PyTorch module it came from,
    when the exporter's node name says)."""

    def __init__(self, message, unsupported=()):
        super().__init__(message)
        self.unsupported = list(unsupported)


def default_cache_dir():
    """Where compiled models are kept: $TCC_CACHE_DIR, else
    $XDG_CACHE_HOME/tcc, else ~/.cache/tcc."""
    env = os.environ.get("TCC_CACHE_DIR")
    if env:
        return env
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "tcc")


_UNSUPPORTED = re.compile(
    r"unsupported operator: node '(.*)' op (\S+) \(domain ([^,)]+)"
    r"(?:, opset (\d+))?\)")


def _module_of(node, modules):
    """The PyTorch module an exported node came from: the TorchScript
    exporter names nodes by their module scopes (/layer1/layer1.0/conv1/
    Conv), the last scope relative to the one before it."""
    scopes = node.strip("/").split("/")[:-1]
    for k in range(len(scopes)):
        path = ".".join(scopes[k:])
        if path in modules:
            return path
        # "layer1.0" then "conv1": the scope before is a full path.
        if k + 1 < len(scopes):
            joined = scopes[k] + "." + ".".join(scopes[k + 1:])
            if joined in modules:
                return joined
    return None


def _flatten(value):
    import torch.utils._pytree as pytree
    return pytree.tree_flatten(value)


def _hash_module(module, h):
    """The module's structure, code and parameters into `h`."""
    import torch
    h.update(repr(module).encode())
    seen = set()
    for sub in module.modules():
        cls = type(sub)
        if cls in seen:
            continue
        seen.add(cls)
        h.update(("%s.%s" % (cls.__module__, cls.__qualname__)).encode())
        try:
            h.update(inspect.getsource(cls).encode())
        except (OSError, TypeError):
            pass
    for name, t in list(module.state_dict(keep_vars=True).items()):
        if not isinstance(t, torch.Tensor):  # a module's extra state
            h.update(("%s %r" % (name, t)).encode())
            continue
        t = t.detach()
        h.update(("%s %s %s" % (name, t.dtype, tuple(t.shape))).encode())
        h.update(memoryview(t.cpu().contiguous().reshape(-1).view(
            torch.uint8).numpy()))


def _dynamic_axes(dynamic, input_names):
    """{input: {dim: name}} and {name: max or None} from `dynamic`:
    {"batch": (0, "x")}, {"seq": (1, "ids", 128)} (a bound: --max-dim), a
    list of such tuples per name, or torch.onnx's {"x": {0: "batch"}}."""
    axes, bounds = {}, {}
    for key, value in (dynamic or {}).items():
        if isinstance(value, dict):  # {"x": {0: "batch"}}
            if key not in input_names:
                raise ValueError("dynamic: no input %r (inputs: %s)" %
                                 (key, ", ".join(input_names)))
            for dim, name in value.items():
                name = getattr(name, "__name__", name)  # torch.export.Dim
                axes.setdefault(key, {})[int(dim)] = str(name)
                bounds.setdefault(str(name), None)
            continue
        pairs = value if isinstance(value, list) else [value]
        for pair in pairs:
            if not (isinstance(pair, tuple) and len(pair) in (2, 3)):
                raise ValueError(
                    "dynamic[%r]: expected (dim, input) or (dim, input, max),"
                    " got %r" % (key, pair))
            dim, name = pair[0], pair[1]
            if name not in input_names:
                raise ValueError("dynamic[%r]: no input %r (inputs: %s)" %
                                 (key, name, ", ".join(input_names)))
            axes.setdefault(name, {})[int(dim)] = key
            bounds[key] = pair[2] if len(pair) == 3 else bounds.get(key)
    return axes, bounds


class CompiledModule:
    """What tcc.compile returns: called like the module, on torch tensors
    (or numpy arrays), it runs tcc's compiled code and returns the
    module's output structure (a tensor, or tuples, lists and dicts of
    them) of torch tensors (numpy arrays when every input is one)."""

    def __init__(self, model, library, onnx_path, input_names, spec, module,
                 from_cache, compile_seconds):
        self.model = model
        self.library = library
        self.onnx_path = onnx_path
        self.input_names = input_names
        self._spec = spec
        self.module = module
        self.from_cache = from_cache
        self.compile_seconds = compile_seconds

    def __call__(self, *args, **kwargs):
        args = list(args)
        for name in self.input_names[len(args):]:
            if name not in kwargs:
                raise TypeError("missing input %r" % name)
            args.append(kwargs.pop(name))
        if kwargs or len(args) != len(self.input_names):
            raise TypeError("the compiled module takes %d inputs (%s)" % (
                len(self.input_names), ", ".join(self.input_names)))
        import torch
        if any(isinstance(x, torch.Tensor) for x in args):
            args = [x if isinstance(x, torch.Tensor) else torch.as_tensor(x)
                    for x in args]
        else:  # numpy in, numpy out
            args = [np.asarray(x) for x in args]
        outputs = self.model.run(args)
        import torch.utils._pytree as pytree
        return pytree.tree_unflatten(outputs, self._spec)

    forward = __call__

    def eval(self):
        return self

    def __repr__(self):
        return "tcc.CompiledModule(%s, %s%s)" % (
            type(self.module).__name__, self.library,
            ", from the cache" if self.from_cache else "")

    def save(self, path, name=None):
        """Compiles the same exported model to an object file (or a shared
        library: .so) and its header for a C program."""
        name = name or re.sub(r"\W", "_", os.path.splitext(
            os.path.basename(path))[0])
        if not re.match(r"[A-Za-z]", name):
            name = "model_" + name
        args = [tcc_binary(), "compile", self.onnx_path, "-o",
                os.fspath(path), "--name", name] + self._compile_args
        _run_tcc(args, self.module)
        return path


def _run_tcc(args, module):
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode == 0:
        return out
    modules = dict(module.named_modules()) if module is not None else {}
    unsupported = []
    for m in _UNSUPPORTED.finditer(out.stderr):
        unsupported.append({
            "node": m.group(1), "op": m.group(2), "domain": m.group(3),
            "opset": int(m.group(4)) if m.group(4) else None,
            "module": _module_of(m.group(1), modules)})
    lines = [l for l in out.stderr.splitlines() if l.strip()]
    if unsupported:
        where = ["  node %r: %s (domain %s%s)%s" % (
            u["node"], u["op"], u["domain"],
            ", opset %d" % u["opset"] if u["opset"] else "",
            " in module %r" % u["module"] if u["module"] else "")
            for u in unsupported]
        message = ("tcc does not support %d operator%s of the exported "
                   "model:\n%s" % (len(unsupported),
                                   "s" * (len(unsupported) > 1),
                                   "\n".join(where)))
    else:
        message = "tcc compile failed:\n" + "\n".join(lines[-20:])
    raise TccCompileError(message, unsupported)


@contextlib.contextmanager
def _quiet():
    """stdout and stderr, Python's and the file descriptors' (the
    TorchScript exporter prints graphs from C++), into a discarded file."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = []
    try:
        with tempfile.TemporaryFile() as sink, \
                contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()):
            try:
                for fd in (1, 2):
                    saved.append((fd, os.dup(fd)))
                    os.dup2(sink.fileno(), fd)
            except OSError:
                pass
            yield
    finally:
        for fd, copy in saved:
            os.dup2(copy, fd)
            os.close(copy)


def _export(module, example, input_names, output_names, axes, path):
    """torch.onnx.export: the TorchScript exporter at opset 17 first (its
    node names follow module scopes, and tcc's suite tests it most), then
    the dynamo exporter where torch has it. TccCompileError when neither
    exports the module."""
    import torch
    kwargs = dict(input_names=input_names, output_names=output_names,
                  dynamic_axes=axes or None)
    has_dynamo = "dynamo" in inspect.signature(torch.onnx.export).parameters
    attempts = [dict(kwargs, opset_version=17,
                     **({"dynamo": False} if has_dynamo else {}))]
    if has_dynamo:
        attempts.append(dict(kwargs, dynamo=True, external_data=False,
                             verbose=False))
    reasons = []
    for options in attempts:
        try:
            # The exporters report progress and failures on stdout.
            with warnings.catch_warnings(), _quiet():
                warnings.simplefilter("ignore")
                torch.onnx.export(module, tuple(example), path, **options)
            if os.path.exists(path) and os.path.getsize(path):
                return
            reasons.append("the exporter wrote no model")
        except Exception as e:  # the exporters raise many kinds
            text = re.sub(r"\x1b\[[0-9;]*m", "", str(e)).strip()
            first = (text.splitlines() or [""])[0]
            reasons.append("%s: %s" % (type(e).__name__, first[:300]))
    raise TccCompileError("torch.onnx.export cannot export %s: %s" % (
        type(module).__name__, "; then ".join(reasons)))


_warned = set()


def compile(module, example_inputs, *, dynamic=None, target="cpu",
            threads=None, options=(), cache_dir=None, fallback=None):
    """Compiles `module` (a torch.nn.Module) for `example_inputs` (a tuple of
    tensors) with tcc and returns a CompiledModule that runs tcc's code.

    dynamic: dims that vary at run time, e.g. {"batch": (0, "x")} (dim 0 of
      input x: any batch, one compile), {"seq": (1, "ids", 128)} (up to a
      bound: --max-dim), or torch.onnx's {"x": {0: "batch"}}; other dims
      are the example's.
    target: "cpu" or "cuda" (tcc compile --target).
    threads: the size of the compiled model's thread pool (None: one per
      CPU).
    options: more tcc compile arguments, e.g. ("--no-winograd",).
    cache_dir: where compiled models are kept
      (default_cache_dir()). The key is the exported graph, the options
      and the tcc binary; a
      second compile of the same module (its code, structure and weights)
      and inputs loads the library without exporting again.
    fallback: None (errors raise TccCompileError, naming every unsupported
      node at once), or "eager": warn once and return `module` itself.
    """
    if fallback not in (None, "eager"):
        raise ValueError("fallback must be None or 'eager', not %r" %
                         (fallback,))
    import torch
    start = time.perf_counter()
    example = tuple(example_inputs) if isinstance(
        example_inputs, (tuple, list)) else (example_inputs,)
    example = tuple(torch.as_tensor(x) for x in example)
    params = [p for p in inspect.signature(module.forward).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    input_names = [p.name for p in params[:len(example)]]
    input_names += ["input_%d" % k for k in
                    range(len(input_names), len(example))]
    axes, bounds = _dynamic_axes(dynamic, input_names)
    # The structure pass and the export see the module in eval mode (as
    # torch.onnx.export does), so batch norms keep their running stats.
    training = module.training
    module.eval()
    try:
        with torch.no_grad():
            eager = module(*example)
    finally:
        module.train(training)
    flat, spec = _flatten(eager)
    if not all(isinstance(t, torch.Tensor) for t in flat):
        raise TypeError("tcc.compile: the module's outputs must be tensors "
                        "(in tuples, lists or dicts); got %s" %
                        [type(t).__name__ for t in flat])
    output_names = ["output_%d" % k for k in range(len(flat))]
    # Outputs that lead with the batch of the inputs' dim 0 follow it.
    lead = {n: d[0] for n, d in axes.items() if 0 in d}
    if lead:
        name = next(iter(lead.values()))
        size = example[input_names.index(next(iter(lead)))].shape[0]
        for out_name, t in zip(output_names, flat):
            if t.dim() and t.shape[0] == size:
                axes[out_name] = {0: name}
    compile_args = ["--target", target]
    for name, bound in bounds.items():
        if bound is not None:
            compile_args += ["--max-dim", "%s=%d" % (name, bound)]
    compile_args += list(options)
    binary = tcc_binary()
    version = tcc_version(binary)
    root = cache_dir or default_cache_dir()
    os.makedirs(os.path.join(root, "modules"), exist_ok=True)

    # The module's key: its code, structure and weights, the inputs and the
    # options, so that a second compile skips the export.
    h = hashlib.sha256()
    _hash_module(module, h)
    h.update(json.dumps([version, compile_args, input_names,
                         [(str(x.dtype), tuple(x.shape)) for x in example],
                         sorted((k, sorted(v.items()))
                                for k, v in axes.items())]).encode())
    module_key = os.path.join(root, "modules", h.hexdigest())
    entry = None
    if os.path.exists(module_key):
        with open(module_key) as f:
            entry = os.path.join(root, f.read().strip())
        if not os.path.exists(os.path.join(entry, "model.so")):
            entry = None
    from_cache = entry is not None
    try:
        if entry is None:
            entry = _build(module, example, input_names, output_names, axes,
                           compile_args, binary, version, root)
            tmp = module_key + ".%d.tmp" % os.getpid()
            with open(tmp, "w") as f:
                f.write(os.path.basename(entry))
            os.replace(tmp, module_key)
    except TccCompileError as e:
        if fallback != "eager":
            raise
        if id(module) not in _warned:
            _warned.add(id(module))
            warnings.warn("tcc.compile: running %s eagerly: %s" %
                          (type(module).__name__, e), RuntimeWarning,
                          stacklevel=2)
        return module
    model = Model(os.path.join(entry, "model.so"), threads=threads)
    compiled = CompiledModule(model, os.path.join(entry, "model.so"),
                              os.path.join(entry, "model.onnx"), input_names,
                              spec, module, from_cache,
                              time.perf_counter() - start)
    compiled._compile_args = compile_args
    return compiled


def _build(module, example, input_names, output_names, axes, compile_args,
           binary, version, root):
    """Exports, keys the graph, compiles (unless that graph is cached):
    the cache entry's folder."""
    os.makedirs(root, exist_ok=True)
    work = tempfile.mkdtemp(prefix=".build.", dir=root)
    try:
        onnx_path = os.path.join(work, "model.onnx")
        _export(module, example, input_names, output_names, axes, onnx_path)
        h = hashlib.sha256()
        with open(onnx_path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        h.update(json.dumps([version, compile_args]).encode())
        entry = os.path.join(root, h.hexdigest()[:32])
        if os.path.exists(os.path.join(entry, "model.so")):
            return entry
        args = [binary, "compile", onnx_path, "-o",
                os.path.join(work, "model.so"), "--name", "model"]
        _run_tcc(args + compile_args, module)
        try:
            os.rename(work, entry)
        except OSError:  # another process made it first
            if not os.path.exists(os.path.join(entry, "model.so")):
                raise
        else:
            work = None
        return entry
    finally:
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
