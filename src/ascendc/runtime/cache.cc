// cache.cc — the argument checks of DataCacheCleanAndInvalid (cache.h).
#include "normgrad_ascendc/runtime/cache.h"

namespace normgrad_ascendc {

void CheckDataCacheCall(const char* api, bool has_dst, AscendC::DcciDst dst,
                        bool memory) {
  if (!memory) {
    Fail(
        "%s: dst has no memory (a GlobalTensor needs SetGlobalBuffer, a "
        "LocalTensor a buffer)",
        api);
  }
  const ProfileInfo& info = CurrentCore().profile();
  if (has_dst && info.profile == Profile::k310P) {
    Fail(
        "%s: the forms with dcciDst are not available on %s; use "
        "DataCacheCleanAndInvalid<T, CacheLine>(gm)",
        api, info.name);
  }
  if (has_dst && dst == AscendC::DcciDst::CACHELINE_ATOMIC &&
      info.profile != Profile::k950) {
    Fail(
        "%s: dcciDst CACHELINE_ATOMIC is available on the 950 only, not on "
        "%s",
        api, info.name);
  }
}

}  // namespace normgrad_ascendc
