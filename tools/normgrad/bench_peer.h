// tools/normgrad/bench_peer.h — what `normgrad bench` measures normgrad
// against: a peer library computing the same layer-norm gradients (or RMS
// norm) on the same inputs. Each peer is a plugin module (normgrad_peer_<name>.so, built
// only when its library is installed) loaded at run time, so the normgrad
// binary never depends on PyTorch or oneDNN; the plain loop peer is built in.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "normgrad/types.h"

namespace normgrad::bench {

/// The two operations compared.
enum class Op {
  /// pd_gamma[c] = Σ_r dy·res, pd_beta[c] = Σ_r dy (LayerNormGradBeta).
  /// A peer that works from x, mean and rstd gets x = res, mean = 0 and
  /// rstd = 1 (or variance 1 − eps), so that its x̂ equals res.
  kGradBeta,
  /// The fused layer-norm backward: dx, pd_gamma = Σ_r dy·x̂ and
  /// pd_beta = Σ_r dy, with x̂ = (x − mean)·rstd, from x, dy, gamma and each
  /// row's mean and rstd.
  kBackward,
  /// The RMS-norm forward: y = x · rstd · gamma, rstd = 1 / √(Σ_c x² / H +
  /// eps), from x, gamma and eps.
  kRmsForward,
  /// The RMS-norm backward: dx and dgamma = Σ_r dy · x · rstd, from x, dy,
  /// gamma and eps (a peer may recompute rstd, or take `rstd`).
  kRmsBackward,
};

/// One problem: `rows` × `cols` dense row-major inputs of type `dtype`.
struct Case {
  Op op = Op::kGradBeta;
  DType dtype = DType::kF32;
  size_t rows = 0, cols = 0;
  int threads = 1;              ///< threads the peer may use
  const void* dy = nullptr;     ///< rows × cols
  const void* res = nullptr;    ///< kGradBeta: resForGamma, rows × cols
  const void* x = nullptr;      ///< kBackward and the RMS ops: rows × cols
  const void* gamma = nullptr;  ///< kBackward and the RMS ops: cols elements of `dtype`
  const float* mean = nullptr;  ///< kBackward: rows
  /// kBackward: rows, 1 / √(variance + eps); kRmsBackward: rows,
  /// 1 / √(Σ x² / H + eps)
  const float* rstd = nullptr;
  float eps = 1e-5f;  ///< kBackward and the RMS ops: the eps behind rstd
};

/// The results of the last Run(), widened to double.
struct Results {
  /// cols each; kRmsBackward: dgamma in pd_gamma, pd_beta empty
  std::vector<double> pd_gamma, pd_beta;
  std::vector<double> dx;  ///< rows × cols when computed, else empty
  std::vector<double> y;   ///< kRmsForward: rows × cols
};

/// One peer implementation. Calls come in the order Prepare (once per
/// case), Run (many times, timed), Read (once, after the timed runs).
class Peer {
 public:
  virtual ~Peer() = default;
  /// The implementation's name in the table: "pytorch", "onednn", "loop".
  virtual std::string Name() const = 0;
  /// The library and its version, e.g. "PyTorch 1.13.1".
  virtual std::string Version() const = 0;
  /// Empty when this peer can run `c`; otherwise why not, in a few words
  /// ("no half on CPU").
  virtual std::string Unsupported(const Case& c) const = 0;
  /// Allocates outputs and wraps the inputs for `c` (not timed). The
  /// inputs stay valid and unchanged until the next Prepare. Returns an
  /// error message, or empty.
  virtual std::string Prepare(const Case& c) = 0;
  /// Computes the case once (timed); the peer writes only its own buffers.
  virtual void Run() = 0;
  /// The outputs of the last Run.
  virtual Results Read() const = 0;
};

/// The entry point each plugin module exports: a new peer, or null when
/// its library cannot run here (then *why says why).
extern "C" {
typedef Peer* (*CreatePeerFn)(std::string* why);
}
#define NORMGRAD_PEER_ENTRY "normgrad_create_peer"

/// Defines a plugin module's entry point for the peer class `PeerType`
/// (default-constructible). `catcher(f)` runs f and returns the text of any
/// exception it throws, or "": nothing may be thrown across the module
/// boundary.
#define NORMGRAD_PEER_MODULE_ENTRY(PeerType, catcher)                                            \
  extern "C" __attribute__((visibility("default"))) normgrad::bench::Peer* normgrad_create_peer( \
      std::string* why) {                                                                        \
    normgrad::bench::Peer* peer = nullptr;                                                       \
    *why = catcher([&peer] { peer = new PeerType(); });                                          \
    return peer;                                                                                 \
  }                                                                                              \
  static_assert(std::is_same_v<decltype(&normgrad_create_peer), normgrad::bench::CreatePeerFn>)

}  // namespace normgrad::bench
