// broadcast.cc — RunBroadcast and MakeBroadcastTiling (docs/transform.md,
// "Broadcast"): dst[i0, ..., ik] = src[j0, ..., jk] with jd = 0 where
// srcShape[d] is 1 and jd = id elsewhere; both tensors row-major and packed.
#include <cstring>
#include <string>

#include "ascendc/lib/transform/transform_kernel.h"
#include "ascendc/lib/transform/transform_rules.h"

namespace normgrad_ascendc {
namespace {

const char* kApi = "Broadcast";

constexpr TransformTypes kB8B16B32 =
    TypeBit(TransformElem::kInt8) | TypeBit(TransformElem::kUint8) |
    TypeBit(TransformElem::kHalf) | TypeBit(TransformElem::kFloat);

TransformTypes BroadcastTypes(Profile p) {
  if (p == Profile::k950) {
    return (TypeBit(TransformElem::kOther) - 1);  // every b8-b64 type
  }
  return kB8B16B32;
}

// The shapes' rule for `api`: every dimension at least 1, and each source
// dimension equal to the destination's or 1.
void CheckShapes(const char* api, uint32_t rank, const uint32_t* dst_shape,
                 const uint32_t* src_shape) {
  if (dst_shape == nullptr || src_shape == nullptr) {
    Fail("%s: %s is null", api, dst_shape == nullptr ? "dstShape" : "srcShape");
  }
  for (uint32_t i = 0; i < rank; ++i) {
    if (dst_shape[i] == 0 || src_shape[i] == 0) {
      Fail("%s: %s[%u] is 0; every dimension must be at least 1", api,
           dst_shape[i] == 0 ? "dstShape" : "srcShape", i);
    }
    if (src_shape[i] != dst_shape[i] && src_shape[i] != 1) {
      Fail(
          "%s: srcShape[%u] is %u and dstShape[%u] %u; a source dimension "
          "must equal the destination's or be 1 (broadcast)",
          api, i, src_shape[i], i, dst_shape[i]);
    }
  }
}

uint64_t Count(uint32_t rank, const uint32_t* shape) {
  uint64_t n = 1;
  for (uint32_t i = 0; i < rank; ++i) n *= shape[i];
  return n;
}

}  // namespace

void MakeBroadcastTiling(TransformElem type, uint32_t rank,
                         const uint32_t* dst_shape, const uint32_t* src_shape,
                         bool src_inner_pad, AscendC::BroadcastTiling& tiling) {
  const char* api = "GetBroadcastTilingInfo";
  const ProfileInfo& profile = CurrentCore().profile();
  if (profile.profile != Profile::k950) {
    Fail(
        "%s: the dynamic-shape Broadcast is available on profile 950 only, "
        "not on profile %s (%s)",
        api, profile.key, profile.name);
  }
  CheckTypeOn(api, type, BroadcastTypes(profile.profile), profile);
  if (rank < 1 || rank > AscendC::kBroadcastMaxRank) {
    Fail("%s: rank is %u; it must be in [1, 9]", api, rank);
  }
  if (src_inner_pad) {
    Fail("%s: srcInnerPad is true; only false is supported", api);
  }
  CheckShapes(api, rank, dst_shape, src_shape);
  tiling = AscendC::BroadcastTiling{};
  tiling.rank = rank;
  for (uint32_t i = 0; i < rank; ++i) {
    tiling.dstShape[i] = dst_shape[i];
    tiling.srcShape[i] = src_shape[i];
  }
}

void RunBroadcast(const BroadcastArgs& a) {
  CheckPlacements(kApi, {{a.dynamic ? "dst" : "dstLocal", a.dst},
                         {a.dynamic ? "src" : "srcLocal", a.src}});
  const ProfileInfo& profile = a.dst.core->profile();
  const uint32_t bytes = ElemBytes(a.type);
  if (a.dynamic) {
    if (profile.profile != Profile::k950) {
      Fail(
          "%s: the dynamic-shape form (BroadcastTiling) is available on "
          "profile 950 only, not on profile %s (%s)",
          kApi, profile.key, profile.name);
    }
    CheckTypeOn(kApi, a.type, BroadcastTypes(profile.profile), profile);
    CheckTilingFilled(kApi, "rank", a.rank, "GetBroadcastTilingInfo");
    CheckShapes(kApi, a.rank, a.dst_shape, a.src_shape);
    for (uint32_t i = 0; i < a.rank; ++i) {
      if (a.dst_shape[i] != a.tiling->dstShape[i] ||
          a.src_shape[i] != a.tiling->srcShape[i]) {
        Fail(
            "%s: dimension %u is dstShape %u, srcShape %u, but the tiling "
            "has %u and %u: pass the shapes GetBroadcastTilingInfo was given",
            kApi, i, a.dst_shape[i], a.src_shape[i], a.tiling->dstShape[i],
            a.tiling->srcShape[i]);
      }
    }
  } else {
    CheckTypeOn(kApi, a.type, BroadcastTypes(profile.profile), profile);
    CheckShapes(kApi, a.rank, a.dst_shape, a.src_shape);
    if (a.src_shape[a.axis] != 1) {
      Fail("%s: srcShape[%d] is %u; the broadcast axis (axis = %d) must be 1",
           kApi, a.axis, a.src_shape[a.axis], a.axis);
    }
    if (a.rank == 2) {
      const int other = 1 - a.axis;
      if (a.src_shape[other] != a.dst_shape[other]) {
        Fail(
            "%s: srcShape[%d] is %u and dstShape[%d] %u; the axis that is "
            "not broadcast must be equal",
            kApi, other, a.src_shape[other], other, a.dst_shape[other]);
      }
      const bool needs_aligned =
          a.axis == 0 || (a.axis == 1 && profile.profile == Profile::k310P);
      if (needs_aligned &&
          uint64_t{a.src_shape[other]} * bytes % kBlockBytes != 0) {
        Fail(
            "%s: srcShape[%d] is %u %s (%llu bytes), not a multiple of 32 "
            "bytes; with dim = 2 and axis = %d it must be 32-byte aligned%s",
            kApi, other, a.src_shape[other], ElemPlural(a.type),
            static_cast<unsigned long long>(uint64_t{a.src_shape[other]} *
                                            bytes),
            a.axis,
            a.axis == 1 ? " on profile 310p (Atlas inference series)" : "");
      }
    }
  }
  const uint64_t src_elems = Count(a.rank, a.src_shape);
  const uint64_t dst_elems = Count(a.rank, a.dst_shape);
  const Element e{bytes, ElemPlural(a.type)};
  CheckLengths(kApi, e,
               {{a.dynamic ? "src" : "srcLocal", a.src, src_elems,
                 "the elements of srcShape"},
                {a.dynamic ? "dst" : "dstLocal", a.dst, dst_elems,
                 "the elements of dstShape"}});
  CheckTransformOperands(kApi, a.dynamic ? "dst" : "dstLocal", a.dst,
                         dst_elems * bytes, a.dynamic ? "src" : "srcLocal",
                         a.src, src_elems * bytes, a.shared_tmp);

  // Walk the destination a row (its last axis) at a time, carrying the
  // source index of the row's first element: along a broadcast axis the
  // source stride is 0. A row is a copy of the source row, or where the last
  // axis is broadcast one element repeated.
  const uint32_t last = a.rank - 1;
  uint64_t src_stride[AscendC::kBroadcastMaxRank];
  uint64_t stride = 1;
  for (uint32_t d = a.rank; d-- > 0;) {
    src_stride[d] = a.src_shape[d] == 1 ? 0 : stride;
    stride *= a.src_shape[d];
  }
  const uint64_t row = a.dst_shape[last];
  const uint64_t row_bytes = row * bytes;
  const bool repeat = src_stride[last] == 0;
  uint32_t index[AscendC::kBroadcastMaxRank] = {};
  const uint8_t* src = a.src.data();
  uint8_t* dst = a.dst.data();
  uint64_t from = 0;
  for (uint64_t o = 0; o < dst_elems; o += row) {
    uint8_t* out = dst + o * bytes;
    if (repeat) {
      RepeatElement(out, src + from * bytes, bytes, row_bytes);
    } else {
      std::memcpy(out, src + from * bytes, row_bytes);
    }
    for (uint32_t d = last; d-- > 0;) {
      from += src_stride[d];
      if (++index[d] < a.dst_shape[d]) break;
      from -= src_stride[d] * index[d];
      index[d] = 0;
    }
  }
}

}  // namespace normgrad_ascendc
