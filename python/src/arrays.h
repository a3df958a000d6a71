// python/src/arrays.h — how the extension module reads the arrays it is
// given: numpy arrays (anything nanobind imports through the buffer protocol
// or DLPack) and torch tensors, the latter read through their own attributes
// (data_ptr, shape, stride, dtype, is_cpu, layout, is_neg), which costs about
// two thirds of a DLPack export and import and needs no libtorch. It gives
// the element type, and the rows of a matrix whose last axis holds H
// contiguous elements while the other axes collapse into rows a fixed number
// of elements apart (C-contiguous or row-strided). Such arrays are used where
// they lie, never copied; any other layout is refused with a ValueError that
// says what to pass instead, and a tensor that is not a dense CPU tensor with
// a TypeError.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

#include "normgrad/status.h"
#include "normgrad/types.h"

namespace normgrad::python {

namespace nb = nanobind;

/// An array as nanobind imports it: on the CPU, of any type and shape,
/// imported read-only even when the engine writes it (a caller's out= array
/// whose writability the Python layer has checked, or one it has just
/// allocated): for a writable import nanobind first asks for a versioned
/// DLPack capsule, which numpy 1.x refuses with a TypeError before giving the
/// plain one, and that exception is a noticeable part of a small call's
/// time.
using Imported = nb::ndarray<nb::ro, nb::device::cpu>;

/// An array argument: imported by nanobind, or a torch tensor read through
/// its attributes (its shape and strides stay in the tuples torch returned).
/// A tensor that cannot be read in place (not on the CPU, not dense, with
/// its negative bit set) is still taken, so that the call can name the
/// argument when it refuses it (Readable).
class Array {
 public:
  Array() = default;
  /// `bfloat16_bits`: `a` is the uint16 view of a bfloat16 array.
  explicit Array(Imported a, bool bfloat16_bits = false);

  size_t ndim() const { return flat_ > 0 ? 1 : ndim_; }
  size_t shape(size_t i) const;
  int64_t stride(size_t i) const;
  const nb::dlpack::dtype& dtype() const { return dtype_; }
  const void* data() const { return data_; }
  size_t nbytes() const;

  /// Reads torch tensor `t`: false when one of its attributes raised (the
  /// Python error is then cleared and the argument does not match).
  bool ReadTensor(nb::handle t);
  /// Seen as one axis when its elements lie one after another in C order
  /// (a view, as numpy.reshape(-1) makes it): true, or false when it would
  /// take a copy. A one-axis array stays as it is.
  bool FlattenInPlace();
  /// Whether this is a torch tensor (read by ReadTensor).
  bool is_tensor() const { return tensor_; }
  /// Whether this is a numpy array of ml_dtypes.bfloat16, seen as its bits.
  bool bfloat16_bits() const { return bfloat16_bits_; }
  /// Why this tensor cannot be read in place, or nullptr.
  const std::string* refusal() const { return refusal_.empty() ? nullptr : &refusal_; }
  /// The element type's name when DLPack has no code for it (a torch
  /// dtype such as qint8), else empty.
  const std::string& type_name() const { return type_name_; }

 private:
  Imported imported_;
  // A tensor's torch.Size, and its stride() tuple unless it is contiguous
  // (is_contiguous(): C strides, which stride() computes from the shape).
  nb::object shape_, strides_;
  bool tensor_ = false;
  const void* data_ = nullptr;
  size_t ndim_ = 0;
  size_t flat_ = 0;  // with FlattenInPlace: the one axis's length, else 0
  nb::dlpack::dtype dtype_{};
  std::string refusal_, type_name_;
  bool bfloat16_bits_ = false;
};

/// Reads `src` as an Array: a torch tensor through its attributes, anything
/// else as nanobind imports it (a numpy array of ml_dtypes.bfloat16 as its
/// 16-bit patterns). False, with no Python error set, when it cannot.
bool ReadArray(nb::handle src, Array* out);

/// A tensor attribute, read as `tensor.name` (a property) or
/// `tensor.name()` (a method). For the tensor types known to inherit it
/// unchanged from torch's C base class (torch.Tensor, torch.nn.Parameter)
/// it is read through that class's descriptor, without looking it up on
/// each read: for a 64 × 64 call, whose every tensor takes seven reads,
/// the lookups are a measurable part of what the call adds.
class TensorAttribute {
 public:
  TensorAttribute() = default;
  /// `method`: read as tensor.name() rather than tensor.name.
  TensorAttribute(PyTypeObject* tensor, const char* name, bool method);
  /// The attribute of tensor `t` (a new reference), or nullptr with the
  /// Python error set; `direct`: t's type inherits the descriptor.
  PyObject* Read(PyObject* t, bool direct) const;
  nb::handle name() const { return name_; }

 private:
  nb::object name_;
  bool method_call_ = false;
  getter get_ = nullptr;  // a property's getter, or
  void* closure_ = nullptr;
  PyCFunction method_ = nullptr;  // a method's C function
  int flags_ = 0;
};

/// What the module uses of torch, looked up once the process has imported
/// it: the Tensor type (and Parameter, which inherits its attributes), the
/// strided layout, the element types with their DLPack descriptions (the
/// three the engine reads first), the allocators, the tensor attributes
/// read, and other names, interned. Never freed: it lives as long as torch.
struct Torch {
  nb::object module;
  PyTypeObject* tensor = nullptr;
  PyTypeObject* parameter = nullptr;  // nullptr when it overrides an attribute read
  nb::object strided, float32, empty, empty_like;
  std::pair<nb::object, nb::dlpack::dtype> types[12];
  TensorAttribute layout, is_cpu, is_neg, dtype, shape, is_contiguous, stride, data_ptr,
      requires_grad;
  nb::object device, get_num_threads;
  nb::object dtype_keyword;  // ("dtype",): the keyword names of empty(shape, dtype=...)
  /// Whether `t`'s attributes are read through the descriptors.
  bool Direct(PyObject* t) const { return Py_TYPE(t) == tensor || Py_TYPE(t) == parameter; }
};

/// torch's handles when the process has imported torch (a dictionary
/// lookup in sys.modules until it has), else nullptr.
const Torch* TorchIfImported();

/// What the module uses of numpy, imported on the first call.
struct Numpy {
  PyTypeObject* ndarray = nullptr;
  nb::object empty, asarray, dtype, float32;  // float32: numpy.dtype("float32")
  nb::object flags, writeable;                // attribute names, interned
};
const Numpy& NumpyModule();

/// str(o), as Python writes it.
std::string Str(nb::handle o);

/// Both kinds of argument are Arrays: inputs, and outputs the engine writes.
using Input = Array;
using Output = Array;

/// Where the engine writes `out` (Imported says why it is read-only).
inline void* Target(const Output& out) { return const_cast<void*>(out.data()); }

/// The engine's thread count for the Python argument threads=: int() of
/// it, or for None torch.get_num_threads() when the process has imported
/// torch (so normgrad and torch share one setting), else 0 (OpenMP's
/// default).
int ThreadsOf(nb::handle requested);

/// Raises TypeError naming `api` and the argument `name` when `a` is a torch
/// tensor that cannot be read in place (Array::refusal).
void Readable(const char* api, const char* name, const Array& a);

/// An array seen as `rows` rows of `cols` elements, `row_stride` apart.
struct Rows {
  const void* data = nullptr;
  DType dtype = DType::kF32;
  size_t rows = 0;
  size_t cols = 0;
  size_t row_stride = 0;
};

/// The engine type of an array element type, if it has one (TypeOf below).
bool TypeOf(const nb::dlpack::dtype& t, bool marked_bf16, DType* out);

/// The engine type of `a`: float32, float16, bfloat16, or uint16 when
/// `marked_bf16` says the 16-bit patterns are bfloat16. Any other type raises
/// TypeError naming `api`, the argument `name` and the type.
DType TypeOf(const char* api, const char* name, const Input& a, bool marked_bf16);

/// Raises the TypeError of argument `name` of `api`, whose element type
/// (named `type`) is none the engine reads.
[[noreturn]] void RefuseType(const char* api, const char* name, const std::string& type,
                             bool marked_bf16);

/// `a` as rows (it must have at least one axis). Raises ValueError for
/// layouts the engine cannot read in place; an array without rows has no
/// layout to check.
Rows RowsOf(const char* api, const char* name, const Input& a, bool marked_bf16);

/// Checks that `a` holds exactly `count` contiguous elements of `dtype`;
/// `why` ends the TypeError's message ("the type of the other inputs").
void CheckVector(const char* api, const char* name, const Input& a, bool marked_bf16, DType dtype,
                 size_t count, const char* why);

/// The start of a message about argument `name` of `api`: "api: name ".
std::string Prefix(const char* api, const char* name);

/// Text of an array element type as numpy names it: "float64", "int32".
std::string TypeText(const nb::dlpack::dtype& t);
std::string TypeText(const Array& a);

/// Text of a shape, as Python writes a tuple: "(8, 64)", "(64,)".
std::string ShapeText(const Input& a);

/// An array of a call, by the name its messages give it.
struct Named {
  const char* name;
  const Input* array;
};

/// Checks that no output shares memory with an input or with another output:
/// the engine reads its inputs while it writes, and writes each output once.
/// Two arrays are taken to share memory when the bytes between their lowest
/// and highest elements overlap (as numpy.may_share_memory), so interleaved
/// row-strided arrays count as sharing. Raises ValueError naming both.
void CheckApart(const char* api, std::initializer_list<Named> outputs,
                std::initializer_list<Named> inputs);

/// Raises the Python exception for a failed engine status: MemoryError when
/// scratch could not be allocated, ValueError for a broken argument rule;
/// the message is the engine's.
void RaiseIfFailed(const Status& status);

/// "blocked" or "sequential" as an Order; anything else raises ValueError.
Order OrderOf(const char* api, const std::string& order);

}  // namespace normgrad::python

namespace nanobind::detail {

/// Arguments of type Array: a torch tensor (an instance of torch.Tensor,
/// once the process has imported torch) is read through its attributes,
/// anything else is imported by nanobind.
template <>
struct type_caster<normgrad::python::Array> {
  NB_TYPE_CASTER(normgrad::python::Array, const_name("numpy.ndarray | torch.Tensor"))
  bool from_python(handle src, uint32_t flags, cleanup_list* cleanup) noexcept;
};

}  // namespace nanobind::detail
