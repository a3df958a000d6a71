// python/src/arrays.cc — reading numpy arrays and torch tensors as the
// engine's rows (arrays.h says which layouts are accepted), and turning
// engine statuses into Python exceptions.
#include "arrays.h"

#include <Python.h>

#include <cstdint>
#include <string>
#include <utility>

namespace normgrad::python {
namespace {

using Code = nb::dlpack::dtype_code;

}  // namespace

std::string Str(nb::handle o) {
  nb::object text = nb::steal(PyObject_Str(o.ptr()));
  if (!text.is_valid()) throw nb::python_error();
  const char* utf8 = PyUnicode_AsUTF8(text.ptr());
  if (utf8 == nullptr) throw nb::python_error();
  return utf8;
}

const Torch* TorchIfImported() {
  static const Torch* torch = nullptr;
  if (torch != nullptr) return torch;
  // sys.modules["torch"], looked up on each array argument until torch is
  // imported: a dict lookup (PyImport_GetModule also asks the module whether
  // it is still initializing, which costs more than the lookup; a torch
  // still being imported fails below, and is looked up again next time).
  static PyObject* const name = PyUnicode_InternFromString("torch");
  PyObject* module = PyDict_GetItemWithError(PyImport_GetModuleDict(), name);
  if (module == nullptr) {
    PyErr_Clear();
    return nullptr;
  }
  nb::object m = nb::borrow(module);
  auto t = new Torch;
  try {
    nb::object tensor = m.attr("Tensor");
    if (!PyType_Check(tensor.ptr())) throw nb::type_error("torch.Tensor is not a type");
    t->tensor = reinterpret_cast<PyTypeObject*>(tensor.release().ptr());
    t->module = m;
    t->strided = m.attr("strided");
    t->empty = m.attr("empty");
    t->empty_like = m.attr("empty_like");
    t->float32 = m.attr("float32");
    const std::pair<const char*, nb::dlpack::dtype> types[12] = {
        {"float32", {uint8_t(Code::Float), 32, 1}},
        {"float16", {uint8_t(Code::Float), 16, 1}},
        {"bfloat16", {uint8_t(Code::Bfloat), 16, 1}},
        {"float64", {uint8_t(Code::Float), 64, 1}},
        {"int8", {uint8_t(Code::Int), 8, 1}},
        {"int16", {uint8_t(Code::Int), 16, 1}},
        {"int32", {uint8_t(Code::Int), 32, 1}},
        {"int64", {uint8_t(Code::Int), 64, 1}},
        {"uint8", {uint8_t(Code::UInt), 8, 1}},
        {"bool", {uint8_t(Code::Bool), 8, 1}},
        {"complex64", {uint8_t(Code::Complex), 64, 1}},
        {"complex128", {uint8_t(Code::Complex), 128, 1}}};
    for (int i = 0; i < 12; ++i) t->types[i] = {m.attr(types[i].first), types[i].second};
  } catch (const std::exception&) {
    // A torch still being imported, or not the torch expected: its tensors
    // are not recognized (nanobind then imports them as any other array).
    PyErr_Clear();
    delete t;
    return nullptr;
  }
  // Properties, and methods called without arguments (tensor.name()).
  const struct {
    TensorAttribute Torch::*member;
    const char* name;
    bool method;
  } attributes[] = {{&Torch::layout, "layout", false},
                    {&Torch::is_cpu, "is_cpu", false},
                    {&Torch::is_neg, "is_neg", true},
                    {&Torch::dtype, "dtype", false},
                    {&Torch::shape, "shape", false},
                    {&Torch::is_contiguous, "is_contiguous", true},
                    {&Torch::stride, "stride", true},
                    {&Torch::data_ptr, "data_ptr", true},
                    {&Torch::requires_grad, "requires_grad", false}};
  for (const auto& a : attributes) t->*a.member = TensorAttribute(t->tensor, a.name, a.method);
  // Parameter's attributes are read directly only while they are
  // Tensor's own (a subclass could override one).
  try {
    nb::object parameter = m.attr("nn").attr("Parameter");
    auto p = reinterpret_cast<PyTypeObject*>(parameter.ptr());
    bool same = PyType_Check(parameter.ptr());
    for (const auto& a : attributes) {
      const nb::handle name = (t->*a.member).name();
      same = same && _PyType_Lookup(p, name.ptr()) == _PyType_Lookup(t->tensor, name.ptr());
    }
    if (same) t->parameter = reinterpret_cast<PyTypeObject*>(parameter.release().ptr());
  } catch (const std::exception&) {
    PyErr_Clear();  // no torch.nn: its tensors are looked up by name
  }
  auto intern = [](const char* name) { return nb::steal(PyUnicode_InternFromString(name)); };
  t->device = intern("device");
  t->get_num_threads = intern("get_num_threads");
  t->dtype_keyword = nb::make_tuple(t->dtype.name());
  torch = t;
  return torch;
}

const Numpy& NumpyModule() {
  // Imported on the first call (the package requires numpy); never freed.
  static const Numpy* const numpy = [] {
    auto n = new Numpy;
    nb::object m = nb::module_::import_("numpy");
    n->ndarray = reinterpret_cast<PyTypeObject*>(nb::object(m.attr("ndarray")).release().ptr());
    n->empty = m.attr("empty");
    n->asarray = m.attr("asarray");
    n->dtype = m.attr("dtype");
    n->float32 = n->dtype("float32");
    n->flags = nb::steal(PyUnicode_InternFromString("flags"));
    n->writeable = nb::steal(PyUnicode_InternFromString("writeable"));
    return n;
  }();
  return *numpy;
}

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

Array::Array(Imported a, bool bfloat16_bits)
    : imported_(std::move(a)),
      data_(imported_.data()),
      ndim_(imported_.ndim()),
      dtype_(bfloat16_bits ? nb::dlpack::dtype{uint8_t(Code::Bfloat), 16, 1} : imported_.dtype()),
      bfloat16_bits_(bfloat16_bits) {}

size_t Array::shape(size_t i) const {
  if (flat_ > 0) return flat_;
  if (imported_.is_valid()) return imported_.shape(i);
  return static_cast<size_t>(PyLong_AsSsize_t(PyTuple_GET_ITEM(shape_.ptr(), i)));
}

int64_t Array::stride(size_t i) const {
  if (flat_ > 0) return 1;
  if (imported_.is_valid()) return imported_.stride(i);
  if (strides_.is_valid()) return PyLong_AsLongLong(PyTuple_GET_ITEM(strides_.ptr(), i));
  int64_t step = 1;  // C order
  for (size_t j = i + 1; j < ndim_; ++j) step *= static_cast<int64_t>(shape(j));
  return step;
}

size_t Array::nbytes() const {
  size_t n = (dtype_.bits * dtype_.lanes + 7) / 8;
  for (size_t i = 0; i < ndim(); ++i) n *= shape(i);
  return n;
}

bool Array::FlattenInPlace() {
  if (ndim_ == 1) return true;
  size_t count = 1;
  for (size_t i = 0; i < ndim_; ++i) count *= shape(i);
  // Axes of length one step nowhere; the others must step as C order does.
  int64_t step = 1;
  for (size_t i = ndim_; count > 1 && i-- > 0;) {
    if (shape(i) == 1) continue;
    if (stride(i) != step) return false;
    step *= static_cast<int64_t>(shape(i));
  }
  // Without elements (count 0) nothing is read. A 0-d array holds one.
  if (count == 0 || ndim_ == 0) return false;
  flat_ = count;
  return true;
}

TensorAttribute::TensorAttribute(PyTypeObject* tensor, const char* name, bool method)
    : name_(nb::steal(PyUnicode_InternFromString(name))), method_call_(method) {
  PyObject* descriptor = _PyType_Lookup(tensor, name_.ptr());  // borrowed
  if (descriptor == nullptr) return;
  if (!method && Py_TYPE(descriptor) == &PyGetSetDescr_Type) {
    const PyGetSetDef* def = reinterpret_cast<PyGetSetDescrObject*>(descriptor)->d_getset;
    get_ = def->get;
    closure_ = def->closure;
  } else if (method && Py_TYPE(descriptor) == &PyMethodDescr_Type) {
    const PyMethodDef* def = reinterpret_cast<PyMethodDescrObject*>(descriptor)->d_method;
    const int flags = def->ml_flags & ~(METH_CLASS | METH_STATIC | METH_COEXIST);
    if (flags == METH_NOARGS || flags == (METH_VARARGS | METH_KEYWORDS)) {
      method_ = def->ml_meth;
      flags_ = flags;
    }
  }
}

PyObject* TensorAttribute::Read(PyObject* t, bool direct) const {
  if (direct && get_ != nullptr) return get_(t, closure_);
  if (direct && flags_ == METH_NOARGS) return method_(t, nullptr);
  if (direct && method_ != nullptr) {
    static PyObject* const no_arguments = PyTuple_New(0);
    return reinterpret_cast<PyCFunctionWithKeywords>(reinterpret_cast<void (*)()>(method_))(
        t, no_arguments, nullptr);
  }
  // Looked up by name.
  if (method_call_) return PyObject_CallMethodNoArgs(t, name_.ptr());
  return PyObject_GetAttr(t, name_.ptr());
}

bool Array::ReadTensor(nb::handle t) {
  const Torch& torch = *TorchIfImported();
  tensor_ = true;
  const bool direct = torch.Direct(t.ptr());
  auto read = [&](const TensorAttribute& a) {
    nb::object value = nb::steal(a.Read(t.ptr(), direct));
    if (!value.is_valid()) throw nb::python_error();
    return value;
  };
  try {
    nb::object layout = read(torch.layout);
    if (!layout.is(torch.strided)) {
      refusal_ = "is a torch tensor of layout " + Str(layout) +
                 "; normgrad reads dense (strided) tensors: pass tensor.to_dense()";
      return true;
    }
    nb::object is_cpu = read(torch.is_cpu);
    if (!is_cpu.is(Py_True)) {
      refusal_ = "is a torch tensor on device " + Str(t.attr(torch.device)) +
                 "; normgrad computes on the CPU: pass tensor.cpu()";
      return true;
    }
    nb::object is_neg = read(torch.is_neg);
    if (!is_neg.is(Py_False)) {
      refusal_ =
          "is a torch tensor with its negative bit set (a lazily negated view, such as "
          "the imaginary part of a conjugate); pass tensor.resolve_neg()";
      return true;
    }
    nb::object dtype = read(torch.dtype);
    bool known = false;
    for (const auto& [object, description] : torch.types) {
      if (dtype.is(object)) {
        dtype_ = description;
        known = true;
        break;
      }
    }
    if (!known) {
      // No DLPack code names it (qint8, say): TypeText gives this name.
      dtype_ = {};
      type_name_ = Str(dtype);
      if (type_name_.rfind("torch.", 0) == 0) type_name_.erase(0, 6);
    }
    shape_ = read(torch.shape);
    if (!PyTuple_Check(shape_.ptr())) return false;
    ndim_ = static_cast<size_t>(PyTuple_GET_SIZE(shape_.ptr()));
    // A contiguous tensor's strides follow from its shape (axes of length
    // one may report any stride; none is used): one bool instead of a tuple.
    if (!read(torch.is_contiguous).is(Py_True)) {
      strides_ = read(torch.stride);
      if (!PyTuple_Check(strides_.ptr()) ||
          static_cast<size_t>(PyTuple_GET_SIZE(strides_.ptr())) != ndim_) {
        return false;
      }
    }
    nb::object data = read(torch.data_ptr);
    data_ = PyLong_AsVoidPtr(data.ptr());
    if (PyErr_Occurred()) throw nb::python_error();
    return true;
  } catch (const std::exception&) {
    PyErr_Clear();
    return false;
  }
}

int ThreadsOf(nb::handle requested) {
  if (requested.is_none()) {
    const Torch* torch = TorchIfImported();
    if (torch == nullptr) return 0;
    // Looked up on every call: torch's own setting, whatever replaced it.
    nb::object count = torch->module.attr(torch->get_num_threads)();
    return nb::cast<int>(count);
  }
  nb::object count = nb::steal(PyNumber_Long(requested.ptr()));  // int(requested)
  if (!count.is_valid()) throw nb::python_error();
  return nb::cast<int>(count);
}

void Readable(const char* api, const char* name, const Array& a) {
  if (const std::string* why = a.refusal())
    throw nb::type_error((Prefix(api, name) + *why).c_str());
}

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

std::string TypeText(const Array& a) {
  return a.type_name().empty() ? TypeText(a.dtype()) : a.type_name();
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

void RefuseType(const char* api, const char* name, const std::string& type, bool marked_bf16) {
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

DType TypeOf(const char* api, const char* name, const Input& a, bool marked_bf16) {
  Readable(api, name, a);
  DType dtype;
  if (TypeOf(a.dtype(), marked_bf16, &dtype)) return dtype;
  RefuseType(api, name, TypeText(a), marked_bf16);
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
  Readable(api, name, a);
  DType t;
  if (!TypeOf(a.dtype(), marked_bf16, &t) || t != dtype) {
    const std::string type = TypeOf(a.dtype(), marked_bf16, &t) ? DTypeName(t) : TypeText(a);
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

bool ReadArray(nb::handle src, Array* out) {
  const Torch* torch = TorchIfImported();
  if (torch != nullptr && PyObject_TypeCheck(src.ptr(), torch->tensor)) {
    *out = Array();
    return out->ReadTensor(src);
  }
  nb::detail::make_caster<Imported> imported;
  if (imported.from_python(src, 0, nullptr)) {
    *out = Array(std::move(imported.value));
    return true;
  }
  // A numpy array of ml_dtypes.bfloat16, which nanobind does not import: its
  // 16-bit patterns, as a uint16 view, described as bfloat16.
  PyErr_Clear();
  PyObject* dtype = PyObject_GetAttrString(src.ptr(), "dtype");
  if (dtype == nullptr) {
    PyErr_Clear();
    return false;
  }
  nb::object d = nb::steal(dtype);
  if (!PyObject_HasAttrString(dtype, "kind") || !PyObject_HasAttrString(dtype, "itemsize") ||
      !PyObject_HasAttrString(dtype, "name")) {
    return false;
  }
  try {
    if (!d.attr("kind").equal(nb::str("V")) || !d.attr("itemsize").equal(nb::int_(2)) ||
        !d.attr("name").equal(nb::str("bfloat16"))) {
      return false;
    }
    nb::object bits = src.attr("view")(nb::str("uint16"));
    if (!imported.from_python(bits, 0, nullptr)) return false;
  } catch (const std::exception&) {
    PyErr_Clear();
    return false;
  }
  *out = Array(std::move(imported.value), /*bfloat16_bits=*/true);
  return true;
}

}  // namespace normgrad::python

namespace nanobind::detail {

bool type_caster<normgrad::python::Array>::from_python(handle src, uint32_t,
                                                       cleanup_list*) noexcept {
  return normgrad::python::ReadArray(src, &value);
}

}  // namespace nanobind::detail
