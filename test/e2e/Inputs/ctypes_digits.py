"""ctypes_digits.py LIB DATA_DIR - runs the digits model from a shared library
(tcc compile -o digits.so) through Python's ctypes, as an FFI user would:
no header, no C compiler, only the library's C API. Prints the accuracy."""
import ctypes
import sys

import numpy as np

lib = ctypes.CDLL(sys.argv[1])
data = sys.argv[2]
lib.digits_workspace_size.restype = ctypes.c_size_t
lib.tcc_workspace_alloc.restype = ctypes.c_void_p
lib.tcc_workspace_alloc.argtypes = [ctypes.c_size_t]
lib.tcc_workspace_free.argtypes = [ctypes.c_void_p]
lib.digits_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
images = np.fromfile(f"{data}/samples.bin", np.float32).reshape(100, 64)
labels = np.fromfile(f"{data}/labels.bin", np.uint8)
workspace = lib.tcc_workspace_alloc(lib.digits_workspace_size())
logits = np.zeros(10, np.float32)
correct = 0
for image, label in zip(images, labels):
    image = np.ascontiguousarray(image)
    status = lib.digits_run(image.ctypes.data, logits.ctypes.data, workspace)
    if status != 0:
        sys.exit(f"digits_run: status {status}")
    correct += int(np.argmax(logits) == label)
lib.tcc_workspace_free(workspace)
print(f"ctypes: accuracy {correct}/100")
