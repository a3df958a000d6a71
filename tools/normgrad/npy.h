// tools/normgrad/npy.h — the NumPy .npy format for the normgrad command
// line: parsing and writing headers (format versions 1.0, 2.0 and 3.0), and
// reading raw bytes of .npy and .bin files.
//
// The reader is strict and never trusts the file: every length is checked
// against the file's size before anything is allocated, so a malformed or
// hostile file gives an error message, never a crash or a huge allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "normgrad/status.h"

namespace normgrad::cli {

/// What a .npy header says about the array that follows it.
struct NpyHeader {
  std::string descr;           ///< numpy type string as written, e.g. "<f4"
  char byte_order = 0;         ///< '<', '>', '|' or '='
  char kind = 0;               ///< 'f' float, 'u' unsigned, 'i' signed, ...
  uint64_t item_size = 0;      ///< bytes per element
  bool fortran_order = false;  ///< true: column-major data
  std::vector<uint64_t> shape;
  uint64_t data_offset = 0;  ///< bytes before the data
  uint64_t data_bytes = 0;   ///< product(shape) · item_size
};

/// Parses a complete .npy header at the start of `bytes` (magic, version,
/// header length, dictionary). `bytes` may hold more than the header (e.g.
/// the whole file); the data that follows is not looked at.
Status ParseNpyHeader(std::string_view bytes, NpyHeader* header);

/// Reads and parses the header of the .npy file `path` and checks that the
/// file holds exactly the data the header describes.
Status ReadNpyHeader(const std::string& path, NpyHeader* header);

/// Reads `size` bytes from `path`, starting at byte `offset`.
Status ReadBytes(const std::string& path, uint64_t offset, uint64_t size,
                 std::vector<unsigned char>* data);

/// The size of the regular file `path` in bytes; an error if it is missing,
/// unreadable or not a regular file.
Status RegularFileSize(const std::string& path, uint64_t* size);

/// A version 1.0 .npy header for a C-order array, padded so the data starts
/// at a multiple of 64 bytes (as numpy writes it).
std::string MakeNpyHeader(std::string_view descr, const std::vector<uint64_t>& shape);

}  // namespace normgrad::cli
