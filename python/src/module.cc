// python/src/module.cc — normgrad._normgrad, the extension module behind the
// Python package: the engine's LayerNormGradBeta (whole, or as the partials
// of a range of rows and their combine), LayerNormForward, LayerNormBackward,
// RmsNormForward and RmsNormBackward. Each public function of the package
// is one call here from its Python definition (python/normgrad/__init__.py),
// which passes its arguments on as they are: this side reads the inputs
// where they lie (arrays.h), allocates new outputs of the inputs' kind or
// checks the caller's out= arrays (call.h: type, shape, layout and overlap
// with the inputs, all before the engine writes anything), releases the GIL
// while the engine runs, and raises a failed status as a Python exception
// carrying the engine's message.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "arrays.h"
#include "call.h"
#include "normgrad/grad_beta_partials.h"
#include "normgrad/layer_norm.h"
#include "normgrad/layer_norm_grad_beta.h"
#include "normgrad/rms_norm.h"

namespace normgrad::python {
namespace {

// Whether RunUnlocked times the engine (time_engine), and the elapsed time
// of this thread's last engine call when it does (last_engine_ns): what a
// call from Python adds to the engine is then measured on the same call
// (python/bench/call_overhead.py), apart from the engine's own run-to-run
// spread. Off, it costs one test per call.
bool time_engine = false;
thread_local int64_t last_engine_ns = 0;

// Runs one engine call with the GIL released (other Python threads go on
// while it computes), then raises its error as a Python exception.
template <typename Problem>
void RunUnlocked(Status (*engine)(const Problem&), const Problem& problem) {
  Status s;
  {
    nb::gil_scoped_release unlocked;
    if (time_engine) {
      const auto start = std::chrono::steady_clock::now();
      s = engine(problem);
      last_engine_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::steady_clock::now() - start)
                           .count();
    } else {
      s = engine(problem);
    }
  }
  RaiseIfFailed(s);
}

// The ends of CheckVector's type errors.
constexpr const char* kSameType = "the type of x";
constexpr const char* kStatistics = "as layer_norm_forward returns the statistics (float32)";
constexpr const char* kRmsStatistics = "as rms_norm_forward returns rstd (float32)";

// An output laid out as x (y, dx): x's type and shape, its rows as far apart
// as x's, so the engine's one row stride serves both.
void CheckRowsOutput(const char* api, const char* name, const Output& out, bool marked_bf16,
                     const Input& x, const Rows& rx) {
  const DType t = TypeOf(api, name, out, marked_bf16);
  if (t != rx.dtype) {
    throw nb::type_error((Prefix(api, name) + "has type " + DTypeName(t) +
                          "; it must have x's type, " + DTypeName(rx.dtype))
                             .c_str());
  }
  bool same_shape = out.ndim() == x.ndim();
  for (size_t i = 0; same_shape && i < x.ndim(); ++i) same_shape = out.shape(i) == x.shape(i);
  if (!same_shape) {
    throw nb::value_error((Prefix(api, name) + "has shape " + ShapeText(out) +
                           "; it must have x's shape, " + ShapeText(x))
                              .c_str());
  }
  const Rows r = RowsOf(api, name, out, marked_bf16);
  if (r.row_stride != rx.row_stride) {
    throw nb::value_error((Prefix(api, name) + "has rows " + std::to_string(r.row_stride) +
                           " elements apart and x " + std::to_string(rx.row_stride) +
                           "; the engine writes it with x's row stride, so it must be the same "
                           "(C-contiguous for a C-contiguous x)")
                              .c_str());
  }
}

// A statistics output (mean, rstd): float32, of x's shape without its last
// axis, C-contiguous (the engine writes one float per row, in row order).
void CheckStatistics(const char* api, const char* name, const Output& out, const Input& x) {
  Readable(api, name, out);
  if (out.dtype() != nb::dtype<float>()) {
    throw nb::type_error((Prefix(api, name) + "has type " + TypeText(out) +
                          "; it must be float32 (the statistics are float for every input type)")
                             .c_str());
  }
  const size_t ndim = x.ndim() - 1;
  bool same_shape = out.ndim() == ndim;
  for (size_t i = 0; same_shape && i < ndim; ++i) same_shape = out.shape(i) == x.shape(i);
  if (!same_shape) {
    std::string rows = "(";
    for (size_t i = 0; i < ndim; ++i) rows += (i > 0 ? ", " : "") + std::to_string(x.shape(i));
    throw nb::value_error((Prefix(api, name) + "has shape " + ShapeText(out) +
                           "; it must have x's shape without its last axis, " + rows +
                           (ndim == 1 ? ",)" : ")"))
                              .c_str());
  }
  // Without rows nothing is written, so the strides do not matter.
  size_t rows = 1;
  for (size_t i = 0; i < ndim; ++i) rows *= out.shape(i);
  int64_t step = 1;
  for (size_t i = ndim; rows > 0 && i-- > 0;) {
    if (out.shape(i) > 1 && out.stride(i) != step) {
      throw nb::value_error((Prefix(api, name) +
                             "is not C-contiguous; the engine writes one float per row, in "
                             "row order: pass a C-contiguous array")
                                .c_str());
    }
    step *= static_cast<int64_t>(out.shape(i));
  }
}

// The second input of a pair (res beside dy, dy beside x) must match the
// first one's rows, type and row stride: the engine reads both with one.
void CheckSameRows(const char* api, const char* first, const Rows& a, const char* second,
                   const Rows& b) {
  auto fail = [&](const std::string& what) {
    throw nb::value_error(
        (std::string(api) + ": " + first + " and " + second + " " + what).c_str());
  };
  if (a.dtype != b.dtype) {
    throw nb::type_error((std::string(api) + ": " + first + " is " + DTypeName(a.dtype) + " and " +
                          second + " is " + DTypeName(b.dtype) + "; they must have the same type")
                             .c_str());
  }
  if (a.rows != b.rows || a.cols != b.cols) {
    fail("have " + std::to_string(a.rows) + " × " + std::to_string(a.cols) + " and " +
         std::to_string(b.rows) + " × " + std::to_string(b.cols) +
         " elements (rows × H); they must have the same shape");
  }
  if (a.row_stride != b.row_stride) {
    fail("have rows " + std::to_string(a.row_stride) + " and " + std::to_string(b.row_stride) +
         " elements apart; the engine reads both with one row stride, so it must be the same "
         "(pass C-contiguous arrays)");
  }
}

// The type of pd_gamma/pd_beta: the input type, or float32 (f32_outputs).
// The bfloat16 marking is about 16-bit patterns; a float32 output is float.
bool F32Outputs(const char* api, const char* name, const Output& out, bool marked_bf16, DType in,
                size_t cols) {
  const bool marked = marked_bf16 && out.dtype().bits == 16;
  const DType t = TypeOf(api, name, out, marked);
  CheckVector(api, name, out, marked, t, cols, "the type it was allocated with");
  if (t == in) return in == DType::kF32;
  if (t == DType::kF32) return true;
  throw nb::type_error((std::string(api) + ": " + name + " is " + DTypeName(t) +
                        "; it must be float32 or the inputs' type, " + DTypeName(in))
                           .c_str());
}

// The element type of pd_gamma and pd_beta as the inputs' library names it:
// dy's, or float32 (`f32`) when out_dtype names it ("float32",
// numpy.float32, torch.float32...).
struct OutputType {
  nb::object type;
  bool f32 = false;
};

OutputType OutputTypeOf(const Call& c, nb::handle out_dtype) {
  nb::object like = c.object(0).attr("dtype");
  if (out_dtype.is_none()) return {like};
  std::string name;
  try {
    name = TypeName(out_dtype);
  } catch (nb::python_error& e) {
    if (!e.matches(PyExc_TypeError)) throw;
    name = Repr(out_dtype);
  }
  if (name == "float32") {
    return {c.torch() ? TorchIfImported()->float32 : NumpyModule().float32, true};
  }
  const std::string like_name = TypeName(like);
  if (name == like_name) return {like};
  throw nb::value_error((std::string(c.api()) + ": out_dtype " + Repr(out_dtype) +
                         " is not supported; it must be None (the inputs' type, " + like_name +
                         ") or float32")
                            .c_str());
}

nb::object GradBeta(nb::handle dy_arg, nb::handle res_arg, const std::string& order,
                    nb::handle out_dtype, nb::handle out, nb::handle threads, nb::handle dtype) {
  constexpr const char* kApi = "normgrad.layer_norm_grad_beta";
  const Call c(kApi, {{"dy", dy_arg}, {"res", res_arg}}, 2, dtype);
  const Input &dy = c[0], &res = c[1];
  const bool marked = c.marked();
  const OutputType type = OutputTypeOf(c, out_dtype);
  Output given[2];
  const bool has_out = c.Given(out, {"pd_gamma", "pd_beta"}, given);
  if (has_out) {
    const char* names[] = {"pd_gamma", "pd_beta"};
    for (int i = 0; i < 2; ++i) {
      nb::object t = nb::handle(PyTuple_GET_ITEM(out.ptr(), i)).attr("dtype");
      if (t.not_equal(type.type)) {
        throw nb::type_error((std::string(kApi) + ": out[" + std::to_string(i) + "] (" + names[i] +
                              ") has type " + TypeName(t) +
                              "; it must have the type the call returns, " + TypeName(type.type) +
                              " (out_dtype=" + Repr(out_dtype) + ")")
                                 .c_str());
      }
    }
  }
  const Rows d = RowsOf(kApi, "dy", dy, marked);
  const Rows r = RowsOf(kApi, "res", res, marked);
  CheckSameRows(kApi, "dy", d, "res", r);
  GradBetaProblem p;
  p.dtype = d.dtype;
  nb::object result;
  if (has_out) {
    const Output &pd_gamma = given[0], &pd_beta = given[1];
    p.f32_outputs = F32Outputs(kApi, "out[0] (pd_gamma)", pd_gamma, marked, d.dtype, d.cols);
    if (F32Outputs(kApi, "out[1] (pd_beta)", pd_beta, marked, d.dtype, d.cols) != p.f32_outputs) {
      throw nb::type_error("normgrad.layer_norm_grad_beta: pd_gamma and pd_beta differ in type");
    }
    CheckApart(kApi, {{"out[0] (pd_gamma)", &pd_gamma}, {"out[1] (pd_beta)", &pd_beta}},
               {{"dy", &dy}, {"res", &res}});
    p.pd_gamma = Target(pd_gamma);
    p.pd_beta = Target(pd_beta);
    result = nb::borrow(out);
  } else {
    p.f32_outputs = type.f32 || d.dtype == DType::kF32;
    nb::object pd_gamma = c.NewVector(d.cols, type.type);
    nb::object pd_beta = c.NewAs(pd_gamma);
    p.pd_gamma = DataOf(pd_gamma);
    p.pd_beta = DataOf(pd_beta);
    result = nb::make_tuple(pd_gamma, pd_beta);
  }
  p.rows = d.rows;
  p.cols = d.cols;
  p.row_stride = d.row_stride;
  p.dy = d.data;
  p.res = r.data;
  p.order = OrderOf(kApi, order);
  p.threads = ThreadsOf(threads);
  RunUnlocked(LayerNormGradBeta, p);
  return result;
}

nb::object Forward(nb::handle x_arg, nb::handle gamma_arg, nb::handle beta_arg, float eps,
                   nb::handle out, nb::handle threads, nb::handle dtype) {
  constexpr const char* kApi = "normgrad.layer_norm_forward";
  const Call c(kApi, {{"x", x_arg}, {"gamma", gamma_arg}, {"beta", beta_arg}}, 3, dtype);
  Output given[3];
  const bool has_out = c.Given(out, {"y", "mean", "rstd"}, given);
  const Input &x = c[0], &gamma = c[1], &beta = c[2];
  const bool marked = c.marked();
  const Rows rx = RowsOf(kApi, "x", x, marked);
  CheckVector(kApi, "gamma", gamma, marked, rx.dtype, rx.cols, kSameType);
  CheckVector(kApi, "beta", beta, marked, rx.dtype, rx.cols, kSameType);
  LayerNormForwardProblem p;
  nb::object result;
  if (has_out) {
    const Output &y = given[0], &mean = given[1], &rstd = given[2];
    CheckRowsOutput(kApi, "out[0] (y)", y, marked, x, rx);
    CheckStatistics(kApi, "out[1] (mean)", mean, x);
    CheckStatistics(kApi, "out[2] (rstd)", rstd, x);
    CheckApart(kApi, {{"out[0] (y)", &y}, {"out[1] (mean)", &mean}, {"out[2] (rstd)", &rstd}},
               {{"x", &x}, {"gamma", &gamma}, {"beta", &beta}});
    p.y = Target(y);
    p.mean = static_cast<float*>(Target(mean));
    p.rstd = static_cast<float*>(Target(rstd));
    result = nb::borrow(out);
  } else {
    nb::object y = c.NewRows(rx), mean = c.NewStatistics(), rstd = c.NewAs(mean);
    p.y = DataOf(y);
    p.mean = static_cast<float*>(DataOf(mean));
    p.rstd = static_cast<float*>(DataOf(rstd));
    result = nb::make_tuple(y, mean, rstd);
  }
  // No rows: every output is empty, nothing to compute. (The engine refuses a
  // call whose outputs are all null, as an empty torch tensor's may be.)
  if (rx.rows == 0) return result;
  p.dtype = rx.dtype;
  p.rows = rx.rows;
  p.cols = rx.cols;
  p.row_stride = rx.row_stride;
  p.x = rx.data;
  p.gamma = gamma.data();
  p.beta = beta.data();
  p.eps = eps;
  p.threads = ThreadsOf(threads);
  RunUnlocked(LayerNormForward, p);
  return result;
}

nb::object Backward(nb::handle x_arg, nb::handle dy_arg, nb::handle gamma_arg, nb::handle mean_arg,
                    nb::handle rstd_arg, const std::string& order, nb::handle out,
                    nb::handle threads, nb::handle dtype) {
  constexpr const char* kApi = "normgrad.layer_norm_backward";
  Call c(
      kApi,
      {{"x", x_arg}, {"dy", dy_arg}, {"gamma", gamma_arg}, {"mean", mean_arg}, {"rstd", rstd_arg}},
      3, dtype);
  Output given[3];
  const bool has_out = c.Given(out, {"dx", "dgamma", "dbeta"}, given);
  c.Flatten(3);
  c.Flatten(4);
  const Input &x = c[0], &dy = c[1], &gamma = c[2], &mean = c[3], &rstd = c[4];
  const bool marked = c.marked();
  const Rows rx = RowsOf(kApi, "x", x, marked);
  const Rows rd = RowsOf(kApi, "dy", dy, marked);
  CheckSameRows(kApi, "x", rx, "dy", rd);
  CheckVector(kApi, "gamma", gamma, marked, rx.dtype, rx.cols, kSameType);
  CheckVector(kApi, "mean", mean, false, DType::kF32, rx.rows, kStatistics);
  CheckVector(kApi, "rstd", rstd, false, DType::kF32, rx.rows, kStatistics);
  LayerNormBackwardProblem p;
  nb::object result;
  if (has_out) {
    const Output &dx = given[0], &pd_gamma = given[1], &pd_beta = given[2];
    CheckRowsOutput(kApi, "out[0] (dx)", dx, marked, x, rx);
    CheckVector(kApi, "out[1] (dgamma)", pd_gamma, marked, rx.dtype, rx.cols, kSameType);
    CheckVector(kApi, "out[2] (dbeta)", pd_beta, marked, rx.dtype, rx.cols, kSameType);
    CheckApart(kApi,
               {{"out[0] (dx)", &dx}, {"out[1] (dgamma)", &pd_gamma}, {"out[2] (dbeta)", &pd_beta}},
               {{"x", &x}, {"dy", &dy}, {"gamma", &gamma}, {"mean", &mean}, {"rstd", &rstd}});
    p.dx = Target(dx);
    p.pd_gamma = Target(pd_gamma);
    p.pd_beta = Target(pd_beta);
    result = nb::borrow(out);
  } else {
    nb::object dx = c.NewRows(rx), pd_gamma = c.NewLike(2), pd_beta = c.NewAs(pd_gamma);
    p.dx = DataOf(dx);
    p.pd_gamma = DataOf(pd_gamma);
    p.pd_beta = DataOf(pd_beta);
    result = nb::make_tuple(dx, pd_gamma, pd_beta);
  }
  p.dtype = rx.dtype;
  p.f32_outputs = rx.dtype == DType::kF32;
  p.rows = rx.rows;
  p.cols = rx.cols;
  p.row_stride = rx.row_stride;
  p.x = rx.data;
  p.dy = rd.data;
  p.gamma = gamma.data();
  p.mean = static_cast<const float*>(mean.data());
  p.rstd = static_cast<const float*>(rstd.data());
  p.order = OrderOf(kApi, order);
  p.threads = ThreadsOf(threads);
  RunUnlocked(LayerNormBackward, p);
  return result;
}

nb::object RmsForward(nb::handle x_arg, nb::handle gamma_arg, float eps, nb::handle out,
                      nb::handle threads, nb::handle dtype) {
  constexpr const char* kApi = "normgrad.rms_norm_forward";
  const Call c(kApi, {{"x", x_arg}, {"gamma", gamma_arg}}, 2, dtype);
  Output given[2];
  const bool has_out = c.Given(out, {"y", "rstd"}, given);
  const Input &x = c[0], &gamma = c[1];
  const bool marked = c.marked();
  const Rows rx = RowsOf(kApi, "x", x, marked);
  CheckVector(kApi, "gamma", gamma, marked, rx.dtype, rx.cols, kSameType);
  RmsNormForwardProblem p;
  nb::object result;
  if (has_out) {
    const Output &y = given[0], &rstd = given[1];
    CheckRowsOutput(kApi, "out[0] (y)", y, marked, x, rx);
    CheckStatistics(kApi, "out[1] (rstd)", rstd, x);
    CheckApart(kApi, {{"out[0] (y)", &y}, {"out[1] (rstd)", &rstd}},
               {{"x", &x}, {"gamma", &gamma}});
    p.y = Target(y);
    p.rstd = static_cast<float*>(Target(rstd));
    result = nb::borrow(out);
  } else {
    nb::object y = c.NewRows(rx), rstd = c.NewStatistics();
    p.y = DataOf(y);
    p.rstd = static_cast<float*>(DataOf(rstd));
    result = nb::make_tuple(y, rstd);
  }
  // No rows: every output is empty, nothing to compute. (The engine refuses a
  // call whose outputs are all null, as an empty torch tensor's may be.)
  if (rx.rows == 0) return result;
  p.dtype = rx.dtype;
  p.rows = rx.rows;
  p.cols = rx.cols;
  p.row_stride = rx.row_stride;
  p.x = rx.data;
  p.gamma = gamma.data();
  p.eps = eps;
  p.threads = ThreadsOf(threads);
  RunUnlocked(RmsNormForward, p);
  return result;
}

nb::object RmsBackward(nb::handle x_arg, nb::handle dy_arg, nb::handle gamma_arg,
                       nb::handle rstd_arg, const std::string& order, nb::handle out,
                       nb::handle threads, nb::handle dtype) {
  constexpr const char* kApi = "normgrad.rms_norm_backward";
  Call c(kApi, {{"x", x_arg}, {"dy", dy_arg}, {"gamma", gamma_arg}, {"rstd", rstd_arg}}, 3, dtype);
  Output given[2];
  const bool has_out = c.Given(out, {"dx", "dgamma"}, given);
  c.Flatten(3);
  const Input &x = c[0], &dy = c[1], &gamma = c[2], &rstd = c[3];
  const bool marked = c.marked();
  const Rows rx = RowsOf(kApi, "x", x, marked);
  const Rows rd = RowsOf(kApi, "dy", dy, marked);
  CheckSameRows(kApi, "x", rx, "dy", rd);
  CheckVector(kApi, "gamma", gamma, marked, rx.dtype, rx.cols, kSameType);
  CheckVector(kApi, "rstd", rstd, false, DType::kF32, rx.rows, kRmsStatistics);
  RmsNormBackwardProblem p;
  nb::object result;
  if (has_out) {
    const Output &dx = given[0], &dgamma = given[1];
    CheckRowsOutput(kApi, "out[0] (dx)", dx, marked, x, rx);
    CheckVector(kApi, "out[1] (dgamma)", dgamma, marked, rx.dtype, rx.cols, kSameType);
    CheckApart(kApi, {{"out[0] (dx)", &dx}, {"out[1] (dgamma)", &dgamma}},
               {{"x", &x}, {"dy", &dy}, {"gamma", &gamma}, {"rstd", &rstd}});
    p.dx = Target(dx);
    p.dgamma = Target(dgamma);
    result = nb::borrow(out);
  } else {
    nb::object dx = c.NewRows(rx), dgamma = c.NewLike(2);
    p.dx = DataOf(dx);
    p.dgamma = DataOf(dgamma);
    result = nb::make_tuple(dx, dgamma);
  }
  p.dtype = rx.dtype;
  p.rows = rx.rows;
  p.cols = rx.cols;
  p.row_stride = rx.row_stride;
  p.x = rx.data;
  p.dy = rd.data;
  p.gamma = gamma.data();
  p.rstd = static_cast<const float*>(rstd.data());
  p.order = OrderOf(kApi, order);
  p.threads = ThreadsOf(threads);
  RunUnlocked(RmsNormBackward, p);
  return result;
}

// What normgrad.distributed needs of a call before it exchanges anything,
// given as the public functions take it: the arrays `names` (read as those
// functions read them; lists become float32 numpy arrays), the bfloat16
// marking of dtype=, and pd_gamma's type for out_dtype. Returns (arrays,
// marked, type).
nb::tuple Prepare(const std::string& api, const std::vector<std::string>& names, nb::tuple arrays,
                  nb::handle dtype, nb::handle out_dtype) {
  if (names.size() != arrays.size() || names.empty()) {
    throw nb::value_error("normgrad: prepare needs one name per array");
  }
  Argument inputs[Call::kMaxInputs];
  for (size_t i = 0; i < names.size() && i < Call::kMaxInputs; ++i) {
    inputs[i] = {names[i].c_str(), arrays[i]};
  }
  const Call c(api.c_str(), inputs, names.size(), names.size(), dtype);
  nb::list read;
  for (size_t i = 0; i < names.size(); ++i) read.append(c.object(i));
  return nb::make_tuple(nb::tuple(read), c.marked(), OutputTypeOf(c, out_dtype).type);
}

// (rows, H, dtype code) of this process's dy and res, checked as
// GradBeta checks them, so normgrad.distributed finds a bad input before it
// exchanges anything (the dtype code is the partials layout's).
nb::tuple PartialsLayout(const Input& dy, const Input& res, bool marked_bf16) {
  constexpr const char* kApi = "normgrad.distributed.layer_norm_grad_beta";
  const Rows d = RowsOf(kApi, "dy", dy, marked_bf16);
  CheckSameRows(kApi, "dy", d, "res", RowsOf(kApi, "res", res, marked_bf16));
  return nb::make_tuple(d.rows, d.cols, static_cast<int>(d.dtype));
}

// The partials of this process's rows, which start at row `row_begin` of
// the whole matrix, into `out` (uint8, GradBetaPartialsBytes long).
void Partials(const Input& dy, const Input& res, size_t row_begin, const Output& out,
              bool marked_bf16, nb::handle threads) {
  constexpr const char* kApi = "normgrad.distributed.partial_sums";
  const Rows d = RowsOf(kApi, "dy", dy, marked_bf16);
  const Rows r = RowsOf(kApi, "res", res, marked_bf16);
  CheckSameRows(kApi, "dy", d, "res", r);
  GradBetaPartialsProblem p;
  p.dtype = d.dtype;
  p.row_begin = row_begin;
  p.rows = d.rows;
  p.cols = d.cols;
  p.row_stride = d.row_stride;
  p.dy = d.data;
  p.res = r.data;
  p.partials = Target(out);
  p.partials_bytes = out.nbytes();
  p.threads = ThreadsOf(threads);
  RunUnlocked(LayerNormGradBetaPartials, p);
}

// pd_gamma and pd_beta from the partials of consecutive ranges (1-D uint8
// arrays, in row order), written into the two outputs (H elements of the
// partials' dtype, or float32).
void Combine(const std::vector<Input>& partials, const Output& pd_gamma, const Output& pd_beta,
             bool marked_bf16) {
  constexpr const char* kApi = "normgrad.distributed.combine";
  std::vector<const void*> data;
  std::vector<size_t> bytes;
  for (size_t i = 0; i < partials.size(); ++i) {
    const Input& a = partials[i];
    if (a.ndim() != 1 || a.dtype() != nb::dtype<uint8_t>() ||
        (a.shape(0) > 1 && a.stride(0) != 1)) {
      throw nb::type_error((std::string(kApi) + ": partials[" + std::to_string(i) +
                            "] is not a contiguous 1-D uint8 array (partial_sums returns one)")
                               .c_str());
    }
    data.push_back(a.data());
    bytes.push_back(a.nbytes());
  }
  GradBetaCombineProblem p;
  p.partials = data.data();
  p.partials_bytes = bytes.data();
  p.count = data.size();
  p.pd_gamma = Target(pd_gamma);
  p.pd_beta = Target(pd_beta);
  // The outputs must fit what the engine writes: cols elements of the
  // partials' dtype (or float). A header too short or unknown is left to
  // the engine's checks, which then refuse the call before writing.
  GradBetaPartialsHeader h{};
  const bool has_header = !bytes.empty() && bytes[0] >= sizeof h;
  if (has_header) std::memcpy(&h, data[0], sizeof h);
  if (has_header && h.dtype <= static_cast<uint32_t>(DType::kBF16)) {
    const auto in = static_cast<DType>(h.dtype);
    p.f32_outputs = F32Outputs(kApi, "pd_gamma", pd_gamma, marked_bf16, in, h.cols);
    if (F32Outputs(kApi, "pd_beta", pd_beta, marked_bf16, in, h.cols) != p.f32_outputs) {
      throw nb::type_error((std::string(kApi) + ": pd_gamma and pd_beta differ in type").c_str());
    }
  }
  RunUnlocked(CombineGradBetaPartials, p);
}

// (rows, H, row stride) of an input as the public functions read it
// (call_overhead.py --parts times reading an array with it).
nb::tuple Layout(const Input& a, const char* api, const char* name, bool marked_bf16) {
  const Rows r = RowsOf(api, name, a, marked_bf16);
  return nb::make_tuple(r.rows, r.cols, r.row_stride);
}

// (code path, threads) of the last successful call of a family on this
// thread, as the engine's LastRunInfo-style function `last` records it.
template <RunInfo (*last)()>
nb::tuple LastRunOf() {
  const RunInfo info = last();
  return nb::make_tuple(info.impl, info.threads);
}

}  // namespace

void DefineTiling(nb::module_& m);

}  // namespace normgrad::python

NB_MODULE(_normgrad, m) {
  using namespace normgrad::python;
  namespace nb = nanobind;
  m.doc() = "normgrad's native engine bindings; use the normgrad package instead.";
  // The public functions' native halves, called positionally by their
  // Python definitions (python/normgrad/__init__.py), which hold the
  // signatures and documentation.
  m.def("grad_beta", &GradBeta, nb::arg("dy"), nb::arg("res"), nb::arg("order"),
        nb::arg("out_dtype").none(), nb::arg("out").none(), nb::arg("threads").none(),
        nb::arg("dtype").none());
  m.def("forward", &Forward, nb::arg("x"), nb::arg("gamma"), nb::arg("beta"), nb::arg("eps"),
        nb::arg("out").none(), nb::arg("threads").none(), nb::arg("dtype").none());
  m.def("backward", &Backward, nb::arg("x"), nb::arg("dy"), nb::arg("gamma"), nb::arg("mean"),
        nb::arg("rstd"), nb::arg("order"), nb::arg("out").none(), nb::arg("threads").none(),
        nb::arg("dtype").none());
  m.def("rms_forward", &RmsForward, nb::arg("x"), nb::arg("gamma"), nb::arg("eps"),
        nb::arg("out").none(), nb::arg("threads").none(), nb::arg("dtype").none());
  m.def("rms_backward", &RmsBackward, nb::arg("x"), nb::arg("dy"), nb::arg("gamma"),
        nb::arg("rstd"), nb::arg("order"), nb::arg("out").none(), nb::arg("threads").none(),
        nb::arg("dtype").none());
  m.def("layout", &Layout, nb::arg("a").noconvert(), nb::arg("api"), nb::arg("name"),
        nb::arg("marked_bf16"));
  m.def("prepare", &Prepare, nb::arg("api"), nb::arg("names"), nb::arg("arrays"),
        nb::arg("dtype").none(), nb::arg("out_dtype").none());
  m.def("partials_layout", &PartialsLayout, nb::arg("dy").noconvert(), nb::arg("res").noconvert(),
        nb::arg("marked_bf16"));
  m.def("partials_bytes", &normgrad::GradBetaPartialsBytes, nb::arg("row_begin"), nb::arg("rows"),
        nb::arg("cols"));
  m.def("partials", &Partials, nb::arg("dy").noconvert(), nb::arg("res").noconvert(),
        nb::arg("row_begin"), nb::arg("out").noconvert(), nb::arg("marked_bf16"),
        nb::arg("threads").none());
  m.def("combine", &Combine, nb::arg("partials"), nb::arg("pd_gamma").noconvert(),
        nb::arg("pd_beta").noconvert(), nb::arg("marked_bf16"));
  m.attr("BLOCKED_ORDER_ROWS") = normgrad::kBlockedOrderRows;
  m.attr("PARTIALS_VERSION") = normgrad::kGradBetaPartialsVersion;
  m.def(
      "time_engine", [](bool on) { time_engine = on; }, nb::arg("on"),
      "Whether each call times its engine call (last_engine_ns); off by default.");
  m.def(
      "last_engine_ns", [] { return last_engine_ns; },
      "Elapsed nanoseconds of this thread's last engine call, while time_engine is on.");
  m.def("last_run", &LastRunOf<normgrad::LastRunInfo>);
  m.def("last_layer_norm_run", &LastRunOf<normgrad::LastLayerNormRunInfo>);
  m.def("last_rms_norm_run", &LastRunOf<normgrad::LastRmsNormRunInfo>);
  DefineTiling(m);
}
