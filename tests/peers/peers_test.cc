// peers_test.cc — the peers of `normgrad bench` (tools/normgrad/peers): each
// peer LoadPeers() returns (the loop peer and every plugin module that
// loads) against the double reference (for RMS norm, one written here), on
// every op and dtype it supports,
// with 1 and 2 threads; a reason for everything it does not support; and
// LoadPeers()' report of the plugins it could not load. A plugin this build
// made (NORMGRAD_BUILT_PEERS, from CMake) must load.
//
// Bounds, normwise: max|got − ref| ≤ E, u = 2^-24, γ(k) = k·u / (1 − k·u).
// The peers sum in float (PyTorch's bfloat16: below), in some order; a float
// sum of n terms in any order is within γ(n − 1)·Σ|terms| of the exact sum,
// and a term that is a product of roundings adds its own (Higham, Accuracy
// and Stability of Numerical Algorithms, §4.2):
//   pd_beta   E = γ(rows) · max_c Σ_r |dy|
//   pd_gamma  E = γ(rows + 6) · max_c Σ_r |dy·x̂|   (the product dy·x̂; for
//             kBackward x̂ = (x − mean)·rstd, 2 roundings; oneDNN's rstd from
//             variance + eps, about 3 more)
//   dx        E = γ(cols + 16) · max rstd·(|g| + Σ|g|/H + |x̂|·Σ|g·x̂|/H)
//             (row sums of H = cols terms; g = dy·gamma, x̂, the scaling by
//             rstd and 1/H, two subtractions and oneDNN's rstd: at most 16
//             roundings more), scales from reference::LayerNormBackwardScales.
//             PyTorch forms dx = a·dy·gamma + b·x + c, whose roundings are
//             |mean|·rstd times these; |mean|·rstd < 1 in these inputs.
// An output the peer returns in the input's 16-bit type adds its rounding:
// E + u16·(max|ref| + E), u16 = 2^-11 (half) or 2^-8 (bfloat16).
// PyTorch 1.13 sums bfloat16 pd_gamma/pd_beta in bfloat16 (a column of 1000
// ones sums to 256), so for it u = 2^-8 in γ; where k·u ≥ 1/2 that bound
// says nothing and only the exact test below checks those sums.
// The statistics given to kBackward are bfloat16 values, so that PyTorch
// 1.13, which takes them in the input's type, gets them exactly.
//
// RMS norm (kRmsForward, kRmsBackward; PyTorch's composite, which computes
// its own rstd): against float64 with the exact rstd r = 1/√(Σx²/H + eps),
//   y   E = γ(cols + 8) · max |x·gamma|·r    (the mean of H squares, eps,
//       rsqrt, two products)
//   dx  E = γ(3·cols + 32) · max r·(|g| + |x·r|·Σ|g·x·r|/H)   (its own rstd
//       enters cubed through r³; the sums of H terms; autograd's products)
//   dgamma  E = γ(rows + cols + 16) · max_c Σ_r |dy·x·r|
// with u = 2^-8 for PyTorch's bfloat16 (it computes in bfloat16), where the
// bounds say nothing for these sizes, so only the shapes are checked.
//
// Exact: on small integers (|dy|, |res| ≤ 2, 37 rows) every product and
// partial sum of pd_gamma/pd_beta is an integer below 256, exact in every
// type and order, so every peer must return the reference's exact sums.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "normgrad/float16.h"
#include "peers/peers.h"
#include "reference.h"

namespace {

using normgrad::DType;
using normgrad::bench::Case;
using normgrad::bench::LoadedPeers;
using normgrad::bench::Op;
using normgrad::bench::Peer;
using normgrad::bench::Results;

constexpr double kU = 1.0 / (1 << 24);
double Gamma(double k, double u = kU) { return k * u / (1 - k * u); }

/// The plugins this build made, from CMake ("pytorch,onednn").
std::set<std::string> BuiltPeers() {
  std::set<std::string> built;
  std::istringstream list(NORMGRAD_BUILT_PEERS);
  for (std::string name; std::getline(list, name, ',');) built.insert(name);
  return built;
}

/// LoadPeers() once per process (plugins stay loaded anyway).
const LoadedPeers& Loaded() {
  static const LoadedPeers loaded = normgrad::bench::LoadPeers();
  return loaded;
}

/// Whether `peer` returns `output` ("pd", "dx") in the input's type rather
/// than in float: PyTorch returns all outputs in the input's type, oneDNN
/// only dx (diff_scale and diff_shift are float).
bool RoundedToInput(const std::string& peer, const std::string& output) {
  return peer == "pytorch" || (peer == "onednn" && output == "dx");
}

/// The unit roundoff of `peer`'s pd_gamma/pd_beta sums for inputs of type t.
double SumUlp(const std::string& peer, DType t) {
  return peer == "pytorch" && t == DType::kBF16 ? std::ldexp(1.0, -8) : kU;
}

/// One problem's inputs, stored as `dtype`.
struct Inputs {
  DType dtype;
  size_t rows, cols;
  std::vector<uint8_t> dy, x, gamma;  ///< x is res for kGradBeta
  std::vector<float> mean, rstd;      ///< of x, rounded to bfloat16
  float eps = 1e-5f;
};

void Store(DType t, std::vector<uint8_t>* bytes, size_t i, float v) {
  if (t == DType::kF32) {
    std::memcpy(bytes->data() + 4 * i, &v, 4);
  } else {
    const uint16_t b =
        t == DType::kF16 ? normgrad::float16(v).Bits() : normgrad::bfloat16(v).Bits();
    std::memcpy(bytes->data() + 2 * i, &b, 2);
  }
}

/// Random inputs: dy ~ N(0, 1), x ~ N(0.5, 2²), gamma in [0.5, 1.5]; or,
/// `small_integers`, dy and x integers in [−2, 2].
Inputs MakeInputs(DType t, size_t rows, size_t cols, bool small_integers = false) {
  Inputs in{t, rows, cols, {}, {}, {}, {}, {}};
  std::mt19937 rng(static_cast<uint32_t>(rows * 7919 + cols));
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_real_distribution<float> around_one(0.5f, 1.5f);
  std::uniform_int_distribution<int> small(-2, 2);
  const size_t n = rows * cols;
  in.dy.resize(n * normgrad::SizeOf(t));
  in.x.resize(n * normgrad::SizeOf(t));
  in.gamma.resize(cols * normgrad::SizeOf(t));
  const auto value = [&](float mean, float sd) {
    return small_integers ? static_cast<float>(small(rng)) : mean + sd * normal(rng);
  };
  for (size_t i = 0; i < n; ++i) {
    Store(t, &in.dy, i, value(0.0f, 1.0f));
    Store(t, &in.x, i, value(0.5f, 2.0f));
  }
  for (size_t j = 0; j < cols; ++j) Store(t, &in.gamma, j, around_one(rng));
  for (size_t r = 0; r < rows; ++r) {
    const auto x = [&](size_t j) {
      return normgrad::reference::Decode(t, in.x.data(), r * cols + j);
    };
    double sum = 0, sq = 0;
    for (size_t j = 0; j < cols; ++j) sum += x(j);
    const double mean = sum / static_cast<double>(cols);
    for (size_t j = 0; j < cols; ++j) sq += (x(j) - mean) * (x(j) - mean);
    const double rstd = 1.0 / std::sqrt(sq / static_cast<double>(cols) + in.eps);
    in.mean.push_back(normgrad::bfloat16(static_cast<float>(mean)));
    in.rstd.push_back(normgrad::bfloat16(static_cast<float>(rstd)));
  }
  return in;
}

bool IsRms(Op op) { return op == Op::kRmsForward || op == Op::kRmsBackward; }

Case MakeCase(const Inputs& in, Op op, int threads) {
  Case c;
  c.op = op;
  c.dtype = in.dtype;
  c.rows = in.rows;
  c.cols = in.cols;
  c.threads = threads;
  c.dy = in.dy.data();
  if (op == Op::kGradBeta) {
    c.res = in.x.data();
  } else {
    c.x = in.x.data();
    c.gamma = in.gamma.data();
    c.mean = in.mean.data();
    c.rstd = in.rstd.data();
    c.eps = in.eps;
  }
  return c;
}

double MaxAbs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

/// Expects max|got − ref| ≤ bound (plus the 16-bit rounding when `rounded`).
void ExpectWithin(const char* what, const std::vector<double>& got, const std::vector<double>& ref,
                  double bound, bool rounded, DType t) {
  ASSERT_EQ(got.size(), ref.size()) << what;
  if (rounded && t != DType::kF32) {
    const double u16 = std::ldexp(1.0, t == DType::kF16 ? -11 : -8);
    bound += u16 * (MaxAbs(ref) + bound);
  }
  double err = 0;
  for (size_t i = 0; i < got.size(); ++i) err = std::max(err, std::fabs(got[i] - ref[i]));
  EXPECT_LE(err, bound) << what
                        << ": max|got - ref| / max|ref| = " << err / std::max(MaxAbs(ref), 1e-300);
}

/// Checks an RMS-norm op's Results against float64 (bounds at the top).
void ExpectRmsWithinBound(const std::string& peer, const Inputs& in, Op op, const Results& got) {
  const size_t rows = in.rows, cols = in.cols;
  const double h = static_cast<double>(cols);
  const auto at = [&](const std::vector<uint8_t>& m, size_t i) {
    return normgrad::reference::Decode(in.dtype, m.data(), i);
  };
  std::vector<double> y(rows * cols), dx(rows * cols), dgamma(cols), abs_dgamma(cols);
  double y_scale = 0, dx_scale = 0;
  for (size_t r = 0; r < rows; ++r) {
    double squares = 0, gx = 0, abs_gx = 0;
    for (size_t c = 0; c < cols; ++c) {
      const double x = at(in.x, r * cols + c);
      squares += x * x;
      gx += at(in.dy, r * cols + c) * at(in.gamma, c) * x;
    }
    const double rs = 1 / std::sqrt(squares / h + in.eps);
    for (size_t c = 0; c < cols; ++c) {
      abs_gx += std::fabs(at(in.dy, r * cols + c) * at(in.gamma, c) * at(in.x, r * cols + c) * rs);
    }
    for (size_t c = 0; c < cols; ++c) {
      const double x = at(in.x, r * cols + c), dy = at(in.dy, r * cols + c);
      const double g = dy * at(in.gamma, c);
      y[r * cols + c] = x * rs * at(in.gamma, c);
      y_scale = std::max(y_scale, std::fabs(y[r * cols + c]));
      dx[r * cols + c] = rs * (g - x * rs * rs * gx / h);
      dx_scale = std::max(dx_scale, rs * (std::fabs(g) + std::fabs(x * rs) * abs_gx / h));
      dgamma[c] += dy * x * rs;
      abs_dgamma[c] += std::fabs(dy * x * rs);
    }
  }
  const bool rounded = RoundedToInput(peer, "dx");
  const double u = SumUlp(peer, in.dtype);
  if (op == Op::kRmsForward) {
    ASSERT_EQ(got.y.size(), y.size());
    if ((h + 8) * u < 0.5) {
      ExpectWithin("y", got.y, y, Gamma(h + 8, u) * y_scale, rounded, in.dtype);
    }
    return;
  }
  ASSERT_EQ(got.dx.size(), dx.size());
  ASSERT_EQ(got.pd_gamma.size(), dgamma.size());
  if ((3 * h + 32) * u < 0.5) {
    ExpectWithin("dx", got.dx, dx, Gamma(3 * h + 32, u) * dx_scale, rounded, in.dtype);
  }
  if ((static_cast<double>(rows) + h + 16) * u < 0.5) {
    ExpectWithin("dgamma", got.pd_gamma, dgamma,
                 Gamma(static_cast<double>(rows) + h + 16, u) * MaxAbs(abs_dgamma), rounded,
                 in.dtype);
  }
}

/// Runs `peer` on `in` and checks its Results against the reference.
void ExpectMatchesReference(Peer* peer, const Inputs& in, Op op, int threads) {
  const Case c = MakeCase(in, op, threads);
  ASSERT_EQ(peer->Prepare(c), "");
  peer->Run();
  peer->Run();  // a second run must give the same, not accumulate
  const Results got = peer->Read();
  if (IsRms(op)) {
    ExpectRmsWithinBound(peer->Name(), in, op, got);
    return;
  }

  const size_t rows = in.rows, cols = in.cols;
  std::vector<double> gamma(cols), beta(cols), abs_gamma(cols), abs_beta(cols);
  std::vector<double> dx, dx_scale;
  if (op == Op::kGradBeta) {
    normgrad::reference::GradBeta(in.dtype, c.dy, c.res, rows, cols, cols, gamma.data(),
                                  beta.data());
    normgrad::reference::GradBetaAbsSums(in.dtype, c.dy, c.res, rows, cols, cols, abs_gamma.data(),
                                         abs_beta.data());
    EXPECT_TRUE(got.dx.empty());
  } else {
    const std::vector<double> mean(in.mean.begin(), in.mean.end());
    const std::vector<double> rstd(in.rstd.begin(), in.rstd.end());
    dx.resize(rows * cols);
    dx_scale.resize(rows * cols);
    normgrad::reference::LayerNormBackward(in.dtype, c.x, c.dy, c.gamma, mean.data(), rstd.data(),
                                           rows, cols, cols, dx.data(), gamma.data(), beta.data());
    normgrad::reference::LayerNormBackwardScales(in.dtype, c.x, c.dy, c.gamma, mean.data(),
                                                 rstd.data(), rows, cols, cols, dx_scale.data(),
                                                 abs_gamma.data(), abs_beta.data());
    ExpectWithin("dx", got.dx, dx, Gamma(cols + 16) * MaxAbs(dx_scale),
                 RoundedToInput(peer->Name(), "dx"), in.dtype);
  }
  const bool rounded = RoundedToInput(peer->Name(), "pd");
  const double u = SumUlp(peer->Name(), in.dtype);
  if ((rows + 6) * u >= 0.5) return;  // no useful bound (see the top)
  ExpectWithin("pd_gamma", got.pd_gamma, gamma, Gamma(rows + 6, u) * MaxAbs(abs_gamma), rounded,
               in.dtype);
  ExpectWithin("pd_beta", got.pd_beta, beta, Gamma(rows, u) * MaxAbs(abs_beta), rounded, in.dtype);
}

const char* OpName(Op op) {
  switch (op) {
    case Op::kGradBeta:
      return "grad_beta";
    case Op::kBackward:
      return "backward";
    case Op::kRmsForward:
      return "rms_fwd";
    case Op::kRmsBackward:
      return "rms_bwd";
  }
  return "?";
}

// Runs each test on one peer, peer_: the loaded peer named by the parameter
// (the loop peer and every plugin this build made, which must have loaded;
// the plugins it did not make are accounted for by the LoadPeers tests).
class PeerTest : public testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    for (const auto& p : Loaded().peers) {
      if (p->Name() == GetParam()) peer_ = p.get();
    }
    if (peer_ != nullptr) return;
    std::string why = "neither returned nor reported missing";
    for (const auto& [name, reason] : Loaded().missing) {
      if (name == GetParam()) why = reason;
    }
    FAIL() << GetParam() << " built but did not load: " << why;
  }

  Peer* peer_ = nullptr;
};

// Each peer on every op × dtype × shape × thread count it supports; the
// others must come with a reason, from Unsupported and Prepare alike.
TEST_P(PeerTest, MatchesReferenceOrSaysWhyNot) {
  const std::string name = GetParam();
  Peer* peer = peer_;
  EXPECT_FALSE(peer->Version().empty());

  std::set<std::string> supported;
  for (DType t : {DType::kF32, DType::kF16, DType::kBF16}) {
    for (size_t rows : {37, 300}) {
      const Inputs in = MakeInputs(t, rows, rows == 37 ? 64 : 1024);
      for (Op op : {Op::kGradBeta, Op::kBackward, Op::kRmsForward, Op::kRmsBackward}) {
        for (int threads : {1, 2}) {
          SCOPED_TRACE(name + " " + OpName(op) + " " + normgrad::DTypeName(t) + " " +
                       std::to_string(in.rows) + "x" + std::to_string(in.cols) + ", " +
                       std::to_string(threads) + " threads");
          const Case c = MakeCase(in, op, threads);
          const std::string why = peer->Unsupported(c);
          if (!why.empty()) {
            EXPECT_EQ(peer->Prepare(c), why);
            if (rows == 37 && threads == 1) {
              std::printf("  %s %s %s: unsupported: %s\n", name.c_str(), OpName(op),
                          normgrad::DTypeName(t), why.c_str());
            }
            continue;
          }
          supported.insert(std::string(OpName(op)) + " " + normgrad::DTypeName(t));
          ExpectMatchesReference(peer, in, op, threads);
        }
      }
    }
  }
  for (const std::string& s : supported) std::printf("  %s supports %s\n", name.c_str(), s.c_str());
  // No peer may dodge the test by refusing everything.
  EXPECT_EQ(supported.count("grad_beta float"), 1u);
  if (name != "loop") {
    EXPECT_EQ(supported.count("backward float"), 1u);
  }
  if (name == "pytorch") {
    EXPECT_EQ(supported.count("rms_fwd float"), 1u);
    EXPECT_EQ(supported.count("rms_bwd float"), 1u);
  }
}

TEST_P(PeerTest, SumsSmallIntegersExactly) {
  Peer* peer = peer_;
  for (DType t : {DType::kF32, DType::kF16, DType::kBF16}) {
    const Inputs in = MakeInputs(t, 37, 64, /*small_integers=*/true);
    std::vector<double> gamma(in.cols), beta(in.cols);
    normgrad::reference::GradBeta(t, in.dy.data(), in.x.data(), in.rows, in.cols, in.cols,
                                  gamma.data(), beta.data());
    for (int threads : {1, 2}) {
      SCOPED_TRACE(std::string(normgrad::DTypeName(t)) + ", " + std::to_string(threads) +
                   " threads");
      const Case c = MakeCase(in, Op::kGradBeta, threads);
      if (!peer->Unsupported(c).empty()) continue;
      ASSERT_EQ(peer->Prepare(c), "");
      peer->Run();
      const Results got = peer->Read();
      EXPECT_EQ(got.pd_gamma, gamma);
      EXPECT_EQ(got.pd_beta, beta);
    }
  }
}

std::string PeerName(const testing::TestParamInfo<std::string>& peer) { return peer.param; }
std::vector<std::string> TestedPeers() {
  std::vector<std::string> names = {"loop"};
  for (const std::string& name : BuiltPeers()) names.push_back(name);
  return names;
}
INSTANTIATE_TEST_SUITE_P(Peers, PeerTest, testing::ValuesIn(TestedPeers()), PeerName);

TEST(LoadPeers, ReturnsTheLoopPeerAndAccountsForEveryKnownPlugin) {
  const LoadedPeers& loaded = Loaded();
  ASSERT_FALSE(loaded.peers.empty());
  EXPECT_EQ(loaded.peers[0]->Name(), "loop");
  std::multiset<std::string> seen;
  for (size_t i = 1; i < loaded.peers.size(); ++i) seen.insert(loaded.peers[i]->Name());
  for (const auto& [name, why] : loaded.missing) {
    seen.insert(name);
    EXPECT_FALSE(why.empty()) << name;
    std::printf("  missing %s: %s\n", name.c_str(), why.c_str());
  }
  EXPECT_EQ(seen, (std::multiset<std::string>{"onednn", "pytorch"}));
  for (const std::string& name : BuiltPeers()) {
    for (const auto& [missing, why] : loaded.missing) {
      EXPECT_NE(missing, name) << "built but not loaded: " << why;
    }
  }
}

// NORMGRAD_PEER_DIR is searched first; a module that fails to load is
// reported with the loader's message, not skipped.
TEST(LoadPeers, SearchesNormgradPeerDirFirstAndReportsBadModules) {
  const std::string dir = testing::TempDir() + "peers_test_bad_modules";
  ASSERT_EQ(std::system(("mkdir -p '" + dir + "'").c_str()), 0);
  for (const char* name : {"pytorch", "onednn"}) {
    std::ofstream(dir + "/normgrad_peer_" + name + ".so") << "not an ELF file\n";
  }
  ASSERT_EQ(setenv("NORMGRAD_PEER_DIR", dir.c_str(), 1), 0);
  const LoadedPeers loaded = normgrad::bench::LoadPeers();
  unsetenv("NORMGRAD_PEER_DIR");
  ASSERT_EQ(loaded.peers.size(), 1u);
  ASSERT_EQ(loaded.missing.size(), 2u);
  for (const auto& [name, why] : loaded.missing) {
    EXPECT_NE(why.find(dir + "/normgrad_peer_" + name + ".so"), std::string::npos) << why;
  }
}

TEST(LoopPeer, HasNoFusedBackward) {
  const auto loop = normgrad::bench::MakeLoopPeer();
  const Inputs in = MakeInputs(DType::kF32, 4, 8);
  EXPECT_EQ(loop->Unsupported(MakeCase(in, Op::kBackward, 1)), "pd_gamma/pd_beta only");
  EXPECT_EQ(loop->Prepare(MakeCase(in, Op::kBackward, 1)), "pd_gamma/pd_beta only");
}

}  // namespace
