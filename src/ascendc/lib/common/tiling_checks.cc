// src/ascendc/lib/common/tiling_checks.cc — the shared error reporting and
// shape validation of the host tiling functions (tiling_checks.h).
#include "ascendc/lib/common/tiling_checks.h"

#include <cstdio>

namespace normgrad_ascendc {
namespace host_tiling {

void Report(const char* function, const std::string& problem,
            const char* consequence) {
  std::fprintf(stderr, "%s: %s; %s.\n", function, problem.c_str(), consequence);
}

std::string ShapeText(const ge::Shape& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.GetDimNum(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(shape.GetDim(i));
  }
  return text + "]";
}

bool CheckTypeSize(const char* function, const char* argument, uint32_t size,
                   const char* two, const char* consequence) {
  if (size == 2 || size == 4) return true;
  Report(function,
         std::string(argument) + " " + std::to_string(size) +
             " is not supported: it must be 2 (" + two + ") or 4 (float)",
         consequence);
  return false;
}

bool CheckRank(const char* function, const std::string& text,
               const ge::Shape& shape, DimNames names,
               const char* consequence) {
  if (shape.GetDimNum() == names.size()) return true;
  std::string list;
  for (const char* name : names) {
    list += list.empty() ? "{" : ", ";
    list += name;
  }
  Report(function,
         text + " has " + std::to_string(shape.GetDimNum()) +
             " dimensions: it must have " + std::to_string(names.size()) +
             ", " + list + "}",
         consequence);
  return false;
}

bool CheckDimRanges(const char* function, const std::string& text,
                    const ge::Shape& shape, DimNames names,
                    const char* consequence, uint64_t* dims) {
  size_t i = 0;
  for (const char* name : names) {
    const int64_t d = shape.GetDim(i);
    if (d < 1 || static_cast<uint64_t>(d) > kU32Max) {
      Report(function,
             text + " has " + name + " = " + std::to_string(d) +
                 ": every dimension must be in [1, 4294967295]",
             consequence);
      return false;
    }
    dims[i++] = static_cast<uint64_t>(d);
  }
  return true;
}

bool CheckDims(const char* function, const std::string& text,
               const ge::Shape& shape, DimNames names, const char* consequence,
               uint64_t* dims) {
  return CheckRank(function, text, shape, names, consequence) &&
         CheckDimRanges(function, text, shape, names, consequence, dims);
}

bool CountElements(const char* function, const ge::Shape& shape,
                   const char* count, const char* consequence,
                   uint64_t* elements) {
  const std::string text = "srcShape " + ShapeText(shape);
  if (shape.GetDimNum() == 0) {
    Report(function, text + " has no dimension: it must have at least one",
           consequence);
    return false;
  }
  uint64_t n = 1;
  for (size_t i = 0; i < shape.GetDimNum(); ++i) {
    const int64_t d = shape.GetDim(i);
    if (d < 1 || static_cast<uint64_t>(d) > kU32Max ||
        n * static_cast<uint64_t>(d) > kU32Max) {
      Report(function,
             text + " has dimension " + std::to_string(i) + " = " +
                 std::to_string(d) +
                 ": every dimension must be at least 1 and the elements at "
                 "most 4294967295 (" +
                 count + " is 32 bits)",
             consequence);
      return false;
    }
    n *= static_cast<uint64_t>(d);
  }
  *elements = n;
  return true;
}

bool CheckInputs(const char* function, const ge::Shape& shape,
                 uint32_t type_size, const char* consequence, Dims* dims) {
  uint64_t d[4];
  const std::string text = "srcShape " + ShapeText(shape);
  if (!CheckTypeSize(function, "typeSize", type_size, "half", consequence) ||
      !CheckDims(function, text, shape, {"B", "S", "H", "originalH"},
                 consequence, d)) {
    return false;
  }
  const uint64_t b = d[0];
  const uint64_t s = d[1];
  const uint64_t h = d[2];
  const uint64_t original_h = d[3];
  if (original_h != h) {
    Report(function,
           text + " has originalH = " + std::to_string(original_h) +
               " but H = " + std::to_string(h) +
               ": normgrad requires originalH == H (pad each row with zeros "
               "to the aligned H and pass that H as both)",
           consequence);
    return false;
  }
  const uint64_t bs = b * s;  // both < 2^32: fits in 64 bits
  if (bs > kU32Max) {
    Report(function,
           text + " gives B*S = " + std::to_string(bs) +
               ": B*S and B*S*H must fit in 32 bits (at most 4294967295)",
           consequence);
    return false;
  }
  const uint64_t bsh = bs * h;  // both < 2^32: fits in 64 bits
  if (bsh > kU32Max) {
    Report(function,
           text + " gives B*S*H = " + std::to_string(bsh) +
               ": B*S and B*S*H must fit in 32 bits (at most 4294967295)",
           consequence);
    return false;
  }
  *dims = {static_cast<uint32_t>(b), static_cast<uint32_t>(s),
           static_cast<uint32_t>(h), static_cast<uint32_t>(bs),
           static_cast<uint32_t>(bsh)};
  return true;
}

}  // namespace host_tiling
}  // namespace normgrad_ascendc
