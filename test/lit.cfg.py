# lit configuration of tcc's test suite (build/test holds the site config).
import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config

config.name = "tcc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tcc_obj_root, "test")
config.excludes = ["Inputs", "lit.cfg.py", "CMakeLists.txt", "README.md"]

llvm_config.use_default_substitutions()
tools_bin = os.path.join(config.tcc_obj_root, "bin")
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", tools_bin, append_path=True)
llvm_config.add_tool_substitutions(["tcc", "tcc-opt"], [tools_bin])

config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%cc", config.c_compiler))
config.substitutions.append(("%tcc_src", config.tcc_src_root))
config.substitutions.append(("%tcc_include",
                             os.path.join(config.tcc_src_root, "include")))
config.substitutions.append(("%tccrt",
                             os.path.join(config.tcc_obj_root, "lib",
                                          "libtccrt.a")))
config.substitutions.append(("%tcc_build", config.tcc_obj_root))
config.substitutions.append(("%models_cache",
                             os.path.join(config.tcc_obj_root, "models")))

# Python packages for reference outputs (onnxruntime, torch) gate tests.
def python_has(module):
    if not config.python_executable:
        return False
    return subprocess.run([config.python_executable, "-c", "import " + module],
                          stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0

for module in ["onnx", "onnxruntime", "torch", "torchvision", "timm", "transformers"]:
    if python_has(module):
        config.available_features.add("py-" + module)

# A CPU with AVX512-BF16 (vdpbf16ps): tests that run --precision bf16 code
# REQUIRE avx512bf16; elsewhere they are UNSUPPORTED (skipped), never passed.
def cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()

# AVX2: tests that run code compiled for x86-64-v3 on this host REQUIRE avx2.
if "avx2" in cpu_flags():
    config.available_features.add("avx2")

if "avx512_bf16" in cpu_flags():
    config.available_features.add("avx512bf16")
else:
    lit_config.note("skipped: no AVX512-BF16 CPU (the tests that run --precision bf16 "
                    "code are UNSUPPORTED)")

# CUDA's ptxas (the toolkit at CUDA_HOME, /usr/local/cuda, or on PATH):
# tests that serialize GPU kernels to SASS need it; %cuda_path is its
# toolkit.
def find_cuda():
    candidates = [os.environ.get("CUDA_HOME", ""), "/usr/local/cuda"]
    ptxas = shutil.which("ptxas")
    if ptxas:
        candidates.append(os.path.dirname(os.path.dirname(ptxas)))
    for root in candidates:
        if root and os.access(os.path.join(root, "bin", "ptxas"), os.X_OK):
            return root
    return None

# Other targets' C compilers and user-mode emulators (utils/setup.sh installs Debian's
# gcc-aarch64-linux-gnu, gcc-riscv64-linux-gnu and qemu-user-static): tests that run objects
# compiled with --mtriple under qemu REQUIRE qemu-aarch64 / qemu-riscv64.
for arch in ("aarch64", "riscv64"):
    if shutil.which(f"qemu-{arch}-static") and shutil.which(f"{arch}-linux-gnu-gcc"):
        config.available_features.add(f"qemu-{arch}")
    else:
        lit_config.note(f"skipped: no qemu-{arch}-static or {arch}-linux-gnu-gcc (the tests "
                        f"that run {arch} objects are UNSUPPORTED)")

# Graphviz's dot (utils/setup.sh installs it): tests that render --graph.
if shutil.which("dot"):
    config.available_features.add("graphviz")

cuda_path = find_cuda()
if cuda_path:
    config.available_features.add("ptxas")
    config.substitutions.append(("%cuda_path", cuda_path))

# A CUDA GPU this process can use (the driver's cuInit succeeds and finds a
# device): tests that run kernels on it REQUIRE cuda-device; elsewhere they
# are reported UNSUPPORTED (skipped), never passed.
# %gpu_arch is device 0's arch as --gpu-arch takes it (sm_90 beyond).
def cuda_device_arch():
    import ctypes
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None
    count, major, minor = ctypes.c_int(0), ctypes.c_int(0), ctypes.c_int(0)
    if cuda.cuInit(0) != 0 or cuda.cuDeviceGetCount(ctypes.byref(count)) != 0 \
            or count.value == 0:
        return None
    # CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR / _MINOR
    cuda.cuDeviceGetAttribute(ctypes.byref(major), 75, 0)
    cuda.cuDeviceGetAttribute(ctypes.byref(minor), 76, 0)
    arch = f"sm_{major.value}{minor.value}"
    return arch if arch in ("sm_80", "sm_89") else "sm_90"

gpu_arch = cuda_device_arch()
if gpu_arch:
    config.available_features.add("cuda-device")
    config.substitutions.append(("%gpu_arch", gpu_arch))
else:
    lit_config.note("skipped: no CUDA device (the tests that run kernels on a GPU are "
                    "UNSUPPORTED)")
