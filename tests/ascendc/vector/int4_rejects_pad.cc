// int4_rejects_pad.cc — must not compile: DataCopyPad's pages list no
// int4b_t form (its paddings count whole elements, and int4b_t packs two a
// byte); the ctest runtime:int4_rejects_pad expects the static_assert's
// message.
#include "kernel_operator.h"

void CopyInt4WithPadding(const AscendC::LocalTensor<AscendC::int4b_t>& dst,
                         const AscendC::GlobalTensor<AscendC::int4b_t>& src) {
  AscendC::DataCopyPad(dst, src, AscendC::DataCopyExtParams{1, 32, 0, 0, 0},
                       AscendC::DataCopyPadExtParams<AscendC::int4b_t>{});
}
