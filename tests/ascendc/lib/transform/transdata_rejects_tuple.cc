// transdata_rejects_tuple.cc — must not compile: TransData's params take
// AscendC::Layout, not a tuple-shaped stand-in (the ctest
// compat:transdata_rejects_tuple expects the static_assert's message).
#include <tuple>

#include "kernel_operator.h"

struct TupleLayout {
  std::tuple<int, int, int, int, int> shape{1, 16, 1, 4, 4};
  const std::tuple<int, int, int, int, int>& GetShape() const { return shape; }
};

constexpr AscendC::TransDataConfig kToFractal = {
    AscendC::DataFormat::NCDHW, AscendC::DataFormat::FRACTAL_Z_3D};

void TransDataOnTuples(const AscendC::LocalTensor<half>& dst,
                       const AscendC::LocalTensor<half>& src) {
  const AscendC::TransDataParams<TupleLayout, TupleLayout> params{};
  AscendC::TransData<kToFractal>(dst, src, params);
}
