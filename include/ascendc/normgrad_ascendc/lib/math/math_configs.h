// normgrad_ascendc/lib/math/math_configs.h — the config structs of the
// transcendental Math APIs (TanhConfig, SinConfig, CosConfig, ErfConfig,
// AtanConfig) with their defaults, shared by the kernel headers and the
// host's scratch-size queries (Sin's and Cos's take their config). Each
// algo picks the device's algorithm; every algo gives the same, bounded
// results here (docs/math.md).
#pragma once

namespace AscendC {

enum class TanhAlgo {
  INTRINSIC = 0,
  SUBSECTION_COMPENSATION,
};

struct TanhConfig {
  TanhAlgo algo = TanhAlgo::INTRINSIC;
};

inline constexpr TanhConfig DEFAULT_TANH_CONFIG = {TanhAlgo::INTRINSIC};

enum class SinAlgo {
  POLYNOMIAL_APPROXIMATION = 0,
  RADIAN_REDUCTION,
};

struct SinConfig {
  SinAlgo algo = SinAlgo::POLYNOMIAL_APPROXIMATION;
};

inline constexpr SinConfig defaultSinConfig = {
    SinAlgo::POLYNOMIAL_APPROXIMATION};

enum class CosAlgo {
  POLYNOMIAL_APPROXIMATION = 0,
  RADIAN_REDUCTION,
};

struct CosConfig {
  CosAlgo algo = CosAlgo::POLYNOMIAL_APPROXIMATION;
};

inline constexpr CosConfig defaultCosConfig = {
    CosAlgo::POLYNOMIAL_APPROXIMATION};

enum class ErfAlgo {
  PADE_APPROXIMATION = 0,
  SUBSECTION_POLYNOMIAL_APPROXIMATION,
};

struct ErfConfig {
  ErfAlgo algo = ErfAlgo::PADE_APPROXIMATION;
};

inline constexpr ErfConfig defaultErfConfig = {ErfAlgo::PADE_APPROXIMATION};

enum class AtanAlgo {
  TAYLOR_EXPANSION = 0,
  POLYNOMIAL_APPROXIMATION,
};

struct AtanConfig {
  AtanAlgo algo = AtanAlgo::TAYLOR_EXPANSION;
};

inline constexpr AtanConfig defaultAtanConfig = {AtanAlgo::TAYLOR_EXPANSION};

}  // namespace AscendC
