"""tcc from Python.

    import tcc
    fast = tcc.compile(model, (torch.randn(1, 3, 224, 224),))  # export, tcc compile, load
    y = fast(x)                                               # same call, same outputs
    fast.save("resnet50.o")                                   # object + header for C

    m = tcc.load("model.so")         # a library that tcc compile -o model.so made
    outputs = m.run({"x": array})    # numpy arrays or torch tensors

Pure Python over the tcc binary (TCC_BIN, PATH, or the build tree) and the
shared libraries it makes; torch and onnx are needed for tcc.compile only.
"""
from ._binary import tcc_binary, tcc_version
from ._compile import (CompiledModule, TccCompileError, compile,
                       default_cache_dir as cache_dir)
from ._runtime import Model, TccError, TensorInfo, load

__version__ = "0.1.0"
__all__ = ["compile", "load", "cache_dir", "tcc_binary", "tcc_version",
           "CompiledModule", "Model", "TensorInfo", "TccError",
           "TccCompileError"]
