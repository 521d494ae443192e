"""tcc.load: runs a shared library made by `tcc compile -o X.so` through
ctypes, with numpy arrays or torch tensors, like an onnxruntime
InferenceSession. The library describes itself (tcc_library_info), so no
header is needed."""
import ctypes
import os
import threading

import numpy as np

__all__ = ["load", "Model", "TensorInfo", "TccError"]


class TccError(RuntimeError):
    """A compiled model's call failed: the runtime's message."""


class _TensorInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("dtype", ctypes.c_int),
                ("rank", ctypes.c_int32),
                ("dims", ctypes.POINTER(ctypes.c_int64)),
                ("num_elements", ctypes.c_size_t),
                ("size_bytes", ctypes.c_size_t),
                ("dim_names", ctypes.POINTER(ctypes.c_char_p)),
                ("batch_multiple", ctypes.c_int64),
                ("run_time_dims", ctypes.c_uint32)]


class _ModelInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("num_inputs", ctypes.c_int32),
                ("num_outputs", ctypes.c_int32),
                ("inputs", ctypes.POINTER(_TensorInfo)),
                ("outputs", ctypes.POINTER(_TensorInfo)),
                ("workspace_size", ctypes.c_size_t),
                ("weights_bytes", ctypes.c_uint64),
                ("weights_fingerprint", ctypes.c_uint64),
                ("batch_dim", ctypes.c_char_p),
                ("bounded_dim", ctypes.c_char_p)]


class _Tensor(ctypes.Structure):
    _fields_ = [("dtype", ctypes.c_int), ("rank", ctypes.c_int32),
                ("dims", ctypes.POINTER(ctypes.c_int64)),
                ("data", ctypes.c_void_p),
                ("result_dims", ctypes.POINTER(ctypes.c_int64))]


class _Error(ctypes.Structure):
    _fields_ = [("message", ctypes.c_char * 256)]


# tcc_dtype (ONNX's TensorProto numbering) -> numpy dtype name.
_NUMPY = {1: "float32", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16",
          6: "int32", 7: "int64", 9: "bool", 10: "float16", 11: "float64",
          12: "uint32", 13: "uint64", 16: "bfloat16"}


class TensorInfo:
    """An input or output of a compiled model. `shape` holds ints, or the
    name of a dim that varies at run time (the batch, a bounded dim) or that
    is known only after the run."""

    def __init__(self, info, batch_dim, bounded_dim):
        self.name = info.name.decode()
        self.dtype = _NUMPY.get(info.dtype, "dtype %d" % info.dtype)
        self._dtype_code = info.dtype
        self._dims = [info.dims[d] for d in range(info.rank)]
        self.batch_multiple = info.batch_multiple
        self.run_time_dims = info.run_time_dims
        names = [info.dim_names[d].decode() if info.dim_names else ""
                 for d in range(info.rank)]
        shape = list(self._dims)
        if self.batch_multiple and shape:
            shape[0] = batch_dim
        for d in range(info.rank):
            if info.run_time_dims >> d & 1:
                shape[d] = bounded_dim or names[d] or "<=%d" % self._dims[d]
        self.shape = shape

    def __repr__(self):
        return "TensorInfo(name=%r, dtype=%r, shape=%r)" % (
            self.name, self.dtype, self.shape)


def _find_library_symbol(lib, path):
    try:
        fn = lib.tcc_library_info
    except AttributeError:
        raise TccError("%s has no tcc_library_info: it is not a shared "
                       "library made by tcc compile -o X.so (or one made by "
                       "an older tcc: compile it again)" % path) from None
    fn.restype = ctypes.POINTER(_ModelInfo)
    fn.argtypes = []
    return fn()


class Model:
    """A compiled model loaded from a shared library. Calls on one Model
    take turns (one workspace); load the library again for parallel calls.
    """

    def __init__(self, path, threads=None, weights=None):
        self.path = os.fspath(path)
        self._lib = ctypes.CDLL(os.path.abspath(self.path))
        info = _find_library_symbol(self._lib, self.path)
        self._info = info
        i = info.contents
        self.name = i.name.decode()
        self.batch_dim = i.batch_dim.decode() if i.batch_dim else None
        self.bounded_dim = i.bounded_dim.decode() if i.bounded_dim else None
        self.inputs = [TensorInfo(i.inputs[k], self.batch_dim,
                                  self.bounded_dim)
                       for k in range(i.num_inputs)]
        self.outputs = [TensorInfo(i.outputs[k], self.batch_dim,
                                   self.bounded_dim)
                        for k in range(i.num_outputs)]
        lib = self._lib
        lib.tcc_workspace_alloc.restype = ctypes.c_void_p
        lib.tcc_workspace_alloc.argtypes = [ctypes.c_size_t]
        lib.tcc_workspace_free.argtypes = [ctypes.c_void_p]
        lib.tcc_context_create.argtypes = [ctypes.c_int32,
                                           ctypes.POINTER(ctypes.c_void_p)]
        lib.tcc_context_destroy.argtypes = [ctypes.c_void_p]
        lib.tcc_status_string.restype = ctypes.c_char_p
        lib.tcc_status_string.argtypes = [ctypes.c_int]
        lib.tcc_run_error_message.restype = ctypes.c_char_p
        self._run = ctypes.cast(getattr(lib, self.name + "_run_packed_ctx"),
                                ctypes.c_void_p)
        self._weights = None
        if i.weights_bytes:
            self._open_weights(weights or os.path.splitext(self.path)[0] +
                               ".weights", i)
        self._workspace_size = i.workspace_size
        self._workspace = lib.tcc_workspace_alloc(i.workspace_size)
        if not self._workspace:
            raise MemoryError("tcc_workspace_alloc(%d)" % i.workspace_size)
        ctx = ctypes.c_void_p()
        status = lib.tcc_context_create(int(threads or 0), ctypes.byref(ctx))
        if status:
            raise TccError("tcc_context_create: " +
                           lib.tcc_status_string(status).decode())
        self._context = ctx
        self.threads = threads
        self._lock = threading.Lock()
        self._plans = {}
        # The arguments every call passes, converted once.
        self._workspace_arg = ctypes.c_void_p(self._workspace)
        self._workspace_bytes = ctypes.c_size_t(self._workspace_size)
        self._error = _Error()
        self._error_arg = ctypes.byref(self._error)

    def _open_weights(self, path, info):
        lib = self._lib
        lib.tcc_weights_open.argtypes = [
            ctypes.c_char_p, ctypes.c_uint64, ctypes.c_uint64,
            ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(_Error)]
        lib.tcc_weights_close.argtypes = [ctypes.c_void_p]
        handle, error = ctypes.c_void_p(), _Error()
        status = lib.tcc_weights_open(os.fsencode(path), info.weights_bytes,
                                      info.weights_fingerprint,
                                      ctypes.byref(handle),
                                      ctypes.byref(error))
        if status:
            raise TccError(error.message.decode() or
                           lib.tcc_status_string(status).decode())
        self._weights = handle

    def close(self):
        """Frees the workspace, the threads and the weights (also done when
        the Model is collected)."""
        lib = getattr(self, "_lib", None)
        if lib is None:
            return
        if getattr(self, "_context", None):
            lib.tcc_context_destroy(self._context)
            self._context = None
        if getattr(self, "_workspace", None):
            lib.tcc_workspace_free(self._workspace)
            self._workspace = None
        if getattr(self, "_weights", None):
            lib.tcc_weights_close(self._weights)
            self._weights = None

    def __del__(self):
        self.close()

    @property
    def input_names(self):
        return [t.name for t in self.inputs]

    @property
    def output_names(self):
        return [t.name for t in self.outputs]

    def __repr__(self):
        return "tcc.Model(%r: inputs %r, outputs %r)" % (
            self.path, self.inputs, self.outputs)

    def run(self, inputs, output_names=None):
        """Runs the model. `inputs`: a dict by input name, or a sequence in
        model order, of numpy arrays or torch tensors (passed without a copy
        when contiguous and of the model's dtype). Returns the outputs in
        model order (or those of `output_names`), as numpy arrays, or as
        torch tensors when an input is one."""
        if isinstance(inputs, dict):
            missing = [n for n in self.input_names if n not in inputs]
            extra = [n for n in inputs if n not in self.input_names]
            if missing or extra:
                raise TccError("%s: inputs %s; got %s" % (
                    self.name, self.input_names, sorted(inputs)))
            inputs = [inputs[n] for n in self.input_names]
        inputs = list(inputs)
        if len(inputs) != len(self.inputs):
            raise TccError("%s takes %d inputs (%s), got %d" % (
                self.name, len(self.inputs), ", ".join(self.input_names),
                len(inputs)))
        torch = _torch_if_any(inputs)
        arrays = [_contiguous(x, info, torch)
                  for x, info in zip(inputs, self.inputs)]
        key = (torch is not None,
               tuple(tuple(a.shape) for a in arrays))
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = _Plan(self, arrays)
        outputs = [_empty(dims, info, torch)
                   for dims, info in zip(plan.output_dims, self.outputs)]
        lib = self._lib
        with self._lock:
            error = self._error
            for k, a in enumerate(arrays):
                plan.inputs[k].data = _address(a, torch)
            for k, out in enumerate(outputs):
                plan.outputs[k].data = _address(out, torch)
            if self._weights is not None:
                status = lib.tcc_run_tensors_weights(
                    self._context, self._weights, self._info, self._run,
                    plan.inputs, len(arrays), plan.outputs, len(outputs),
                    self._workspace_arg, self._workspace_bytes, self._error_arg)
            else:
                status = lib.tcc_run_tensors_ctx(
                    self._context, self._info, self._run, plan.inputs,
                    len(arrays), plan.outputs, len(outputs),
                    self._workspace_arg, self._workspace_bytes, self._error_arg)
            if status:
                message = error.message.decode()
                error.message = b""
                if not message and status in (7, 8):  # TCC_ERROR_BRANCH, _CPU
                    message = lib.tcc_run_error_message().decode()
                raise TccError("%s: %s" % (
                    self.name, message or
                    lib.tcc_status_string(status).decode()))
            for k, info in enumerate(self.outputs):
                if info.run_time_dims:
                    result = plan.outputs[k].result_dims
                    dims = [result[d] for d in range(plan.outputs[k].rank)]
                    n = int(np.prod(dims)) if dims else 1
                    outputs[k] = outputs[k].reshape(-1)[:n].reshape(dims)
        if output_names is not None:
            return [outputs[self.output_names.index(n)] for n in output_names]
        return outputs

    def __call__(self, *inputs):
        outputs = self.run(inputs)
        return outputs[0] if len(outputs) == 1 else tuple(outputs)


def _torch_if_any(values):
    for x in values:
        if type(x).__module__.startswith("torch"):
            import torch
            return torch
    return None


def _torch_dtype(torch, info):
    if info.dtype == "bfloat16":
        return torch.bfloat16
    return getattr(torch, info.dtype)


def _empty(dims, info, torch):
    if torch is not None:
        return torch.empty(dims, dtype=_torch_dtype(torch, info))
    if info.dtype == "bfloat16":
        return np.empty(dims, np.uint16)  # bfloat16 bits
    return np.empty(dims, info.dtype)


def _batch_of(inputs, infos):
    for x, info in zip(inputs, infos):
        if info.batch_multiple and len(x.shape):
            return int(x.shape[0]) // info.batch_multiple
    return 1


def _contiguous(x, info, torch):
    """`x` as a contiguous CPU array or tensor of the model's dtype: itself
    when it is one already (no copy)."""
    if torch is not None:
        if not isinstance(x, torch.Tensor):
            x = torch.as_tensor(np.asarray(x))
        want = _torch_dtype(torch, info)
        if x.dtype != want or x.device.type != "cpu" or \
                not x.is_contiguous():
            x = x.to(device="cpu", dtype=want).contiguous()
        return x
    want = np.uint16 if info.dtype == "bfloat16" else np.dtype(info.dtype)
    return np.ascontiguousarray(x, dtype=want)


def _address(x, torch):
    return x.data_ptr() if torch is not None else x.ctypes.data


class _Plan:
    """The tcc_tensor arrays of a call with inputs of given shapes, kept for
    the next call with the same shapes: only the data pointers change."""

    def __init__(self, model, arrays):
        self.keep = []
        batch = _batch_of(arrays, model.inputs)
        self.inputs = (_Tensor * len(arrays))()
        for k, (a, info) in enumerate(zip(arrays, model.inputs)):
            self.inputs[k] = self._tensor(info, list(a.shape))
        self.output_dims = []
        self.outputs = (_Tensor * len(model.outputs))()
        for k, info in enumerate(model.outputs):
            dims = list(info._dims)
            if info.batch_multiple and dims:
                dims[0] = info.batch_multiple * batch
            self.output_dims.append(dims)
            self.outputs[k] = self._tensor(info, dims)
            if info.run_time_dims:
                result = (ctypes.c_int64 * max(len(dims), 1))()
                self.keep.append(result)
                self.outputs[k].result_dims = result

    def _tensor(self, info, shape):
        c_dims = (ctypes.c_int64 * max(len(shape), 1))(*shape)
        self.keep.append(c_dims)
        return _Tensor(info._dtype_code, len(shape), c_dims, None, None)


def load(path, threads=None, weights=None):
    """Loads a shared library that `tcc compile -o X.so` made. `threads`:
    the size of its thread pool (None or 0: one per CPU); `weights`: the
    weights file of a model compiled with --weights file (default: X.weights
    beside it)."""
    return Model(path, threads=threads, weights=weights)
