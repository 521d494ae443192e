#!/usr/bin/env python3
"""malformed.py - the malformed-model corpus: hostile models and inputs, and what tcc must do.

Each case writes its files (models made with onnx.helper, written raw so that onnx.checker never
sees them; .npy and .pb inputs; FIFOs, links) into a folder of its own, runs tcc there with a time
limit, and checks:
  * the exit status (1: the model or an input is wrong, 2: usage error, 0: accepted);
  * the message (a regular expression searched in stderr + stdout);
  * no crash (signal, sanitizer report, LLVM stack dump, assertion) and no hang (time limit);
  * the folder afterwards: the case's own files unchanged, and on failure nothing else there (no
    output, no temporary file); on success the outputs the case names;
  * for some accepted cases, more: the header compiles in a C program that prints the names the
    header holds (they must round-trip byte for byte) and links the object.

Usage: malformed.py --tcc build/bin/tcc [--work DIR] [--filter REGEX] [--cc cc] [--include DIR]
       [--runtime build/lib/libtccrt.a] [--list]
Prints one line per case and ends with "N passed, N failed"; exit status 0 iff all passed.
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import os
import re
import shlex
import shutil
import stat
import struct
import subprocess
import sys
import time
from typing import Callable

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F32 = TensorProto.FLOAT
I64 = TensorProto.INT64
IR_VERSION = 8
CRASH_MARKERS = ("Stack dump", "PLEASE submit", "LLVM ERROR", "Assertion", "AddressSanitizer",
                 "runtime error:", "Segmentation fault", "terminate called", "UndefinedBehaviorSanitizer",
                 "LeakSanitizer")


# ---- model builders --------------------------------------------------------------------------

def vi(name, shape, dtype=F32):
    return helper.make_tensor_value_info(name, dtype, shape)


def model(nodes, inputs, outputs, inits=(), opset=17, value_info=(), functions=()):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(inits),
                              value_info=list(value_info))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                          producer_name="tcc-malformed", functions=list(functions))
    m.ir_version = IR_VERSION
    return m


def relu_model(out_dtype=F32, out_shape=(2, 3), x_name="x", y_name="y", x_shape=(2, 3)):
    return model([helper.make_node("Relu", [x_name], [y_name], name="relu0")],
                 [vi(x_name, list(x_shape))], [vi(y_name, list(out_shape), out_dtype)])


def save(m, path):
    with open(path, "wb") as f:
        f.write(m.SerializeToString())


def npy_bytes(descr, shape_text, data=b""):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_text)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + data


def write(path, data: bytes):
    with open(path, "wb") as f:
        f.write(data)


# ---- the cases -------------------------------------------------------------------------------

@dataclasses.dataclass
class Case:
    name: str
    what: str                          # the class of the issue it covers, and why
    build: Callable[[str], None]       # writes the case's files into the folder
    args: list                         # tcc's arguments (run in the case's folder)
    status: int                        # expected exit status
    message: str = ""                  # regular expression expected in the output
    outputs: tuple = ()                # files an accepted case must write
    check: Callable | None = None      # more checks of an accepted case: (case, folder, runner) -> error or None
    timeout: float = 120.0


CASES: list[Case] = []


def case(name, what, args, status, message="", outputs=(), check=None, timeout=120.0):
    def register(build):
        CASES.append(Case(name, what, build, args, status, message, outputs, check, timeout))
        return build
    return register


def compile_args(model="m.onnx", *extra):
    return ["compile", model, "-o", "m.o", *extra]


# -- 1. declared types that disagree with the computed ones

@case("output_dtype_uint8", "1: a declared output dtype is not a buffer size", compile_args(), 1,
      r"error: graph output 'y' is declared uint8, but it is computed as float32")
def _(d):
    save(relu_model(out_dtype=TensorProto.UINT8), f"{d}/m.onnx")


@case("output_dtype_int64", "1: a declared output dtype is not a buffer size", compile_args(), 1,
      r"error: graph output 'y' is declared int64, but it is computed as float32")
def _(d):
    save(relu_model(out_dtype=I64), f"{d}/m.onnx")


@case("value_info_dtype", "1: value_info that disagrees with the computed dtype", compile_args(), 1,
      r"error: value 't' is declared int32 \(value_info\), but it is computed as float32")
def _(d):
    m = model([helper.make_node("Relu", ["x"], ["t"], name="relu0"),
               helper.make_node("Neg", ["t"], ["y"], name="neg0")],
              [vi("x", [2, 3])], [vi("y", [2, 3])], value_info=[vi("t", [2, 3], TensorProto.INT32)])
    save(m, f"{d}/m.onnx")


def header_has(pattern):
    def check(c, d, r):
        text = open(f"{d}/m.h", encoding="utf-8", errors="replace").read()
        return None if re.search(pattern, text) else f"m.h does not match /{pattern}/"
    return check


@case("output_shape_declared_wrong", "1: a declared output shape is a warning; the computed one counts",
      compile_args(), 0, r"warning: graph output 'y' is declared \[3\], but it is computed as \[2,3\]",
      outputs=("m.o", "m.h"), check=header_has(r"output 0: y  float \[2x3\]"))
def _(d):
    save(relu_model(out_shape=(3,)), f"{d}/m.onnx")


@case("value_info_shape_wrong", "1: value_info shapes are not trusted (a warning, not a size)",
      compile_args(), 0, r"warning: value 't' is declared \[7,7\] \(value_info\), but it is computed as \[2,3\]",
      outputs=("m.o", "m.h"))
def _(d):
    m = model([helper.make_node("Relu", ["x"], ["t"], name="relu0"),
               helper.make_node("Neg", ["t"], ["y"], name="neg0")],
              [vi("x", [2, 3])], [vi("y", [2, 3])], value_info=[vi("t", [7, 7])])
    save(m, f"{d}/m.onnx")


@case("initializer_input_dtype", "1: an input that an initializer defines, declared another dtype",
      compile_args(), 1, r"error: input 'w' is declared int64, but its initializer is float32")
def _(d):
    m = model([helper.make_node("Add", ["x", "w"], ["y"], name="add0")],
              [vi("x", [3]), vi("w", [3], I64)], [vi("y", [3])],
              inits=[numpy_helper.from_array(np.ones(3, np.float32), "w")])
    save(m, f"{d}/m.onnx")


# -- 2. sizes that overflow

def huge_init_model(dims, data=None):
    t = TensorProto(name="w", data_type=F32, dims=dims)
    if data is not None:
        t.raw_data = data
    return model([helper.make_node("Add", ["x", "w"], ["y"], name="add0")],
                 [vi("x", [4])], [vi("y", [4])], inits=[t])


@case("initializer_dims_overflow", "2: an initializer whose element count overflows", compile_args(), 1,
      r"error: tensor 'w' of shape \[4294967296,4294967296\] is too large \(over 2\^48 bytes\)")
def _(d):
    save(huge_init_model([2**32, 2**32]), f"{d}/m.onnx")


@case("initializer_dims_wrap_to_zero", "2: dims whose byte count wraps to 0", compile_args(), 1,
      r"error: tensor 'w' of shape \[4611686018427387904,4\] is too large")
def _(d):
    save(huge_init_model([2**62, 4]), f"{d}/m.onnx")


@case("initializer_negative_dim", "2, 8: a negative initializer dim", compile_args(), 1,
      r"error: tensor 'w' has a negative dim -3 in its shape \[-3,4\]")
def _(d):
    save(huge_init_model([-3, 4], b"\0" * 48), f"{d}/m.onnx")


@case("input_dims_overflow", "2: an input whose byte count overflows", compile_args(), 1,
      r"error: input 'x' of shape \[4294967296,4294967296\] is too large \(over 2\^48 bytes\)")
def _(d):
    save(relu_model(x_shape=(2**32, 2**32), out_shape=(2**32, 2**32)), f"{d}/m.onnx")


@case("input_negative_dim", "2, 8: a negative input dim, in ONNX's terms", compile_args(), 1,
      r"error: input 'x': dim 0 is -3; a dim is 0 or more \(an unknown dim has a dim_param or no value\)")
def _(d):
    save(relu_model(x_shape=(-3, 4), out_shape=(-3, 4)), f"{d}/m.onnx")


@case("shape_pinned_overflow", "2: --shape with a byte count that overflows", compile_args(
      "m.onnx", "--shape", "x=4294967296x4294967296x16"), 1, r"error: input 'x' of shape .* is too large")
def _(d):
    save(relu_model(), f"{d}/m.onnx")


@case("expand_overflow", "2: a computed shape whose byte count overflows", compile_args(), 1,
      r"error: node 'expand0' \(Expand, opset 17\): its result of shape \[2147483648,2147483648,4\] is too large")
def _(d):
    shape = numpy_helper.from_array(np.array([2**31, 2**31, 4], np.int64), "s")
    m = model([helper.make_node("Expand", ["x", "s"], ["y"], name="expand0")],
              [vi("x", [4])], [vi("y", None)], inits=[shape])
    save(m, f"{d}/m.onnx")


@case("rank_from_shape_operand", "2 (fuzzer): ConstantOfShape of a shape input of 2^31 elements (tried to "
      "make a tensor of rank 2^31: 16 GB)", compile_args(), 1,
      r"error: node 'c0' \(ConstantOfShape, opset 17\): 'onnx.ConstantOfShape' op makes a tensor of rank "
      r"2147483648; tcc supports ranks up to 64")
def _(d):
    m = model([helper.make_node("ConstantOfShape", ["s"], ["y"], name="c0")], [vi("s", [2**31], I64)],
              [vi("y", None)])
    save(m, f"{d}/m.onnx")


@case("input_rank_100", "2: an input of rank 100", compile_args(), 1,
      r"error: input 'x' has rank 100; tcc supports ranks up to 64")
def _(d):
    save(relu_model(x_shape=[1] * 100, out_shape=[1] * 100), f"{d}/m.onnx")


def run_args(*inputs):
    args = ["run", "m.onnx", "--output-dir", "out"]
    for i in inputs:
        args += ["--input", i]
    return args


@case("npy_shape_wraps", "2: tcc run on a .npy whose element count wraps int64", run_args("x=x.npy"), 1,
      r"error: input 'x': 'x.npy': the \.npy shape \(4294967296, 4294967296, 4294967296\) is too large")
def _(d):
    save(relu_model(), f"{d}/m.onnx")
    write(f"{d}/x.npy", npy_bytes("<f4", "(4294967296, 4294967296, 4294967296)"))


@case("npy_empty_huge_dims", "2 (fuzzer): an empty .npy whose other dims multiply past int64",
      run_args("x=x.npy"), 1, r"error: input 'x': 'x.npy': the \.npy shape \(1099511627776, 1099511627776, 0\) "
      r"is too large")
def _(d):
    save(relu_model(), f"{d}/m.onnx")
    write(f"{d}/x.npy", npy_bytes("<f4", "(1099511627776, 1099511627776, 0)"))


@case("npy_negative_dim", "2: a .npy with a negative dim", run_args("x=x.npy"), 1,
      r"error: input 'x': 'x.npy': bad dim '-2' in the \.npy shape")
def _(d):
    save(relu_model(), f"{d}/m.onnx")
    write(f"{d}/x.npy", npy_bytes("<f4", "(-2, 3)", b"\0" * 24))


@case("npy_huge_header", "2: a .npy header longer than the file", run_args("x=x.npy"), 1,
      r"error: input 'x': 'x.npy': truncated \.npy header")
def _(d):
    save(relu_model(), f"{d}/m.onnx")
    write(f"{d}/x.npy", b"\x93NUMPY\x02\x00\xff\xff\xff\xff{}")


@case("pb_dims_wrap", "2: a TensorProto input whose element count wraps", run_args("x=x.pb"), 1,
      r"error: input 'x': 'x.pb': the TensorProto's shape \[4294967296,4294967296,4294967296\] is too large")
def _(d):
    save(relu_model(), f"{d}/m.onnx")
    write(f"{d}/x.pb", TensorProto(data_type=F32, dims=[2**32, 2**32, 2**32]).SerializeToString())


@case("pb_negative_dim", "2: a TensorProto input with a negative dim", run_args("x=x.pb"), 1,
      r"error: input 'x': 'x.pb': the TensorProto has a negative dim -2")
def _(d):
    save(relu_model(), f"{d}/m.onnx")
    t = TensorProto(data_type=F32, dims=[-2, -3])
    t.raw_data = b"\0" * 24
    write(f"{d}/x.pb", t.SerializeToString())


@case("bind_dims_wrap", "2: --bind with a .npy whose element count wraps",
      compile_args("m.onnx", "--bind", "s=s.npy"), 1, r"error: --bind s: 's.npy': the \.npy shape .* is too large")
def _(d):
    m = model([helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape0")],
              [vi("x", [6]), vi("s", [2], I64)], [vi("y", [2, 3])])
    save(m, f"{d}/m.onnx")
    write(f"{d}/s.npy", npy_bytes("<i8", "(4294967296, 4294967296, 4294967296)"))


# -- 3. text from the model written into C

def names_check(expected_inputs, expected_outputs, dims=None, batch=None):
    """Compiles a C program that includes the header, prints every name it holds, links the object
    and runs it; the names must come back byte for byte."""
    def check(c, d, r):
        return r.check_header(d, expected_inputs, expected_outputs, batch=batch)
    return check


INJECT = "y */ int injected(void) { return 42; } /* "


@case("comment_injection_output", "3: a value name that closes the header's comment", compile_args(), 0,
      outputs=("m.o", "m.h"), check=names_check(["x"], [INJECT]))
def _(d):
    save(relu_model(y_name=INJECT), f"{d}/m.onnx")


DIM_INJECT = "n */\n#error injected\n/* "


@case("comment_injection_dim_param", "3: a dim_param that closes the header's comment",
      compile_args("m.onnx", "--dim", DIM_INJECT + "=2"), 0, outputs=("m.o", "m.h"),
      check=names_check(["x"], ["y"]))
def _(d):
    save(relu_model(x_shape=(DIM_INJECT, 3), out_shape=(DIM_INJECT, 3)), f"{d}/m.onnx")


@case("comment_injection_batch_dim", "3: a run-time batch dim named to escape a string and a comment",
      compile_args(), 0, outputs=("m.o", "m.h"), check=names_check(["x"], ["y"], batch='b"*/??/'))
def _(d):
    save(relu_model(x_shape=('b"*/??/', 3), out_shape=('b"*/??/', 3)), f"{d}/m.onnx")


@case("comment_injection_model_file", "3: a model file name that starts a line of code in the header",
      ["compile", "m*\n#error injected\n*.onnx", "-o", "m.o"], 0, outputs=("m.o", "m.h"),
      check=names_check(["x"], ["y"]))
def _(d):
    save(relu_model(), f"{d}/m*\n#error injected\n*.onnx")


KEYWORDS = ["int", "return", "workspace", "context", "batch", "status", "i", "weights", "error",
            "inputs", "outputs", "input_dims", "run_time_dims", "num_inputs", "NULL", "_Bool", "class",
            "a-b", "a.b", "a_b", "a?b", "0lead", "", "\u00e9t\u00e9", "tab\there", "input0", "output0"]


def multi_io_model(in_names, out_names, batch=None):
    nodes, outputs = [], []
    for k, out in enumerate(out_names):
        nodes.append(helper.make_node("Neg", [in_names[k % len(in_names)]], [out], name=f"neg{k}"))
        outputs.append(vi(out, [batch or 2, 3]))
    return model(nodes, [vi(n, [batch or 2, 3]) for n in in_names], outputs)


IN_NAMES = [k for k in KEYWORDS if k]   # a graph input needs a name (an empty one is its own case)
OUT_NAMES = ["o_" + k for k in KEYWORDS] + ["workspace_", "y", "Y"]


@case("c_keyword_names", "3: names that are C keywords, the header's own parameter names, or collide "
      "after mangling", compile_args(), 0, outputs=("m.o", "m.h"), check=names_check(IN_NAMES, OUT_NAMES))
def _(d):
    save(multi_io_model(IN_NAMES, OUT_NAMES), f"{d}/m.onnx")


@case("c_keyword_names_batch", "3: the same with a run-time batch (NAME_run_batch's parameters)",
      compile_args(), 0, outputs=("m.o", "m.h"), check=names_check(IN_NAMES, OUT_NAMES, batch="batch"))
def _(d):
    save(multi_io_model(IN_NAMES, OUT_NAMES, batch="batch"), f"{d}/m.onnx")


for index, bad_name in enumerate(["../x", "a b", "1x", "tcc", "tcc_model", "TCC_x", "", "x-y", "é", "_x", "a\nb"]):
    label = f"{index}_" + (re.sub(r"[^a-z0-9]", "_", bad_name.lower())[:12] or "empty")

    @case(f"name_invalid_{label}", "3: --name is validated", compile_args("m.onnx", "--name", bad_name), 2,
          r"usage error: --name '.*' is not a valid model name: ")
    def _(d):
        save(relu_model(), f"{d}/m.onnx")


@case("name_keyword", "3: --name int: every symbol and macro has a suffix, so a keyword is a fine prefix",
      compile_args("m.onnx", "--name", "int"), 0, outputs=("m.o", "m.h"), check=names_check(["x"], ["y"]))
def _(d):
    save(relu_model(), f"{d}/m.onnx")


@case("name_default_sanitized", "3: the default name from an odd output file name is an identifier",
      ["compile", "m.onnx", "-o", "1 tcc-x.o"], 0, outputs=("1 tcc-x.o", "1 tcc-x.h"),
      check=lambda c, d, r: r.check_header(d, ["x"], ["y"], header="1 tcc-x.h", obj="1 tcc-x.o"))
def _(d):
    save(relu_model(), f"{d}/m.onnx")


# -- 4. outputs that would overwrite an input

@case("output_is_model", "4: -o names the model", ["compile", "m.onnx", "-o", "m.onnx"], 2,
      r"usage error: the output 'm.onnx' is the model itself")
def _(d):
    save(relu_model(), f"{d}/m.onnx")


@case("output_is_model_emit_mlir", "4: -o names the model (--emit mlir)",
      ["compile", "m.onnx", "--emit", "mlir", "-o", "m.onnx"], 2, r"the output 'm.onnx' is the model itself")
def _(d):
    save(relu_model(), f"{d}/m.onnx")


@case("header_is_model", "4: the header beside -o is the model", ["compile", "m.h", "-o", "m.o"], 2,
      r"usage error: the header 'm.h' is the model itself")
def _(d):
    save(relu_model(), f"{d}/m.h")


@case("weights_is_model", "4: the weights file beside -o is the model",
      ["compile", "m.weights", "-o", "m.o", "--weights", "file"], 2,
      r"usage error: the weights file 'm.weights' is the model itself")
def _(d):
    save(relu_model(), f"{d}/m.weights")


@case("header_hard_link", "4: the header is a hard link to the model (same inode)",
      ["compile", "m.onnx", "-o", "m.o"], 2, r"usage error: the header 'm.h' is the model itself")
def _(d):
    save(relu_model(), f"{d}/m.onnx")
    os.link(f"{d}/m.onnx", f"{d}/m.h")


@case("header_symlink", "4: the header is a symbolic link to the model",
      ["compile", "m.onnx", "-o", "m.o"], 2, r"usage error: the header 'm.h' is the model itself")
def _(d):
    save(relu_model(), f"{d}/m.onnx")
    os.symlink("m.onnx", f"{d}/m.h")


@case("output_is_header", "4: the object and the header would be one file",
      ["compile", "m.onnx", "-o", "m.h"], 2, r"usage error: the output 'm.h' and its header are the same file")
def _(d):
    save(relu_model(), f"{d}/m.onnx")


@case("output_is_bound_input", "4: -o names a --bind file",
      ["compile", "m.onnx", "--bind", "s=s.npy", "--emit", "mlir", "-o", "s.npy"], 2,
      r"usage error: the output 's.npy' is the --bind file of 's'")
def _(d):
    m = model([helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape0")],
              [vi("x", [6]), vi("s", [2], I64)], [vi("y", [2, 3])])
    save(m, f"{d}/m.onnx")
    np.save(f"{d}/s.npy", np.array([2, 3], np.int64))


@case("output_is_external_data", "4: -o names the model's external data file",
      ["compile", "m.onnx", "-o", "w.bin"], 2,
      r"usage error: the output 'w.bin' is the external data file of tensor 'w'")
def _(d):
    save(external_model("w.bin"), f"{d}/m.onnx")
    write(f"{d}/w.bin", np.ones(4, np.float32).tobytes())


@case("run_output_is_input", "4: tcc run would write an output over an input file",
      ["run", "m.onnx", "--input", "x=y.npy", "--output-dir", "."], 2,
      r"usage error: output 'y' would be written to '.*y\.npy', which is the --input file of 'x'")
def _(d):
    save(relu_model(), f"{d}/m.onnx")
    np.save(f"{d}/y.npy", np.ones((2, 3), np.float32))


@case("run_output_is_model", "4: tcc run would write an output over the model",
      ["run", "m.npy", "--input", "x=x.npy", "--output-dir", "."], 2,
      r"usage error: output 'm' would be written to '.*m\.npy', which is the model itself")
def _(d):
    save(relu_model(y_name="m"), f"{d}/m.npy")
    np.save(f"{d}/x.npy", np.ones((2, 3), np.float32))


# -- 5. hangs and blow-ups

def external_model(location, dims=(4,)):
    t = TensorProto(name="w", data_type=F32, dims=list(dims), data_location=TensorProto.EXTERNAL)
    t.external_data.add(key="location", value=location)
    return model([helper.make_node("Add", ["x", "w"], ["y"], name="add0")],
                 [vi("x", list(dims))], [vi("y", list(dims))], inits=[t])


@case("external_data_fifo", "5: external data that is a FIFO (reading it would hang)", compile_args(), 1,
      r"error: tensor 'w': external data 'w.bin' is not a regular file", timeout=30)
def _(d):
    save(external_model("w.bin"), f"{d}/m.onnx")
    os.mkfifo(f"{d}/w.bin")


@case("external_data_directory", "5: external data that is a folder", compile_args(), 1,
      r"error: tensor 'w': external data 'sub' is a folder, not a regular file", timeout=30)
def _(d):
    save(external_model("sub"), f"{d}/m.onnx")
    os.mkdir(f"{d}/sub")


@case("model_fifo", "5: a model that is a FIFO", compile_args(), 1,
      r"error: cannot read 'm.onnx': not a regular file", timeout=30)
def _(d):
    os.mkfifo(f"{d}/m.onnx")


@case("input_fifo", "5: a tcc run input that is a FIFO", run_args("x=x.npy"), 1,
      r"error: input 'x': cannot read 'x.npy': not a regular file", timeout=30)
def _(d):
    save(relu_model(), f"{d}/m.onnx")
    os.mkfifo(f"{d}/x.npy")


@case("bind_fifo", "5: a --bind file that is a FIFO", compile_args("m.onnx", "--bind", "s=s.npy"), 1,
      r"error: --bind s: cannot read 's.npy': not a regular file", timeout=30)
def _(d):
    m = model([helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape0")],
              [vi("x", [6]), vi("s", [2], I64)], [vi("y", [2, 3])])
    save(m, f"{d}/m.onnx")
    os.mkfifo(f"{d}/s.npy")


def loop_model(outer, inner):
    """Loop(outer) { Loop(inner) { acc = acc + 1 } }: outer * inner bodies when unrolled."""
    one = helper.make_node("Constant", [], ["one"], value=numpy_helper.from_array(np.ones(1, np.float32)))
    inner_body = helper.make_graph(
        [one, helper.make_node("Add", ["a_in", "one"], ["a_out"]),
         helper.make_node("Identity", ["c_in"], ["c_out"])], "inner",
        [vi("j", [], I64), vi("c_in", [], TensorProto.BOOL), vi("a_in", [1])],
        [vi("c_out", [], TensorProto.BOOL), vi("a_out", [1])])
    inner_trips = helper.make_node("Constant", [], ["n_in"],
                                   value=numpy_helper.from_array(np.array(inner, np.int64)))
    outer_body = helper.make_graph(
        [inner_trips, helper.make_node("Loop", ["n_in", "", "b_in"], ["b_out"], body=inner_body, name="inner"),
         helper.make_node("Identity", ["k_in"], ["k_out"])], "outer",
        [vi("i", [], I64), vi("k_in", [], TensorProto.BOOL), vi("b_in", [1])],
        [vi("k_out", [], TensorProto.BOOL), vi("b_out", [1])])
    trips = numpy_helper.from_array(np.array(outer, np.int64), "n")
    cond = numpy_helper.from_array(np.array(True), "c")
    return model([helper.make_node("Loop", ["n", "c", "x"], ["y"], body=outer_body, name="outer")],
                 [vi("x", [1])], [vi("y", [1])], inits=[trips, cond])


@case("nested_loop_blowup", "5: a nested Loop of 4096 x 4096 constant trips", compile_args(), 1,
      r"error: node 'inner' \(Loop, opset 17\): unrolling it would import more than 65536 nodes",
      timeout=60)
def _(d):
    save(loop_model(4096, 4096), f"{d}/m.onnx")


@case("nested_loop_small", "5: a small nested Loop still unrolls", compile_args(), 0, outputs=("m.o", "m.h"))
def _(d):
    save(loop_model(8, 8), f"{d}/m.onnx")


@case("chain_of_10000_adds", "5: compile time: 10,000 chained Adds (84 s before; a hang guard, not a "
      "benchmark: utils/scaling.py measures)", compile_args(), 0, outputs=("m.o", "m.h"), timeout=120)
def _(d):
    n, nodes, inits, prev = 10000, [], [], "x"
    for i in range(n):
        inits.append(numpy_helper.from_array(np.full((4,), i % 7, np.float32), f"c{i}"))
        out = "y" if i == n - 1 else f"t{i}"
        nodes.append(helper.make_node("Add", [prev, f"c{i}"], [out], name=f"add{i}"))
        prev = out
    save(model(nodes, [vi("x", [4])], [vi("y", [4])], inits=inits), f"{d}/m.onnx")


@case("outputs_1200", "5: compile time: 1,200 outputs (57 s before)", compile_args(), 0,
      outputs=("m.o", "m.h"), timeout=120)
def _(d):
    nodes = [helper.make_node("Neg", ["x"], [f"y{i}"], name=f"n{i}") for i in range(1200)]
    save(model(nodes, [vi("x", [1, 8])], [vi(f"y{i}", [1, 8]) for i in range(1200)]), f"{d}/m.onnx")


# -- 6. bad attributes and names

def conv_model(**attrs):
    w = numpy_helper.from_array(np.ones((2, 1, 3, 3), np.float32), "w")
    return model([helper.make_node("Conv", ["x", "w"], ["y"], name="conv0", **attrs)],
                 [vi("x", [1, 1, 8, 8])], [vi("y", None)], inits=[w])


def with_attr(m, node_index, name, attr):
    a = m.graph.node[node_index].attribute.add()
    a.CopyFrom(attr)
    a.name = name
    return m


@case("attr_strides_string", "6: Conv strides given as a string", compile_args(), 1,
      r"error: node 'conv0' \(Conv, opset 17\): attribute 'strides' is a STRING; Conv takes INTS")
def _(d):
    save(with_attr(conv_model(), 0, "strides", helper.make_attribute("strides", "22")), f"{d}/m.onnx")


@case("attr_strides_int", "6: Conv strides given as one int", compile_args(), 1,
      r"error: node 'conv0' \(Conv, opset 17\): attribute 'strides' is an INT; Conv takes INTS")
def _(d):
    save(with_attr(conv_model(), 0, "strides", helper.make_attribute("strides", 2)), f"{d}/m.onnx")


@case("attr_perm_floats", "6: Transpose perm given as floats", compile_args(), 1,
      r"error: node 't0' \(Transpose, opset 17\): attribute 'perm' is a FLOATS; Transpose takes INTS")
def _(d):
    m = model([helper.make_node("Transpose", ["x"], ["y"], name="t0")], [vi("x", [2, 3])], [vi("y", [3, 2])])
    save(with_attr(m, 0, "perm", helper.make_attribute("perm", [1.0, 0.0])), f"{d}/m.onnx")


@case("attr_undefined_type", "6: an attribute whose kind is UNDEFINED", compile_args(), 1,
      r"error: node 't0' \(Transpose, opset 17\): attribute 'perm' is an UNDEFINED; Transpose takes INTS")
def _(d):
    m = model([helper.make_node("Transpose", ["x"], ["y"], name="t0")], [vi("x", [2, 3])], [vi("y", [3, 2])])
    a = m.graph.node[0].attribute.add()
    a.name = "perm"
    a.ints.extend([1, 0])
    save(m, f"{d}/m.onnx")


@case("attr_kind_op_of_later_opset", "6 (fuzzer): Resize at opset 7, before ONNX defined it, with mode an INT "
      "(crashed in the op's verifier)", compile_args(), 1,
      r"error: node 'r0' \(Resize, opset 7\): attribute 'mode' is an INT; Resize takes STRING")
def _(d):
    m = model([helper.make_node("Resize", ["x", "", "", "s"], ["y"], name="r0")],
              [vi("x", [1, 1, 4, 4]), vi("s", [4], I64)], [vi("y", None)], opset=7)
    save(with_attr(m, 0, "mode", helper.make_attribute("mode", 255)), f"{d}/m.onnx")


@case("attr_kind_op_libonnx_lacks", "6: an attribute of the wrong kind on an op newer than ONNX's schemas "
      "tcc links (Gelu, opset 20): the op's own declaration decides", compile_args("m.onnx"), 1,
      r"error: node 'g0' \(Gelu, opset 20\): attribute 'approximate' failed to satisfy constraint: "
      r"string attribute")
def _(d):
    m = model([helper.make_node("Gelu", ["x"], ["y"], name="g0")], [vi("x", [4])], [vi("y", [4])], opset=20)
    save(with_attr(m, 0, "approximate", helper.make_attribute("approximate", 1)), f"{d}/m.onnx")


@case("softmax_v1_axis_out_of_range", "6 (fuzzer): an opset-1 Softmax whose axis is out of range (UB in the "
      "Flatten it becomes)", compile_args(), 1,
      r"error: node 's0' \(Softmax, opset 11\): axis 9223372036854775807 is out of range \[-3, 2\] for rank 3")
def _(d):
    m = model([helper.make_node("Softmax", ["x"], ["y"], name="s0", axis=2**63 - 1)],
              [vi("x", [2, 3, 4])], [vi("y", [2, 3, 4])], opset=11)
    save(m, f"{d}/m.onnx")


@case("groupnorm_groups_kind", "6 (fuzzer): GroupNormalization (an op ONNX's schemas in tcc lack) with "
      "num_groups a string (its normalizer read it unchecked)", compile_args(), 1,
      r"error: node 'g0' \(GroupNormalization, opset 18\): attribute 'num_groups' must be an int")
def _(d):
    inits = [numpy_helper.from_array(np.ones(2, np.float32), n) for n in ("s", "b")]
    m = model([helper.make_node("GroupNormalization", ["x", "s", "b"], ["y"], name="g0")],
              [vi("x", [1, 4, 2, 2])], [vi("y", [1, 4, 2, 2])], inits=inits, opset=18)
    save(with_attr(m, 0, "num_groups", helper.make_attribute("num_groups", "2")), f"{d}/m.onnx")


@case("groupnorm_one_input", "6 (fuzzer): GroupNormalization with one input (its normalizer read inputs 1 "
      "and 2 past the end: a use after free)", compile_args(), 1,
      r"error: node 'g0' \(GroupNormalization, opset 18\): takes at least 3 inputs, got 1")
def _(d):
    m = model([helper.make_node("GroupNormalization", ["x"], ["y"], name="g0", num_groups=2)],
              [vi("x", [1, 4, 2, 2])], [vi("y", [1, 4, 2, 2])], opset=18)
    save(m, f"{d}/m.onnx")


@case("constant_without_output", "6 (fuzzer): a Constant node with no output (read output 0 of none)",
      compile_args(), 1, r"error: Constant node 'c0' must have exactly one output")
def _(d):
    c = helper.make_node("Constant", [], [], name="c0", value=numpy_helper.from_array(np.ones(3, np.float32)))
    save(model([c, helper.make_node("Relu", ["x"], ["y"], name="relu0")], [vi("x", [3])], [vi("y", [3])]),
         f"{d}/m.onnx")


@case("pad_input_empty", "6 (fuzzer): a Pad whose data input is empty, with a legacy value attribute (made a "
      "constant of type none: a crash)", compile_args(), 1,
      r"error: node 'p0' \(Pad, opset 21\): input 0 is required, but it is empty")
def _(d):
    pads = numpy_helper.from_array(np.zeros(2, np.int64), "pads")
    m = model([helper.make_node("Pad", ["", "pads"], ["y"], name="p0")], [vi("x", [3])], [vi("y", [3])],
              inits=[pads], opset=21)
    save(with_attr(m, 0, "value", helper.make_attribute("value", 1.5)), f"{d}/m.onnx")


@case("attr_duplicate", "6: the same attribute twice on a node", compile_args(), 1,
      r"error: node 't0' \(Transpose, opset 17\): attribute 'perm' is given twice")
def _(d):
    m = model([helper.make_node("Transpose", ["x"], ["y"], name="t0", perm=[1, 0])],
              [vi("x", [2, 3])], [vi("y", [3, 2])])
    save(with_attr(m, 0, "perm", helper.make_attribute("perm", [0, 1])), f"{d}/m.onnx")


@case("duplicate_producer", "6: two nodes computing the same value", compile_args(), 1,
      r"error: node 'neg1' \(Neg\) computes 't', which node 'neg0' computes too")
def _(d):
    m = model([helper.make_node("Neg", ["x"], ["t"], name="neg0"),
               helper.make_node("Neg", ["x"], ["t"], name="neg1"),
               helper.make_node("Relu", ["t"], ["y"], name="relu0")], [vi("x", [3])], [vi("y", [3])])
    save(m, f"{d}/m.onnx")


@case("producer_shadows_input", "6: a node computing a value named like a graph input", compile_args(), 1,
      r"error: node 'neg0' \(Neg\) computes 'x', which is a graph input")
def _(d):
    m = model([helper.make_node("Neg", ["x"], ["x"], name="neg0"),
               helper.make_node("Relu", ["x"], ["y"], name="relu0")], [vi("x", [3])], [vi("y", [3])])
    save(m, f"{d}/m.onnx")


@case("producer_shadows_initializer", "6: a node computing a value named like an initializer",
      compile_args(), 1, r"error: node 'neg0' \(Neg\) computes 'w', which is an initializer")
def _(d):
    m = model([helper.make_node("Neg", ["x"], ["w"], name="neg0"),
               helper.make_node("Add", ["w", "x"], ["y"], name="add0")], [vi("x", [3])], [vi("y", [3])],
              inits=[numpy_helper.from_array(np.ones(3, np.float32), "w")])
    save(m, f"{d}/m.onnx")


@case("duplicate_input", "6: the same graph input twice", compile_args(), 1,
      r"error: graph input 'x' is declared twice")
def _(d):
    m = model([helper.make_node("Relu", ["x"], ["y"], name="relu0")], [vi("x", [3]), vi("x", [4])],
              [vi("y", [3])])
    save(m, f"{d}/m.onnx")


@case("duplicate_initializer", "6: two initializers with one name", compile_args(), 1,
      r"error: initializer 'w' is given twice")
def _(d):
    m = model([helper.make_node("Add", ["x", "w"], ["y"], name="add0")], [vi("x", [3])], [vi("y", [3])],
              inits=[numpy_helper.from_array(np.ones(3, np.float32), "w"),
                     numpy_helper.from_array(np.zeros(3, np.float32), "w")])
    save(m, f"{d}/m.onnx")


def slice_model(steps):
    inits = [numpy_helper.from_array(np.array(v, np.int64), n)
             for n, v in [("starts", [-1]), ("ends", [-(2**63)]), ("axes", [0]), ("steps", steps)]]
    return model([helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["y"], name="slice0")],
                 [vi("x", [5])], [vi("y", None)], inits=inits)


def slice_check(c, d, r):
    """Slice(x, -1, INT64_MIN, step INT64_MIN) is x[-1::-2**63], one element: x[4]."""
    return r.check_run_output(d, "y", np.array([4.0], np.float32), {"x": np.arange(5, dtype=np.float32)})


@case("slice_step_int64_min", "6: Slice with steps = INT64_MIN is correct (one element)", compile_args(),
      0, outputs=("m.o", "m.h"), check=slice_check)
def _(d):
    save(slice_model([-(2**63)]), f"{d}/m.onnx")


@case("slice_step_zero", "6: Slice with steps = 0", compile_args(), 1, r"node 'slice0' \(Slice, opset 17\).*step")
def _(d):
    save(slice_model([0]), f"{d}/m.onnx")


for bad_opset in (0, -1, 29, 999):
    @case(f"opset_{bad_opset}", "6: an opset outside the supported range", compile_args(), 1,
          rf"error: 'm.onnx' imports (opset {bad_opset} of the default domain; tcc supports opsets 1 to 28"
          r"|no default-domain opset)")
    def _(d, bad_opset=bad_opset):
        m = relu_model()
        m.opset_import[0].version = bad_opset
        save(m, f"{d}/m.onnx")


@case("opset_1", "6: opset 1 is in range (ONNX's own test data has such models, which tcc passes)",
      compile_args(), 0, outputs=("m.o", "m.h"))
def _(d):
    m = relu_model()
    m.opset_import[0].version = 1
    save(m, f"{d}/m.onnx")


@case("opset_duplicate", "6: two different default-domain opsets", compile_args(), 1,
      r"error: 'm.onnx' imports the default domain twice \(opsets 13 and 17\)")
def _(d):
    m = relu_model()
    m.opset_import.add(domain="ai.onnx", version=13)
    m.opset_import[0].version, m.opset_import[1].version = 13, 17
    save(m, f"{d}/m.onnx")


# -- 7. tcc run's output file names

def distinct_outputs_check(c, d, r):
    files = sorted(os.listdir(f"{d}/out"))
    if len(files) != 4:
        return f"expected 4 output files, got {files}"
    return r.check_run_files(d, files)


@case("run_output_names_collide", "7: outputs whose names map to one file name", run_args("x=x.npy"), 0,
      r"output 'a/b' -> .*\n(.|\n)*output '\.\.' -> ", outputs=("out",), check=distinct_outputs_check)
def _(d):
    m = model([helper.make_node("Neg", ["x"], ["a/b"], name="n0"), helper.make_node("Relu", ["x"], ["a_b"], name="n1"),
               helper.make_node("Abs", ["x"], [".."], name="n2"), helper.make_node("Sqrt", ["x"], ["a\\b"], name="n3")],
              [vi("x", [2, 3])], [vi(n, [2, 3]) for n in ["a/b", "a_b", "..", "a\\b"]])
    save(m, f"{d}/m.onnx")
    np.save(f"{d}/x.npy", np.ones((2, 3), np.float32))


# -- 8. messages in ONNX's terms

@case("input_empty_name", "8: a graph input without a name", compile_args(), 1,
      r"error: .*graph input 0 has no name")
def _(d):
    save(relu_model(x_name=""), f"{d}/m.onnx")


@case("node_required_input_empty", "8: a required node input left empty", compile_args(), 1,
      r"error: node 'relu0' \(Relu, opset 17\): input 0 \('X'\) is required, but it is empty")
def _(d):
    m = model([helper.make_node("Relu", [""], ["y"], name="relu0")], [vi("x", [3])], [vi("y", [3])])
    save(m, f"{d}/m.onnx")


@case("escape_sequences_in_names", "8: control characters in a name are written \\xNN in messages (a terminal's "
      "escape sequences, a newline faking another message)", compile_args(), 1,
      r"error: node 'r\\x1b\[2J\\x0atcc: ok' \(Relu\) reads 'nowhere'")
def _(d):
    save(model([helper.make_node("Relu", ["nowhere"], ["y"], name="r\x1b[2J\ntcc: ok")], [vi("x", [3])],
               [vi("y", [3])]), f"{d}/m.onnx")


@case("input_unknown_dtype", "8: an input of an element type ONNX does not define", compile_args(), 1,
      r"error: input 'x' has unsupported element type 999 \(not an ONNX data type\)")
def _(d):
    save(relu_model(), f"{d}/m.onnx")
    m = onnx.load(f"{d}/m.onnx")
    m.graph.input[0].type.tensor_type.elem_type = 999
    save(m, f"{d}/m.onnx")


@case("initializer_unknown_dtype", "8: an initializer of an element type ONNX does not define",
      compile_args(), 1, r"error: tensor 'w' has unsupported element type 77 \(not an ONNX data type\)")
def _(d):
    t = TensorProto(name="w", data_type=77, dims=[4])
    save(model([helper.make_node("Add", ["x", "w"], ["y"], name="add0")], [vi("x", [4])], [vi("y", [4])],
               inits=[t]), f"{d}/m.onnx")


@case("initializer_complex", "8: an initializer of a type tcc does not support", compile_args(), 1,
      r"error: tensor 'w' has unsupported element type COMPLEX64")
def _(d):
    t = TensorProto(name="w", data_type=TensorProto.COMPLEX64, dims=[4])
    save(model([helper.make_node("Add", ["x", "w"], ["y"], name="add0")], [vi("x", [4])], [vi("y", [4])],
               inits=[t]), f"{d}/m.onnx")


# -- cases that already behave, kept so

@case("truncated", "kept: a truncated model", compile_args(), 1, r"is not a valid ONNX model")
def _(d):
    data = relu_model().SerializeToString()
    write(f"{d}/m.onnx", data[: len(data) // 2])


@case("empty_file", "kept: an empty file", compile_args(), 1, r"is not a valid ONNX model")
def _(d):
    write(f"{d}/m.onnx", b"")


@case("not_onnx", "kept: a file that is not ONNX", compile_args(), 1, r"is not a valid ONNX model")
def _(d):
    write(f"{d}/m.onnx", b"\x7fELF" + bytes(range(256)) * 8)


@case("missing_model", "kept: a model that does not exist", compile_args("nowhere.onnx"), 1,
      r"error: cannot read 'nowhere.onnx': No such file or directory")
def _(d):
    pass


@case("no_graph_outputs", "kept: a graph with no output compiles into a call that does nothing", compile_args(),
      0, outputs=("m.o", "m.h"), check=names_check(["x"], []))
def _(d):
    save(model([helper.make_node("Relu", ["x"], ["y"], name="relu0")], [vi("x", [3])], []), f"{d}/m.onnx")


@case("external_traversal", "kept: external data outside the model's folder", compile_args(), 1,
      r"error: tensor 'w': external data '\.\./w\.bin' is outside the model's folder")
def _(d):
    save(external_model("../w.bin"), f"{d}/m.onnx")


@case("external_absolute", "kept: external data at an absolute path", compile_args(), 1,
      r"error: tensor 'w': external data '/etc/passwd' is outside the model's folder")
def _(d):
    save(external_model("/etc/passwd"), f"{d}/m.onnx")


@case("external_symlink_out", "kept: external data through a link out of the folder", compile_args(), 1,
      r"error: tensor 'w': external data 'w.bin' is outside the model's folder")
def _(d):
    save(external_model("w.bin"), f"{d}/m.onnx")
    os.symlink("/etc/hostname", f"{d}/w.bin")


@case("external_short", "kept: external data shorter than its tensor", compile_args(), 1,
      r"error: tensor 'w' of shape \[4\] has 8 bytes of data, expected 16")
def _(d):
    save(external_model("w.bin"), f"{d}/m.onnx")
    write(f"{d}/w.bin", b"\0" * 8)


@case("external_offset_past_end", "kept: external data whose offset runs past the file", compile_args(), 1,
      r"error: tensor 'w': external data 'w.bin' is 16 bytes; offset 99 and length 0 run past its end")
def _(d):
    m = external_model("w.bin")
    m.graph.initializer[0].external_data.add(key="offset", value="99")
    save(m, f"{d}/m.onnx")
    write(f"{d}/w.bin", b"\0" * 16)


@case("initializer_size_mismatch", "kept: initializer data of the wrong size", compile_args(), 1,
      r"error: tensor 'w' of shape \[4\] has 12 bytes of data, expected 16")
def _(d):
    save(huge_init_model([4], b"\0" * 12), f"{d}/m.onnx")


@case("undefined_value", "kept: a node reading a value nothing defines", compile_args(), 1,
      r"error: node 'relu0' \(Relu\) reads 'nowhere', which no earlier node or input defines")
def _(d):
    save(model([helper.make_node("Relu", ["nowhere"], ["y"], name="relu0")], [vi("x", [3])], [vi("y", [3])]),
         f"{d}/m.onnx")


@case("unsupported_all_at_once", "kept: every unsupported node named at once", compile_args(), 1,
      r"unsupported operator: node 'a' op Foo(.|\n)*unsupported operator: node 'b' op Bar(.|\n)*"
      r"2 unsupported operators")
def _(d):
    save(model([helper.make_node("Foo", ["x"], ["t"], name="a"), helper.make_node("Bar", ["t"], ["y"], name="b")],
               [vi("x", [3])], [vi("y", [3])]), f"{d}/m.onnx")


@case("recursive_function", "kept: a local function that calls itself", compile_args(), 1, r"recursion")
def _(d):
    fn = helper.make_function("local", "F", ["a"], ["b"], [helper.make_node("F", ["a"], ["b"], domain="local")],
                              [helper.make_opsetid("", 17), helper.make_opsetid("local", 1)])
    m = model([helper.make_node("F", ["x"], ["y"], name="f0", domain="local")], [vi("x", [3])], [vi("y", [3])],
              functions=[fn])
    m.opset_import.add(domain="local", version=1)
    save(m, f"{d}/m.onnx")


@case("run_input_wrong_shape", "kept: a tcc run input of the wrong shape", run_args("x=x.npy"), 1,
      r"error: input 'x': expected float32 \[2,3\], got float32 \[3,2\]")
def _(d):
    save(relu_model(), f"{d}/m.onnx")
    np.save(f"{d}/x.npy", np.ones((3, 2), np.float32))


@case("usage_missing_model", "kept: usage errors exit 2", ["compile"], 2, r"model is required|required")
def _(d):
    pass


# ---- the runner ------------------------------------------------------------------------------

def snapshot(folder):
    """{relative path: sha256 or kind} of everything under `folder`."""
    out = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(root, name)
            rel = os.path.relpath(path, folder)
            st = os.lstat(path)
            if stat.S_ISREG(st.st_mode):
                with open(path, "rb") as f:
                    out[rel] = hashlib.sha256(f.read()).hexdigest()
            elif stat.S_ISLNK(st.st_mode):
                out[rel] = "link:" + os.readlink(path)
            else:
                out[rel] = "dir" if stat.S_ISDIR(st.st_mode) else "special"
    return out


C_NAMES = r"""
#include <stdio.h>
#include <stdlib.h>
#include "%(header)s"
/* Prints each name the header holds, as hex, so that any byte comes back exactly. */
static void hex(const char *what, const char *s) {
  printf("%%s ", what);
  for (; *s; ++s) printf("%%02x", (unsigned char)*s);
  printf("\n");
}
int main(void) {
  const tcc_model_info *info = %(name)s_info();
  for (int i = 0; i < info->num_inputs; ++i) hex("input", info->inputs[i].name);
  for (int i = 0; i < info->num_outputs; ++i) hex("output", info->outputs[i].name);
  if (info->batch_dim) hex("batch", info->batch_dim);
  size_t n = %(name)s_workspace_size();
  void *ws = n ? tcc_workspace_alloc(n) : 0;
  /* A run through the checked call on zeros: the ABI's parameters all work. */
  tcc_tensor *in = calloc(info->num_inputs + 1, sizeof *in), *out = calloc(info->num_outputs + 1, sizeof *out);
  for (int k = 0; k < 2; ++k) {
    const tcc_tensor_info *ts = k ? info->outputs : info->inputs;
    tcc_tensor *t = k ? out : in;
    int m = k ? info->num_outputs : info->num_inputs;
    for (int i = 0; i < m; ++i) {
      t[i].dtype = ts[i].dtype;
      t[i].rank = ts[i].rank;
      t[i].dims = ts[i].dims;
      t[i].data = calloc(ts[i].size_bytes ? ts[i].size_bytes : 1, 1);
    }
  }
  tcc_error err = {0};
  tcc_status s = %(name)s_run_tensors(in, info->num_inputs, out, info->num_outputs, ws, n, &err);
  printf("status %%d %%s\n", (int)s, err.message);
  return s != TCC_OK;
}
"""


class Runner:
    def __init__(self, args):
        self.tcc = os.path.abspath(args.tcc)
        self.cc = args.cc
        self.include = os.path.abspath(args.include)
        self.runtime = os.path.abspath(args.runtime)
        self.python = sys.executable

    def run(self, cmd, cwd, timeout):
        start = time.monotonic()
        try:
            p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, "", time.monotonic() - start
        return p.returncode, (p.stderr + p.stdout).decode("utf-8", "replace"), time.monotonic() - start

    def build_program(self, d, source, header, obj):
        src = os.path.join(d, "..", os.path.basename(d) + "_main.c")
        exe = os.path.join(d, "..", os.path.basename(d) + "_main")
        with open(src, "w") as f:
            f.write(source)
        cmd = [self.cc, "-std=c11", "-Wall", "-Werror", "-I", d, "-I", self.include, src,
               os.path.join(d, obj), self.runtime, "-lm", "-lpthread", "-o", exe]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if p.returncode:
            return None, "the header does not compile or link:\n" + p.stdout.decode(errors="replace")
        nm = subprocess.run(["nm", exe], stdout=subprocess.PIPE).stdout.decode()
        if re.search(r"\binjected\b", nm):
            return None, "the header defined code that came from the model (symbol 'injected')"
        return exe, None

    def check_header(self, d, inputs, outputs, batch=None, header="m.h", obj="m.o"):
        name = None
        text = open(os.path.join(d, header), "rb").read().decode("utf-8", "replace")
        m = re.search(r"^size_t (\w+)_workspace_size\(void\);", text, re.M)
        if not m:
            return "no NAME_workspace_size in the header"
        name = m.group(1)
        exe, err = self.build_program(d, C_NAMES % {"header": header, "name": name}, header, obj)
        if err:
            return err
        p = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
        got = p.stdout.decode(errors="replace").splitlines()
        want = [f"input {n.encode().hex()}" for n in inputs] + [f"output {n.encode().hex()}" for n in outputs]
        if batch:
            want.append(f"batch {batch.encode().hex()}")
        if got[:len(want)] != want:
            return f"names do not round-trip: got {got[:len(want)]}, want {want}"
        if p.returncode:
            return "the checked call failed: " + "\n".join(got[len(want):])
        return None

    def check_run_output(self, d, output, expected, inputs):
        for k, v in inputs.items():
            np.save(os.path.join(d, "..", f"{os.path.basename(d)}_{k}.npy"), v)
        out = os.path.join(d, "..", os.path.basename(d) + "_out")
        cmd = [self.tcc, "run", os.path.join(d, "m.onnx"), "--output-dir", out]
        for k in inputs:
            cmd += ["--input", f"{k}=" + os.path.join(d, "..", f"{os.path.basename(d)}_{k}.npy")]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if p.returncode:
            return "tcc run failed: " + p.stdout.decode(errors="replace")
        got = np.load(os.path.join(out, output + ".npy"))
        if got.shape != expected.shape or not np.array_equal(got, expected):
            return f"{output} is {got!r}, expected {expected!r}"
        return None

    def check_run_files(self, d, files):
        for f in files:
            a = np.load(os.path.join(d, "out", f))
            if a.shape != (2, 3):
                return f"{f} has shape {a.shape}"
        return None


def run_case(c: Case, r: Runner, work: str):
    d = os.path.join(work, c.name)
    shutil.rmtree(d, ignore_errors=True)
    for leftover in (d + "_main", d + "_main.c", d + "_out"):
        shutil.rmtree(leftover, ignore_errors=True) if os.path.isdir(leftover) else (
            os.path.exists(leftover) and os.remove(leftover))
    os.makedirs(d)
    c.build(d)
    before = snapshot(d)
    status, out, seconds = r.run([r.tcc] + c.args, d, c.timeout)
    cmd = "cd " + shlex.quote(d) + " && tcc " + " ".join(shlex.quote(a) for a in c.args)
    problems = []
    if status is None:
        problems.append(f"timed out after {c.timeout:.0f} s (a hang)")
    elif status < 0 or status > 2:
        problems.append(f"crashed (exit status {status})")
    elif status != c.status:
        problems.append(f"exit status {status}, expected {c.status}")
    for marker in CRASH_MARKERS:
        if marker in out:
            problems.append(f"output contains '{marker}'")
    if c.message and not re.search(c.message, out):
        problems.append(f"message does not match /{c.message}/")
    after = snapshot(d)
    for path, digest in before.items():
        if after.get(path) != digest:
            problems.append(f"'{path}' was changed or removed")
    new = sorted(set(after) - set(before))
    if status != 0 and new:
        problems.append(f"files left behind: {new}")
    if status == 0:
        top = {p.split(os.sep)[0] for p in new}
        for o in c.outputs:
            if o not in top:
                problems.append(f"no output '{o}'")
        stray = [p for p in new if p.endswith(".tmp") or ".tmp" in os.path.basename(p)]
        if stray:
            problems.append(f"temporary files left: {stray}")
        if not problems and c.check:
            err = c.check(c, d, r)
            if err:
                problems.append(err)
    return problems, out, cmd, seconds


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tcc", default=os.path.join(repo, "build", "bin", "tcc"))
    p.add_argument("--work", default=os.path.join(repo, "build", "malformed"))
    p.add_argument("--filter", default="")
    p.add_argument("--cc", default=os.environ.get("CC", "cc"))
    p.add_argument("--include", default=os.path.join(repo, "include"))
    p.add_argument("--runtime", default=os.path.join(repo, "build", "lib", "libtccrt.a"))
    p.add_argument("--list", action="store_true", help="list the cases and what each covers")
    args = p.parse_args()
    cases = [c for c in CASES if re.search(args.filter, c.name)]
    if args.list:
        for c in cases:
            print(f"{c.name:34} exit {c.status}  {c.what}")
        return 0
    names = [c.name for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    os.makedirs(args.work, exist_ok=True)
    r = Runner(args)
    failed = 0
    for c in cases:
        problems, out, cmd, seconds = run_case(c, r, os.path.abspath(args.work))
        if problems:
            failed += 1
            print(f"FAIL {c.name} ({c.what}; {seconds:.1f} s)")
            print(f"  command: {cmd}")
            for prob in problems:
                print(f"  - {prob}")
            print("  output: " + "\n          ".join(out.strip().splitlines()[-12:]))
        else:
            print(f"PASS {c.name} (exit {c.status}, {seconds:.1f} s)")
    print(f"{len(cases) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
