# riscv64-linux-gnu.cmake - CMake toolchain file for Debian's riscv64-linux-gnu cross compiler
# (gcc-riscv64-linux-gnu, libc6-dev-riscv64-cross): libtccrt for objects made by
# tcc compile --mtriple riscv64-linux-gnu (docs/cross.md).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(CMAKE_C_COMPILER riscv64-linux-gnu-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/riscv64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
