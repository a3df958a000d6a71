// python/src/arrays.cc — reading numpy arrays and torch tensors as the
// engine's rows (arrays.h says which layouts are accepted), and turning
// engine statuses into Python exceptions.
#include "arrays.h"

#include <Python.h>

#include <cstdint>
#include <string>

namespace normgrad::python {
namespace {

std::string StridesText(const Input& a) {
  std::string text = "(";
  for (size_t i = 0; i < a.ndim(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(a.stride(i));
  }
  return text + (a.ndim() == 1 ? ",)" : ")");
}

// The bytes [begin, end) from an array's lowest element to past its highest;
// empty for an array without elements.
struct Extent {
  uintptr_t begin = 0;
  uintptr_t end = 0;
};

Extent ExtentOf(const Input& a) {
  const auto base = reinterpret_cast<uintptr_t>(a.data());
  const int64_t item = (a.dtype().bits * a.dtype().lanes + 7) / 8;
  int64_t low = 0, high = 0;  // element offsets of the lowest and highest elements
  for (size_t i = 0; i < a.ndim(); ++i) {
    if (a.shape(i) == 0) return {};
    const int64_t step = a.stride(i) * static_cast<int64_t>(a.shape(i) - 1);
    (step < 0 ? low : high) += step;
  }
  return {base + static_cast<uintptr_t>(low * item),
          base + static_cast<uintptr_t>((high + 1) * item)};
}

bool Overlap(const Extent& a, const Extent& b) {
  return a.begin < a.end && b.begin < b.end && a.begin < b.end && b.begin < a.end;
}

}  // namespace

std::string Prefix(const char* api, const char* name) {
  return std::string(api) + ": " + name + " ";
}

std::string TypeText(const nb::dlpack::dtype& t) {
  switch (static_cast<nb::dlpack::dtype_code>(t.code)) {
    case nb::dlpack::dtype_code::Int:
      return "int" + std::to_string(t.bits);
    case nb::dlpack::dtype_code::UInt:
      return "uint" + std::to_string(t.bits);
    case nb::dlpack::dtype_code::Float:
      return "float" + std::to_string(t.bits);
    case nb::dlpack::dtype_code::Bfloat:
      return "bfloat" + std::to_string(t.bits);
    case nb::dlpack::dtype_code::Complex:
      return "complex" + std::to_string(t.bits);
    case nb::dlpack::dtype_code::Bool:
      return "bool";
    default:
      return "type code " + std::to_string(t.code);
  }
}

std::string ShapeText(const Input& a) {
  std::string text = "(";
  for (size_t i = 0; i < a.ndim(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(a.shape(i));
  }
  return text + (a.ndim() == 1 ? ",)" : ")");
}

void CheckApart(const char* api, std::initializer_list<Named> outputs,
                std::initializer_list<Named> inputs) {
  auto refuse = [&](const Named& out, const Named& other, const char* kind) {
    throw nb::value_error((Prefix(api, out.name) + "shares memory with " + kind + other.name +
                           "; an output must not overlap an input or another output (the "
                           "engine reads the inputs while it writes): pass separate arrays")
                              .c_str());
  };
  for (auto o = outputs.begin(); o != outputs.end(); ++o) {
    const Extent e = ExtentOf(*o->array);
    for (const Named& in : inputs) {
      if (Overlap(e, ExtentOf(*in.array))) refuse(*o, in, "the input ");
    }
    for (auto later = o + 1; later != outputs.end(); ++later) {
      if (Overlap(e, ExtentOf(*later->array))) refuse(*o, *later, "");
    }
  }
}

bool TypeOf(const nb::dlpack::dtype& t, bool marked_bf16, DType* out) {
  using Code = nb::dlpack::dtype_code;
  if (t.lanes != 1) return false;
  const auto code = static_cast<Code>(t.code);
  if (code == Code::Float && t.bits == 32 && !marked_bf16)
    *out = DType::kF32;
  else if (code == Code::Float && t.bits == 16 && !marked_bf16)
    *out = DType::kF16;
  else if (code == Code::Bfloat && t.bits == 16)
    *out = DType::kBF16;
  else if (code == Code::UInt && t.bits == 16 && marked_bf16)
    *out = DType::kBF16;
  else
    return false;
  return true;
}

DType TypeOf(const char* api, const char* name, const Input& a, bool marked_bf16) {
  DType dtype;
  if (TypeOf(a.dtype(), marked_bf16, &dtype)) return dtype;
  const std::string type = TypeText(a.dtype());
  if (marked_bf16) {
    throw nb::type_error((Prefix(api, name) + "has type " + type +
                          "; with dtype=\"bfloat16\" every array must hold the bfloat16 bits "
                          "as uint16 (or be bfloat16)")
                             .c_str());
  }
  throw nb::type_error(
      (Prefix(api, name) + "has type " + type +
       "; it must be float32, float16 or bfloat16 (ml_dtypes.bfloat16, torch.bfloat16, or "
       "uint16 bits with dtype=\"bfloat16\")")
          .c_str());
}

Rows RowsOf(const char* api, const char* name, const Input& a, bool marked_bf16) {
  Rows r;
  r.dtype = TypeOf(api, name, a, marked_bf16);
  r.data = a.data();
  const size_t ndim = a.ndim();
  if (ndim == 0) {
    throw nb::value_error((Prefix(api, name) + "is a 0-d array; it needs at least one axis "
                                               "(H, rows × H or B × S × H)")
                              .c_str());
  }
  auto refuse = [&](const std::string& rule) {
    throw nb::value_error((Prefix(api, name) + "has shape " + ShapeText(a) + " and strides " +
                           StridesText(a) + " (in elements): " + rule +
                           "; pass a C-contiguous array (numpy.ascontiguousarray, "
                           "tensor.contiguous())")
                              .c_str());
  };
  r.cols = a.shape(ndim - 1);
  size_t elements = r.cols;
  for (size_t i = 0; i + 1 < ndim; ++i) elements *= a.shape(i);
  if (elements == 0 && r.cols > 0) {
    // No rows: nothing is read or written, so the strides do not matter
    // (DLPack exporters fill them in freely for arrays without elements).
    r.rows = 0;
    r.row_stride = r.cols;
    return r;
  }
  if (r.cols > 1 && a.stride(ndim - 1) != 1) {
    refuse("the last axis must be contiguous (stride 1)");
  }
  // The leading axes collapse into rows one row stride apart; axes of
  // length 1 have no meaningful stride.
  r.rows = 1;
  bool have_stride = false;
  int64_t expected = 0;
  for (size_t i = ndim - 1; i-- > 0;) {
    const size_t n = a.shape(i);
    r.rows *= n;
    if (n == 1) continue;
    const int64_t s = a.stride(i);
    if (!have_stride) {
      if (s < static_cast<int64_t>(r.cols)) {
        refuse("rows must be at least H = " + std::to_string(r.cols) +
               " elements apart, in increasing order");
      }
      r.row_stride = static_cast<size_t>(s);
      have_stride = true;
    } else if (s != expected) {
      refuse("the axes before the last must together step through rows one fixed stride apart");
    }
    expected = s * static_cast<int64_t>(n);
  }
  if (!have_stride) r.row_stride = r.cols;
  if (r.cols == 0) {
    throw nb::value_error(
        (Prefix(api, name) + "has shape " + ShapeText(a) + ": the last axis (H) must not be empty")
            .c_str());
  }
  return r;
}

void CheckVector(const char* api, const char* name, const Input& a, bool marked_bf16, DType dtype,
                 size_t count, const char* why) {
  DType t;
  if (!TypeOf(a.dtype(), marked_bf16, &t) || t != dtype) {
    const std::string type =
        TypeOf(a.dtype(), marked_bf16, &t) ? DTypeName(t) : TypeText(a.dtype());
    throw nb::type_error(
        (Prefix(api, name) + "has type " + type + "; it must be " + DTypeName(dtype) + ", " + why)
            .c_str());
  }
  if (a.ndim() != 1 || a.shape(0) != count || (count > 1 && a.stride(0) != 1)) {
    throw nb::value_error((Prefix(api, name) + "has shape " + ShapeText(a) + " and strides " +
                           StridesText(a) + "; it must be a contiguous vector of " +
                           std::to_string(count) + " elements")
                              .c_str());
  }
}

void RaiseIfFailed(const Status& status) {
  if (status.ok()) return;
  if (status.code() == StatusCode::kOutOfMemory) {
    PyErr_SetString(PyExc_MemoryError, status.message().c_str());
    throw nb::python_error();
  }
  throw nb::value_error(status.message().c_str());
}

Order OrderOf(const char* api, const std::string& order) {
  if (order == "blocked") return Order::kBlocked;
  if (order == "sequential") return Order::kSequential;
  throw nb::value_error((std::string(api) + ": order \"" + order +
                         "\" is not known; it must be \"blocked\" or \"sequential\"")
                            .c_str());
}

}  // namespace normgrad::python
