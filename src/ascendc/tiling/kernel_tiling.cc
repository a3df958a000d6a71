// kernel_tiling.cc — the process-wide tiling key of TILING_KEY_IS
// (normgrad_ascendc/tiling/kernel_tiling.h): set by ICPU_SET_TILING_KEY, else
// by the environment variable NORMGRAD_TILING_KEY, else 0, with a one-time
// notice when a kernel tests the key that nothing set.
#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "normgrad_ascendc/tiling/kernel_tiling.h"

namespace normgrad_ascendc {

namespace {

// The key and whether something set it; read from the environment once.
struct TilingKey {
  std::atomic<uint64_t> value{0};
  std::atomic<bool> set{false};
  std::atomic<bool> noticed{false};  // the "nothing set it" notice is out
  std::once_flag environment_read;
};

TilingKey g_key;

// NORMGRAD_TILING_KEY, if it holds a non-negative integer (else a warning).
void ReadEnvironment() {
  std::call_once(g_key.environment_read, [] {
    const char* text = std::getenv("NORMGRAD_TILING_KEY");
    if (text == nullptr || *text == '\0' || g_key.set.load()) return;
    char* end = nullptr;
    errno = 0;
    const unsigned long long value = std::strtoull(text, &end, 0);
    if (errno != 0 || *end != '\0' || text[0] == '-') {
      std::fprintf(stderr,
                   "normgrad: warning: NORMGRAD_TILING_KEY \"%s\" is not a "
                   "non-negative integer; the tiling key stays 0\n",
                   text);
      return;
    }
    g_key.value.store(value);
    g_key.set.store(true);
  });
}

}  // namespace

void SetTilingKey(int64_t key) {
  std::call_once(g_key.environment_read, [] {});  // the program's key wins
  if (key <= 0) {
    std::fprintf(stderr,
                 "normgrad: warning: ICPU_SET_TILING_KEY(%" PRId64
                 "): a tiling key should be a positive integer%s\n",
                 key,
                 key < 0 ? " (a negative key is undefined behaviour on the "
                           "device; it is used as the unsigned value here)"
                         : "");
  }
  g_key.value.store(static_cast<uint64_t>(key));
  g_key.set.store(true);
}

bool TilingKeyIs(uint64_t key) {
  ReadEnvironment();
  if (!g_key.set.load() && !g_key.noticed.exchange(true)) {
    std::fprintf(stderr,
                 "normgrad: note: TILING_KEY_IS(%" PRIu64
                 "): no tiling key was set (ICPU_SET_TILING_KEY before the "
                 "launch, or NORMGRAD_TILING_KEY=<key>), so the key is 0\n",
                 key);
  }
  return g_key.value.load() == key;
}

}  // namespace normgrad_ascendc
