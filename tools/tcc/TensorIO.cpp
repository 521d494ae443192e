//===- TensorIO.cpp - .npy and ONNX TensorProto (.pb) tensors -------------===//
#include "TensorIO.h"

#include "tcc/Header.h"
#include "tcc/ReadFile.h"
#include "tcc/Sizes.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <onnx/onnx_pb.h>

#include <cstring>
#include <limits>

using namespace tcc;

namespace {
struct NpyType {
  const char *descr;
  int dtype;
  const char *name;
};
const NpyType kNpyTypes[] = {
    {"<f4", 1, "float32"}, {"|u1", 2, "uint8"},   {"|i1", 3, "int8"},
    {"<u2", 4, "uint16"},  {"<i2", 5, "int16"},   {"<i4", 6, "int32"},
    {"<i8", 7, "int64"},   {"|b1", 9, "bool"},    {"<f2", 10, "float16"},
    {"<f8", 11, "float64"}, {"<u4", 12, "uint32"}, {"<u8", 13, "uint64"},
};
} // namespace

std::string tcc::dtypeString(int dtype) {
  for (const NpyType &t : kNpyTypes)
    if (t.dtype == dtype)
      return t.name;
  return "dtype " + std::to_string(dtype);
}

static bool readNpy(llvm::StringRef bytes, HostTensor &tensor,
                    std::string &error) {
  if (bytes.size() < 10 || !bytes.starts_with("\x93NUMPY")) {
    error = "not a .npy file (bad magic)";
    return false;
  }
  unsigned major = (unsigned char)bytes[6];
  size_t headerLen, start;
  if (major == 1) {
    headerLen = (unsigned char)bytes[8] | ((unsigned char)bytes[9] << 8);
    start = 10;
  } else {
    if (bytes.size() < 12) {
      error = "truncated .npy header";
      return false;
    }
    headerLen = 0;
    for (int i = 0; i < 4; ++i)
      headerLen |= (size_t)(unsigned char)bytes[8 + i] << (8 * i);
    start = 12;
  }
  if (start + headerLen > bytes.size()) {
    error = "truncated .npy header";
    return false;
  }
  llvm::StringRef header = bytes.substr(start, headerLen);
  auto field = [&](llvm::StringRef key) -> llvm::StringRef {
    size_t pos = header.find("'" + key.str() + "'");
    if (pos == llvm::StringRef::npos)
      return {};
    return header.substr(pos + key.size() + 2).ltrim(" :");
  };
  llvm::StringRef descr = field("descr");
  if (descr.empty() || descr[0] != '\'') {
    error = "missing 'descr' in the .npy header";
    return false;
  }
  descr = descr.drop_front().split('\'').first;
  tensor.dtype = 0;
  for (const NpyType &t : kNpyTypes)
    if (descr == t.descr || (descr.size() == 3 && descr[0] == '=' &&
                             descr.drop_front() == llvm::StringRef(t.descr).drop_front()))
      tensor.dtype = t.dtype;
  if (!tensor.dtype) {
    error = "unsupported .npy dtype '" + descr.str() + "'";
    return false;
  }
  if (field("fortran_order").starts_with("True")) {
    error = "Fortran-ordered .npy arrays are not supported";
    return false;
  }
  llvm::StringRef shape = field("shape");
  if (!shape.consume_front("(")) {
    error = "missing 'shape' in the .npy header";
    return false;
  }
  shape = shape.split(')').first;
  tensor.dims.clear();
  llvm::SmallVector<llvm::StringRef> parts;
  shape.split(parts, ',');
  for (llvm::StringRef p : parts) {
    p = p.trim();
    if (p.empty())
      continue;
    int64_t d;
    if (p.getAsInteger(10, d) || d < 0) {
      error = "bad dim '" + p.str() + "' in the .npy shape";
      return false;
    }
    tensor.dims.push_back(d);
  }
  if (tensor.dims.size() > kMaxTensorRank) {
    error = "the .npy shape has " + std::to_string(tensor.dims.size()) +
            " dims; tcc takes at most " + std::to_string(kMaxTensorRank);
    return false;
  }
  std::optional<int64_t> expected =
      checkedNumBytes(tensor.dims, dtypeSize(tensor.dtype));
  if (!expected) {
    error = "the .npy shape (";
    for (size_t i = 0; i < tensor.dims.size(); ++i)
      error += (i ? ", " : "") + std::to_string(tensor.dims[i]);
    error += std::string(tensor.dims.size() == 1 ? ",) " : ") ") +
             "is too large (over " + kMaxTensorBytesText + ")";
    return false;
  }
  llvm::StringRef data = bytes.substr(start + headerLen);
  if ((int64_t)data.size() != *expected) {
    error = "the .npy data has " + std::to_string(data.size()) +
            " bytes, its header says " + std::to_string(*expected);
    return false;
  }
  tensor.data.assign(data.begin(), data.end());
  return true;
}

template <typename Field>
static std::vector<char> packField(const Field &field, size_t elemBytes) {
  std::vector<char> bytes(field.size() * elemBytes);
  for (int i = 0; i < field.size(); ++i) {
    auto v = field.Get(i);
    std::memcpy(bytes.data() + i * elemBytes, &v, elemBytes);
  }
  return bytes;
}

static bool readTensorProto(llvm::StringRef bytes, HostTensor &tensor,
                            std::string &error) {
  onnx::TensorProto t;
  if (bytes.size() > (size_t)std::numeric_limits<int>::max()) {
    error = "a TensorProto holds at most 2 GiB; this file is larger";
    return false;
  }
  if (!t.ParseFromArray(bytes.data(), (int)bytes.size())) {
    error = "not a serialized ONNX TensorProto";
    return false;
  }
  tensor.dtype = t.data_type();
  size_t elemBytes = dtypeSize(tensor.dtype);
  if (!elemBytes) {
    error = "unsupported TensorProto data type " + std::to_string(t.data_type());
    return false;
  }
  tensor.dims.assign(t.dims().begin(), t.dims().end());
  if (tensor.dims.size() > kMaxTensorRank) {
    error = "the TensorProto has " + std::to_string(tensor.dims.size()) +
            " dims; tcc takes at most " + std::to_string(kMaxTensorRank);
    return false;
  }
  if (std::optional<int64_t> d = negativeDim(tensor.dims)) {
    error = "the TensorProto has a negative dim " + std::to_string(*d);
    return false;
  }
  std::optional<int64_t> expected = checkedNumBytes(tensor.dims, elemBytes);
  if (!expected) {
    error = "the TensorProto's shape [";
    for (size_t i = 0; i < tensor.dims.size(); ++i)
      error += (i ? "," : "") + std::to_string(tensor.dims[i]);
    error += std::string("] is too large (over ") + kMaxTensorBytesText + ")";
    return false;
  }
  if (t.has_raw_data())
    tensor.data.assign(t.raw_data().begin(), t.raw_data().end());
  else if (tensor.dtype == onnx::TensorProto::FLOAT)
    tensor.data = packField(t.float_data(), 4);
  else if (tensor.dtype == onnx::TensorProto::DOUBLE)
    tensor.data = packField(t.double_data(), 8);
  else if (tensor.dtype == onnx::TensorProto::INT64)
    tensor.data = packField(t.int64_data(), 8);
  else if (tensor.dtype == onnx::TensorProto::UINT64 ||
           tensor.dtype == onnx::TensorProto::UINT32)
    tensor.data = packField(t.uint64_data(), elemBytes);
  else
    tensor.data = packField(t.int32_data(), elemBytes);
  if ((int64_t)tensor.data.size() != *expected) {
    error = "TensorProto data size does not match its dims";
    return false;
  }
  return true;
}

bool tcc::readTensorFile(const std::string &path, HostTensor &tensor,
                         std::string &error) {
  std::string why;
  std::unique_ptr<llvm::MemoryBuffer> buffer = readRegularFile(path, why);
  if (!buffer) {
    error = "cannot read '" + path + "': " + why;
    return false;
  }
  if (readTensorBytes(buffer->getBuffer(),
                      llvm::StringRef(path).ends_with(".npy"), tensor, error))
    return true;
  error = "'" + path + "': " + error;
  return false;
}

bool tcc::readTensorBytes(llvm::StringRef bytes, bool npy, HostTensor &tensor,
                          std::string &error) {
  return npy ? readNpy(bytes, tensor, error)
             : readTensorProto(bytes, tensor, error);
}

/// Writes `bytes` to `path` through a temporary file and a rename, so a
/// failed write leaves no half-written file.
static bool writeAtomically(const std::string &path, llvm::StringRef bytes,
                            std::string &error) {
  // A temporary name of its own, never an existing file's (not even an
  // input's that happens to be called PATH.tmp).
  llvm::SmallString<256> tmp;
  int fd;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueFile(path + "-%%%%%%.tmp", fd, tmp)) {
    error = "cannot write beside '" + path + "': " + ec.message();
    return false;
  }
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << bytes;
    os.close();
    if (os.has_error()) {
      error = "cannot write '" + tmp.str().str() + "': " + os.error().message();
      os.clear_error();
      llvm::sys::fs::remove(tmp);
      return false;
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(tmp, path)) {
    error = "cannot rename to '" + path + "': " + ec.message();
    llvm::sys::fs::remove(tmp);
    return false;
  }
  return true;
}

static const char *npyDescr(int dtype) {
  for (const NpyType &t : kNpyTypes)
    if (t.dtype == dtype)
      return t.descr;
  return nullptr;
}

bool tcc::writeNpy(const std::string &path, const HostTensor &tensor,
                   std::string &error) {
  const char *descr = npyDescr(tensor.dtype);
  if (!descr) {
    error = "cannot write dtype " + std::to_string(tensor.dtype) + " as .npy";
    return false;
  }
  std::string header = "{'descr': '" + std::string(descr) +
                       "', 'fortran_order': False, 'shape': (";
  for (int64_t d : tensor.dims)
    header += std::to_string(d) + (tensor.dims.size() == 1 ? "," : ", ");
  if (tensor.dims.size() > 1)
    header.resize(header.size() - 2);
  header += "), }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';

  std::string bytes = "\x93NUMPY";
  bytes += '\x01';
  bytes += '\x00';
  bytes += (char)(header.size() & 0xff);
  bytes += (char)(header.size() >> 8);
  bytes += header;
  bytes.append(tensor.data.data(), tensor.data.size());
  return writeAtomically(path, bytes, error);
}

bool tcc::writeTensorProto(const std::string &path, const std::string &name,
                           const HostTensor &tensor, std::string &error) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(tensor.dtype);
  for (int64_t d : tensor.dims)
    t.add_dims(d);
  t.set_raw_data(tensor.data.data(), tensor.data.size());
  return writeAtomically(path, t.SerializeAsString(), error);
}

std::string tcc::outputExtension(int dtype) {
  return npyDescr(dtype) ? ".npy" : ".pb";
}

std::string tcc::writeOutputTensor(const std::string &stem,
                                   const std::string &name,
                                   const HostTensor &tensor,
                                   std::string &error) {
  std::string path = stem + outputExtension(tensor.dtype);
  if (npyDescr(tensor.dtype))
    return writeNpy(path, tensor, error) ? path : std::string();
  return writeTensorProto(path, name, tensor, error) ? path : std::string();
}
