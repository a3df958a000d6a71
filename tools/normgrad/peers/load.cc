// tools/normgrad/peers/load.cc — LoadPeers(): the loop peer plus the plugin
// modules normgrad_peer_<name>.so found at run time (peers.h).
//
// Compile definitions (tools/normgrad/peers/CMakeLists.txt):
//   NORMGRAD_BUILT_PEERS      "pytorch,onednn": the plugins this build made;
//   NORMGRAD_PEER_INSTALL_DIR the installed modules' directory relative to
//                             the installed executable's ("../lib/normgrad").
#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "peers.h"

namespace normgrad::bench {
namespace {

/// A plugin LoadPeers() knows, and the package its build needs.
struct KnownPeer {
  const char* name;
  const char* package;
};
constexpr KnownPeer kKnownPeers[] = {{"pytorch", "libtorch-dev"}, {"onednn", "libdnnl-dev"}};

bool WasBuilt(const std::string& name) {
  std::istringstream built(NORMGRAD_BUILT_PEERS);
  for (std::string item; std::getline(built, item, ',');) {
    if (item == name) return true;
  }
  return false;
}

/// The directory of the running executable, or empty if unknown.
std::string ExecutableDir() {
  std::string path(4096, '\0');
  const ssize_t n = readlink("/proc/self/exe", path.data(), path.size());
  if (n <= 0 || static_cast<size_t>(n) >= path.size()) return "";
  path.resize(static_cast<size_t>(n));
  return path.substr(0, path.rfind('/'));
}

/// Where modules are looked for, in order (peers.h).
std::vector<std::string> SearchDirs() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("NORMGRAD_PEER_DIR"); env != nullptr && *env != '\0') {
    dirs.push_back(env);
  }
  if (const std::string exe = ExecutableDir(); !exe.empty()) {
    dirs.push_back(exe);
    dirs.push_back(exe + "/" NORMGRAD_PEER_INSTALL_DIR);
  }
  return dirs;
}

/// Loads one plugin: its peer, or null and *why.
std::unique_ptr<Peer> Load(const KnownPeer& known, const std::vector<std::string>& dirs,
                           std::string* why) {
  const std::string file = std::string("normgrad_peer_") + known.name + ".so";
  for (const std::string& dir : dirs) {
    const std::string path = dir + "/" + file;
    if (access(path.c_str(), F_OK) != 0) continue;
    // Never closed: the peer's code must outlive the peer.
    void* module = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (module == nullptr) {
      *why = dlerror();
      return nullptr;
    }
    auto create = reinterpret_cast<CreatePeerFn>(dlsym(module, NORMGRAD_PEER_ENTRY));
    if (create == nullptr) {
      *why = path + ": no " NORMGRAD_PEER_ENTRY;
      return nullptr;
    }
    std::unique_ptr<Peer> peer(create(why));
    if (peer == nullptr && why->empty()) *why = path + ": no peer created";
    return peer;
  }
  if (!WasBuilt(known.name)) {
    *why = std::string("not built: ") + known.package +
           " was not installed at build time (or NORMGRAD_BENCH_PEERS=OFF)";
  } else {
    *why = file + " not found in";
    for (const std::string& dir : dirs) *why += " " + dir;
  }
  return nullptr;
}

}  // namespace

LoadedPeers LoadPeers() {
  LoadedPeers loaded;
  loaded.peers.push_back(MakeLoopPeer());
  const std::vector<std::string> dirs = SearchDirs();
  for (const KnownPeer& known : kKnownPeers) {
    std::string why;
    if (std::unique_ptr<Peer> peer = Load(known, dirs, &why)) {
      loaded.peers.push_back(std::move(peer));
    } else {
      loaded.missing.emplace_back(known.name, why);
    }
  }
  return loaded;
}

}  // namespace normgrad::bench
