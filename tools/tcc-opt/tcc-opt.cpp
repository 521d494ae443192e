//===- tcc-opt.cpp - MlirOptMain with tcc's dialects and passes -----------===//
#include "tcc/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  tcc::registerAllDialects(registry);
  tcc::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tcc optimizer driver\n", registry));
}
