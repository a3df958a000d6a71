// tools/normgrad/peers/peers.h — the peers `normgrad bench` compares normgrad
// against (bench_peer.h): the built-in loop peer, and the plugin modules
// normgrad_peer_pytorch.so and normgrad_peer_onednn.so found at run time.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "../bench_peer.h"

namespace normgrad::bench {

/// The "loop" peer: pd_gamma/pd_beta (Op::kGradBeta only) by a plain C++
/// loop, each OpenMP thread summing a contiguous range of rows into its own
/// float partials, the partials added at the end. What a competent user
/// writes in 20 lines; no tuning.
std::unique_ptr<Peer> MakeLoopPeer();

/// The peers available in this process.
struct LoadedPeers {
  /// The loop peer first, then each plugin that loaded and created its peer.
  std::vector<std::unique_ptr<Peer>> peers;
  /// Each known plugin ("pytorch", "onednn") that is not in `peers`, and
  /// why: not built ("not built: libtorch-dev was not installed at build
  /// time"), not found, the dlopen/dlsym error, or the plugin's own reason.
  std::vector<std::pair<std::string, std::string>> missing;
};

/// Loads the known plugins, normgrad_peer_<name>.so, from the first of
/// these directories that has the file:
///   1. $NORMGRAD_PEER_DIR, when set and not empty;
///   2. the directory of the running executable (the build tree's bin/);
///   3. <executable dir>/<bindir → libdir>/normgrad (an installed tree).
/// Modules are opened RTLD_NOW | RTLD_LOCAL and never closed, so a peer
/// stays valid (and destructible) until the process exits.
LoadedPeers LoadPeers();

}  // namespace normgrad::bench
