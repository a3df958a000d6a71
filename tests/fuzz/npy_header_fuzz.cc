// tests/fuzz/npy_header_fuzz.cc — libFuzzer target of the command line's
// .npy reader (tools/normgrad/npy.h): the input is a whole .npy file, parsed
// from memory (ParseNpyHeader) and read from disk (ReadNpyHeader).
//
// Invariants checked on every input, beyond "does not crash":
//   - an accepted header's descr is byte order, kind and item size, and its
//     data_bytes is item size times the product of the shape, without
//     overflow; the dictionary ends inside the input;
//   - the header numpy would write for that descr and shape (MakeNpyHeader)
//     is parsed back to the same array, with the data at a multiple of 64;
//   - ReadNpyHeader accepts the file exactly when the header parses and the
//     file holds data_offset + data_bytes bytes, and then agrees with
//     ParseNpyHeader.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "npy.h"

namespace {

using normgrad::cli::NpyHeader;

std::string g_path;  // the file ReadNpyHeader reads, rewritten per input

void Check(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "npy_header_fuzz: invariant broken: %s\n", what);
    std::abort();
  }
}

bool SameArray(const NpyHeader& a, const NpyHeader& b) {
  return a.descr == b.descr && a.byte_order == b.byte_order && a.kind == b.kind &&
         a.item_size == b.item_size && a.fortran_order == b.fortran_order && a.shape == b.shape &&
         a.data_bytes == b.data_bytes;
}

void CheckAccepted(std::string_view bytes, const NpyHeader& h) {
  Check(h.data_offset <= bytes.size(), "the dictionary ends inside the input");
  Check(h.data_offset >= 10, "the data starts after magic, version and length");
  Check(h.descr.size() >= 3 && h.descr[0] == h.byte_order && h.descr[1] == h.kind,
        "descr starts with the byte order and the kind");
  uint64_t size_in_descr = 0;
  for (size_t i = 2; i < h.descr.size(); ++i) {
    Check(h.descr[i] >= '0' && h.descr[i] <= '9', "descr ends in decimal digits");
    size_in_descr = size_in_descr * 10 + static_cast<uint64_t>(h.descr[i] - '0');
  }
  Check(h.item_size >= 1 && size_in_descr == h.item_size, "item_size is descr's size");
  uint64_t bytes_needed = h.item_size;
  for (uint64_t dim : h.shape) {
    Check(!__builtin_mul_overflow(bytes_needed, dim, &bytes_needed),
          "an accepted shape's size in bytes fits in 64 bits");
  }
  Check(bytes_needed == h.data_bytes, "data_bytes = item_size * product(shape)");

  const std::string written = normgrad::cli::MakeNpyHeader(h.descr, h.shape);
  NpyHeader again;
  Check(normgrad::cli::ParseNpyHeader(written, &again).ok(),
        "the header MakeNpyHeader writes parses");
  NpyHeader c_order = h;
  c_order.fortran_order = false;
  Check(SameArray(again, c_order), "MakeNpyHeader's header describes the same array");
  Check(again.data_offset == written.size() && written.size() % 64 == 0,
        "MakeNpyHeader pads the data to a multiple of 64 bytes");
}

void CheckFile(std::string_view bytes, bool parsed, const NpyHeader& h) {
  FILE* f = std::fopen(g_path.c_str(), "wb");
  Check(f != nullptr && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size() &&
            std::fclose(f) == 0,
        "the input is written to the temporary file");
  NpyHeader from_file;
  const bool read = normgrad::cli::ReadNpyHeader(g_path, &from_file).ok();
  const bool exact = parsed && bytes.size() - h.data_offset == h.data_bytes;
  Check(read == exact, "ReadNpyHeader accepts exactly a valid header followed by data_bytes bytes");
  if (read) {
    Check(SameArray(from_file, h) && from_file.data_offset == h.data_offset,
          "ReadNpyHeader and ParseNpyHeader agree");
  }
}

void RemoveFile() { unlink(g_path.c_str()); }

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* dir = std::getenv("TMPDIR");
  std::string path = std::string(dir != nullptr ? dir : "/tmp") + "/npy_header_fuzz.XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd < 0) {
    std::perror("npy_header_fuzz: mkstemp");
    std::abort();
  }
  close(fd);
  g_path = path;
  std::atexit(RemoveFile);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  NpyHeader h;
  const bool parsed = normgrad::cli::ParseNpyHeader(bytes, &h).ok();
  if (parsed) CheckAccepted(bytes, h);
  CheckFile(bytes, parsed, h);
  return 0;
}
