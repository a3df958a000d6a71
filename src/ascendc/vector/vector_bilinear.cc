// vector_bilinear.cc — BilinearInterpolation (vector_bilinear.h): the
// argument checks, then the page's gather, multiply and horizontal sums in
// half arithmetic, element by element.
#include "normgrad_ascendc/vector/vector_bilinear.h"

#include <cstring>
#include <vector>

#include "normgrad_ascendc/runtime/profile.h"
#include "normgrad_ascendc/vector/vector_unit.h"

namespace normgrad_ascendc {

namespace {

constexpr const char* kApi = "BilinearInterpolation";
constexpr uint32_t kLanes = 128;       // halves of one iteration
constexpr uint32_t kBlockHalves = 16;  // halves of one data block

half HalfAt(const TensorView& t, uint64_t i) {
  half v;
  std::memcpy(&v, t.data() + i * 2, 2);
  return v;
}

// The lanes of one iteration the mask argument selects (and the mask
// register it leaves, as the page's Mul and Add set it).
void MaskLanes(const BilinearArgs& a, bool lanes[kLanes]) {
  if (CurrentCore().vector_mask().mode == AscendC::MaskMode::COUNTER) {
    Fail(
        "%s: the mask register is in counter mode; the mask selects lanes of "
        "each iteration (call SetMaskNorm first)",
        kApi);
  }
  uint64_t low = 0, high = 0;
  if (a.mask_bits != nullptr) {
    low = a.mask_bits[0];
    high = a.mask_bits[1];
    if (low == 0 && high == 0) {
      Fail("%s: mask selects no lane (mask[0] and mask[1] are both 0)", kApi);
    }
  } else {
    if (a.mask_length < 1 || a.mask_length > kLanes) {
      Fail("%s: mask %llu is out of range 1..128 (lanes of half)", kApi,
           static_cast<unsigned long long>(a.mask_length));
    }
    const uint64_t n = a.mask_length;
    low = n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
    high = n <= 64    ? 0
           : n == 128 ? ~uint64_t{0}
                      : (uint64_t{1} << (n - 64)) - 1;
  }
  SetMaskBits(high, low);
  for (uint32_t l = 0; l < kLanes; ++l) {
    lanes[l] = ((l < 64 ? low >> l : high >> (l - 64)) & 1) != 0;
  }
}

void CheckRange(const char* what, uint32_t value, uint32_t first,
                uint32_t last) {
  if (value < first || value > last) {
    Fail("%s: %s %u is out of range %u..%u", kApi, what, value, first, last);
  }
}

// The least sharedTmpBuffer the page asks of the profile, in bytes.
uint64_t TmpBytes(const BilinearArgs& a, Profile p) {
  switch (p) {
    case Profile::kA2:
      return uint64_t{a.src0->bytes / 2} * 32 +
             uint64_t{a.src1->bytes / 2} * 32;
    case Profile::k310P:
      return uint64_t{a.src0_offset->bytes / 4} * 4;
    case Profile::k950:
      break;
  }
  return 0;
}

}  // namespace

void BilinearInterpolationImpl(const BilinearArgs& a) {
  a.dst->CheckUbOperand(kApi, "dst");
  a.src0->CheckUbOperand(kApi, "src0");
  a.src0_offset->CheckUbOperand(kApi, "src0Offset");
  a.src1->CheckUbOperand(kApi, "src1");
  CheckRange("hRepeat", a.h_repeat, 1, 255);
  CheckRange("vRepeat", a.v_repeat, 1, 255);
  CheckRange("vROffset", a.v_r_offset, 128, 65534);
  if (a.v_r_offset % kBlockHalves != 0) {
    Fail("%s: vROffset %u halves (%u bytes) is not a multiple of 32 bytes",
         kApi, a.v_r_offset, a.v_r_offset * 2);
  }
  const Profile profile = a.dst->core->profile().profile;
  const uint64_t tmp_bytes = TmpBytes(a, profile);
  if (tmp_bytes > 0) {
    a.tmp->CheckUbOperand(kApi, "sharedTmpBuffer");
    if (a.tmp->bytes < tmp_bytes) {
      Fail("%s: sharedTmpBuffer has %u bytes; %s needs at least %llu", kApi,
           a.tmp->bytes, GetProfileInfo(profile).name,
           static_cast<unsigned long long>(tmp_bytes));
    }
  }
  bool lanes[kLanes];
  MaskLanes(a, lanes);

  const uint32_t iterations = a.h_repeat * a.v_repeat;
  if (uint64_t{a.src0_offset->bytes} / 4 < uint64_t{iterations} * 8) {
    Fail("%s: src0Offset holds %u offsets; %u iterations read %u", kApi,
         a.src0_offset->bytes / 4, iterations, iterations * 8);
  }
  const uint64_t weights =
      a.repeat_mode ? uint64_t{iterations} * 8 : iterations;
  if (a.src1->bytes / 2 < weights) {
    Fail("%s: src1 holds %u halves; %u iterations with repeatMode %s read %llu",
         kApi, a.src1->bytes / 2, iterations, a.repeat_mode ? "true" : "false",
         static_cast<unsigned long long>(weights));
  }
  const uint8_t* offsets = a.src0_offset->data();
  for (uint32_t k = 0; k < iterations * 8; ++k) {
    uint32_t off;
    std::memcpy(&off, offsets + uint64_t{k} * 4, 4);
    if (off % 32 != 0 || uint64_t{off} + 32 > a.src0->bytes) {
      Fail(
          "%s: src0Offset[%u] is %u bytes; an offset must be a multiple of 32 "
          "with its data block inside src0 (%u bytes)",
          kApi, k, off, a.src0->bytes);
    }
  }
  const uint64_t dst_halves = a.dst->bytes / 2;
  for (uint32_t v = 0; v < a.v_repeat; ++v) {
    for (uint32_t l = 0; l < kLanes; ++l) {
      if (!lanes[l]) continue;
      const uint32_t b = l / kBlockHalves;
      const uint64_t at = uint64_t{v} * a.v_r_offset +
                          uint64_t{b} * a.dst_blk_stride * kBlockHalves +
                          l % kBlockHalves;
      if (at >= dst_halves) {
        Fail(
            "%s: dst holds %llu halves; vertical iteration %u writes element "
            "%llu",
            kApi, static_cast<unsigned long long>(dst_halves), v,
            static_cast<unsigned long long>(at));
      }
    }
  }

  // Every product first (the page's sharedTmpBuffer), then the sums: dst
  // may share memory with nothing the page allows, so the order is free.
  std::vector<half> products(uint64_t{iterations} * kLanes);
  for (uint32_t i = 0; i < iterations; ++i) {
    for (uint32_t b = 0; b < 8; ++b) {
      uint32_t off;
      std::memcpy(&off, offsets + (uint64_t{i} * 8 + b) * 4, 4);
      const half w = HalfAt(*a.src1, a.repeat_mode ? uint64_t{i} * 8 + b : i);
      for (uint32_t e = 0; e < kBlockHalves; ++e) {
        const half x = HalfAt(*a.src0, off / 2 + e);
        products[uint64_t{i} * kLanes + b * kBlockHalves + e] =
            half(static_cast<float>(x) * static_cast<float>(w));
      }
    }
  }
  for (uint32_t v = 0; v < a.v_repeat; ++v) {
    for (uint32_t l = 0; l < kLanes; ++l) {
      if (!lanes[l]) continue;
      const uint64_t first = uint64_t{v} * a.h_repeat * kLanes + l;
      half sum = products[first];
      for (uint32_t h = 1; h < a.h_repeat; ++h) {
        sum = half(static_cast<float>(sum) +
                   static_cast<float>(products[first + uint64_t{h} * kLanes]));
      }
      const uint32_t b = l / kBlockHalves;
      const uint64_t at = uint64_t{v} * a.v_r_offset +
                          uint64_t{b} * a.dst_blk_stride * kBlockHalves +
                          l % kBlockHalves;
      std::memcpy(a.dst->data() + at * 2, &sum, 2);
    }
  }
}

}  // namespace normgrad_ascendc
