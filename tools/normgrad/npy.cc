// tools/normgrad/npy.cc — .npy header parsing and writing, and raw reads
// (see npy.h).
#include "npy.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <new>
#include <system_error>

namespace normgrad::cli {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr uint64_t kMaxU64 = std::numeric_limits<uint64_t>::max();

// Text from a file, safe to print: bytes outside printable ASCII as \xNN.
std::string Printable(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      out += escaped;
    }
  }
  return out;
}

// A cursor over the header dictionary, a small subset of Python literal
// syntax: {'key': value, ...} with string, True/False and tuple-of-int values.
class DictParser {
 public:
  explicit DictParser(std::string_view text) : text_(text) {}

  Status Parse(NpyHeader* header) {
    bool have_descr = false, have_order = false, have_shape = false;
    SkipSpace();
    if (!Consume('{')) return Error("the header is not a dictionary ('{' expected)");
    SkipSpace();
    while (!Consume('}')) {
      std::string key;
      if (!ParseString(&key)) return Error("a quoted key expected");
      SkipSpace();
      if (!Consume(':')) return Error("':' expected after '" + Printable(key) + "'");
      SkipSpace();
      if (key == "descr" && !have_descr) {
        if (!ParseString(&header->descr)) {
          return Error("'descr' is not a type string (structured dtypes are not supported)");
        }
        have_descr = true;
      } else if (key == "fortran_order" && !have_order) {
        if (!ParseBool(&header->fortran_order)) {
          return Error("'fortran_order' is not True or False");
        }
        have_order = true;
      } else if (key == "shape" && !have_shape) {
        Status s = ParseShape(&header->shape);
        if (!s.ok()) return s;
        have_shape = true;
      } else {
        return Error("unexpected or repeated key '" + Printable(key) + "'");
      }
      SkipSpace();
      if (Consume(',')) {
        SkipSpace();
      } else if (Peek() != '}') {
        return Error("',' or '}' expected");
      }
    }
    SkipSpace();
    if (pos_ != text_.size()) return Error("unexpected text after the dictionary");
    if (!have_descr || !have_order || !have_shape) {
      return Error("the dictionary needs the keys 'descr', 'fortran_order' and 'shape'");
    }
    return Status::Ok();
  }

 private:
  Status Error(const std::string& what) const {
    return Status::Error("malformed .npy header dictionary at offset " + std::to_string(pos_) +
                         ": " + what);
  }
  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool Consume(char c) {
    if (Peek() != c) return false;
    ++pos_;
    return true;
  }
  bool ConsumeWord(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }
  // A '...' or "..." string without escapes.
  bool ParseString(std::string* out) {
    const char quote = Peek();
    if (quote != '\'' && quote != '"') return false;
    const size_t end = text_.find(quote, pos_ + 1);
    if (end == std::string_view::npos) return false;
    const std::string_view body = text_.substr(pos_ + 1, end - pos_ - 1);
    if (body.find('\\') != std::string_view::npos) return false;
    *out = std::string(body);
    pos_ = end + 1;
    return true;
  }
  bool ParseBool(bool* out) {
    if (ConsumeWord("True")) {
      *out = true;
      return true;
    }
    if (ConsumeWord("False")) {
      *out = false;
      return true;
    }
    return false;
  }
  // (d0, d1, ...) with non-negative decimal integers; (n,) for rank 1; ()
  // for a scalar. An 'L' suffix (Python 2 longs, old numpy) is accepted.
  Status ParseShape(std::vector<uint64_t>* shape) {
    shape->clear();
    if (!Consume('(')) return Error("'shape' is not a tuple");
    SkipSpace();
    while (!Consume(')')) {
      if (Peek() < '0' || Peek() > '9') return Error("a dimension expected in 'shape'");
      uint64_t value = 0;
      while (Peek() >= '0' && Peek() <= '9') {
        const uint64_t digit = static_cast<uint64_t>(Peek() - '0');
        if (value > (kMaxU64 - digit) / 10) {
          return Error("a dimension in 'shape' does not fit in 64 bits");
        }
        value = value * 10 + digit;
        ++pos_;
      }
      Consume('L');
      shape->push_back(value);
      SkipSpace();
      if (Consume(',')) {
        SkipSpace();
      } else if (Peek() != ')') {
        return Error("',' or ')' expected in 'shape'");
      }
    }
    return Status::Ok();
  }

  std::string_view text_;
  size_t pos_ = 0;
};

// Splits a simple numeric type string like "<f4" into its parts: byte order,
// kind (bool, signed, unsigned, float, complex) and item size in bytes.
Status ParseDescr(NpyHeader* header) {
  const std::string& d = header->descr;
  if (d.size() < 3 || std::string_view("<>|=").find(d[0]) == std::string_view::npos ||
      std::string_view("biufc").find(d[1]) == std::string_view::npos) {
    return Status::Error("unsupported .npy dtype '" + Printable(d) + "'");
  }
  uint64_t size = 0;
  for (size_t i = 2; i < d.size(); ++i) {
    if (d[i] < '0' || d[i] > '9' || size > 1000000) {
      return Status::Error("unsupported .npy dtype '" + Printable(d) + "'");
    }
    size = size * 10 + static_cast<uint64_t>(d[i] - '0');
  }
  if (size == 0) return Status::Error("unsupported .npy dtype '" + Printable(d) + "'");
  header->byte_order = d[0];
  header->kind = d[1];
  header->item_size = size;
  return Status::Ok();
}

uint32_t LittleEndian(std::string_view bytes) {
  uint32_t value = 0;
  for (size_t i = bytes.size(); i-- > 0;) {
    value = (value << 8) | static_cast<unsigned char>(bytes[i]);
  }
  return value;
}

// Checks the magic string and the version, and finds the dictionary: it
// starts at *dict_offset and is *dict_size bytes long.
Status ParsePreamble(std::string_view bytes, uint64_t* dict_offset, uint64_t* dict_size) {
  if (bytes.size() < kMagic.size() || bytes.substr(0, kMagic.size()) != kMagic) {
    return Status::Error("not a .npy file (the magic string \\x93NUMPY is missing)");
  }
  if (bytes.size() < 8) return Status::Error("truncated .npy header");
  const int major = static_cast<unsigned char>(bytes[6]);
  const int minor = static_cast<unsigned char>(bytes[7]);
  if ((major != 1 && major != 2 && major != 3) || minor != 0) {
    return Status::Error("unsupported .npy format version " + std::to_string(major) + "." +
                         std::to_string(minor) + " (1.0, 2.0 and 3.0 are supported)");
  }
  const size_t length_bytes = major == 1 ? 2 : 4;
  if (bytes.size() < 8 + length_bytes) return Status::Error("truncated .npy header");
  *dict_offset = 8 + length_bytes;
  *dict_size = LittleEndian(bytes.substr(8, length_bytes));
  return Status::Ok();
}

std::string SystemError(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

}  // namespace

Status ParseNpyHeader(std::string_view bytes, NpyHeader* header) {
  *header = NpyHeader();
  uint64_t dict_offset = 0, dict_size = 0;
  Status s = ParsePreamble(bytes, &dict_offset, &dict_size);
  if (!s.ok()) return s;
  if (dict_size > bytes.size() - dict_offset) {
    return Status::Error("truncated .npy header (it says " + std::to_string(dict_size) +
                         " header bytes, there are " + std::to_string(bytes.size() - dict_offset) +
                         ")");
  }
  s = DictParser(bytes.substr(dict_offset, dict_size)).Parse(header);
  if (!s.ok()) return s;
  s = ParseDescr(header);
  if (!s.ok()) return s;
  header->data_offset = dict_offset + dict_size;
  uint64_t bytes_needed = header->item_size;
  for (uint64_t dim : header->shape) {
    if (dim != 0 && bytes_needed > kMaxU64 / dim) {
      return Status::Error("the .npy shape's size in bytes does not fit in 64 bits");
    }
    bytes_needed *= dim;
  }
  header->data_bytes = bytes_needed;
  return Status::Ok();
}

Status RegularFileSize(const std::string& path, uint64_t* size) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) {
    return Status::Error("cannot open " + path + ": no such file");
  }
  if (!std::filesystem::is_regular_file(status)) {
    return Status::Error("cannot read " + path + ": not a regular file");
  }
  const uintmax_t n = std::filesystem::file_size(path, ec);
  if (ec) return Status::Error("cannot read " + path + ": " + ec.message());
  *size = n;
  return Status::Ok();
}

Status ReadBytes(const std::string& path, uint64_t offset, uint64_t size,
                 std::vector<unsigned char>* data) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error(SystemError("cannot open", path));
  try {
    data->resize(size);
  } catch (const std::bad_alloc&) {
    return Status::Error("not enough memory to read " + std::to_string(size) + " bytes of " + path);
  }
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(reinterpret_cast<char*>(data->data()), static_cast<std::streamsize>(size));
  if (!in || static_cast<uint64_t>(in.gcount()) != size) {
    data->clear();
    return Status::Error("cannot read " + std::to_string(size) + " bytes at offset " +
                         std::to_string(offset) + " of " + path);
  }
  return Status::Ok();
}

Status ReadNpyHeader(const std::string& path, NpyHeader* header) {
  uint64_t file_size = 0;
  Status s = RegularFileSize(path, &file_size);
  if (!s.ok()) return s;
  // Magic, version and the header length first; then exactly the header.
  std::vector<unsigned char> prefix;
  s = ReadBytes(path, 0, file_size < 12 ? file_size : 12, &prefix);
  if (!s.ok()) return s;
  std::string bytes(prefix.begin(), prefix.end());
  uint64_t dict_offset = 0, dict_size = 0;
  s = ParsePreamble(bytes, &dict_offset, &dict_size);
  if (!s.ok()) return Status::Error(path + ": " + s.message());
  if (dict_offset + dict_size > file_size) {
    return Status::Error(path + ": truncated .npy header (it ends at byte " +
                         std::to_string(dict_offset + dict_size) + ", the file has " +
                         std::to_string(file_size) + " bytes)");
  }
  s = ReadBytes(path, 0, dict_offset + dict_size, &prefix);
  if (!s.ok()) return s;
  bytes.assign(prefix.begin(), prefix.end());
  s = ParseNpyHeader(bytes, header);
  if (!s.ok()) return Status::Error(path + ": " + s.message());
  const uint64_t data_size = file_size - header->data_offset;
  if (data_size != header->data_bytes) {
    return Status::Error(path + ": the header's dtype '" + header->descr + "' and shape need " +
                         std::to_string(header->data_bytes) + " data bytes, the file has " +
                         std::to_string(data_size) +
                         (data_size < header->data_bytes ? " (truncated file)" : ""));
  }
  return Status::Ok();
}

std::string MakeNpyHeader(std::string_view descr, const std::vector<uint64_t>& shape) {
  std::string dims;
  for (uint64_t d : shape) dims += std::to_string(d) + ", ";
  if (shape.size() > 1) dims.resize(dims.size() - 2);  // (n,) keeps its comma
  if (shape.size() == 1) dims.pop_back();
  std::string dict =
      "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  const size_t unpadded = 10 + dict.size() + 1;  // magic, version, length, '\n'
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  std::string header(kMagic);
  header += '\x01';
  header += '\x00';
  header += static_cast<char>(dict.size() & 0xff);
  header += static_cast<char>(dict.size() >> 8);
  return header + dict;
}

}  // namespace normgrad::cli
