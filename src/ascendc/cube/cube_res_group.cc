// cube_res_group.cc — the cube resource groups' queues and message loop
// (normgrad_ascendc/cube/cube_res_group.h, docs/cube.md "Cube resource
// groups").
//
// A group's state lives in its launch, keyed by its message area: for every
// queue the vector core bound to it and its four places, each with its state
// and how many messages were posted there; for every cube core of the group its
// loop's cursor and the message its Call runs. A cube core's loop serves its
// queues in turn, one message of each (the queues' places in rows), waiting for
// the next one of the queue it is at, until every queue has quit: so the order
// of the Calls is fixed, and a message's FAKE stand-ins in the following queues
// are still to come when its Call runs. Every wait (a FREE place for
// AllocMessage, a freed message for Wait, a message for the loop, a state for
// FreeMessage) is the launch's deadlock-detecting wait, and a wait for a cube
// core that has ended is an error naming why. For the race check a post orders
// the poster's earlier accesses before the Call that takes the message, and a
// free orders the cube core's before the Wait (or AllocMessage) that sees it. A
// vector core that joins a group keeps the pages' 1600 bytes and one message at
// the end of its UB (ub_tail.h).
//
// Layout of the area (what the pages' merging code implies; the rest is
// docs/decisions.md's choice): the queues of cube core k of the group form one
// block of 4 · n_k messages, the blocks in the order of the cube cores; inside
// a block place p of local queue l is message p · n_k + l, so that `msg + i` is
// the same place of the i-th next queue (the pages' merged messages) and a
// queue's offsets are 0, n_k, 2 · n_k, 3 · n_k messages.
#include "normgrad_ascendc/cube/cube_res_group.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ascendc/runtime/gm_registry.h"
#include "ascendc/runtime/launch_state.h"
#include "ascendc/runtime/ub_tail.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/profile.h"

namespace normgrad_ascendc {

using AscendC::CubeMsgState;
using AscendC::PipeMode;

namespace {

constexpr uint32_t kPlaces = 4;         // a queue's depth (the pages)
constexpr uint64_t kMessageAlign = 64;  // a message is whole 64-byte blocks
constexpr const char* kRegistMatmul = "REGIST_MATMUL_OBJ";
// What a group keeps at the end of a vector core's UB, besides one message.
constexpr uint32_t kUbTailBytes = 1600;

const char* StateName(CubeMsgState state) {
  switch (state) {
    case CubeMsgState::FREE:
      return "FREE";
    case CubeMsgState::VALID:
      return "VALID";
    case CubeMsgState::QUIT:
      return "QUIT";
    case CubeMsgState::FAKE:
      return "FAKE";
  }
  return "?";
}

const char* ModeName(PipeMode mode) {
  return mode == PipeMode::MTE3_MODE ? "PipeMode::MTE3_MODE"
                                     : "PipeMode::SCALAR_MODE";
}

std::string At(const std::string& what) {
  const std::string site = CallSiteText();
  return site.empty() ? what : what + " at " + site;
}

}  // namespace

struct CubeResGroupState {
  struct Place {
    CubeMsgState state = CubeMsgState::FREE;
    bool allocated = false;  ///< given out by AllocMessage, not yet posted
    PipeMode mode = PipeMode::SCALAR_MODE;
    uint64_t posts = 0;  ///< messages posted here so far
  };
  struct Queue {
    int64_t owner = -1;  ///< the launch's block bound by AssignQueue
    uint64_t allocs = 0;
    uint64_t taken = 0;  ///< messages the loop has taken or passed over
    bool quit_posted = false;
    bool done = false;  ///< the loop took its QUIT
    Place places[kPlaces];
  };
  struct Server {
    bool looping = false;
    uint32_t cursor = 0;         ///< the local queue the next scan starts at
    int64_t in_call_queue = -1;  ///< the message its Call runs
    uint32_t in_call_place = 0;
  };

  CubeResGroupShape shape{};
  std::string made_at;
  uint32_t per_core = 0;  ///< queues per cube core (the last may have fewer)
  std::vector<Queue> queues;
  std::vector<Server> servers;

  uint32_t first_cube() const { return shape.block_start / 2; }
  uint32_t cubes() const { return shape.block_size / 2; }
  uint32_t ServerOf(uint32_t queue) const { return queue / per_core; }
  uint32_t FirstQueue(uint32_t server) const { return server * per_core; }
  uint32_t QueueCount(uint32_t server) const {
    const uint32_t first = FirstQueue(server);
    const uint32_t left = shape.queue_count - first;
    return left < per_core ? left : per_core;
  }
  uint8_t* MessageAt(uint32_t queue, uint32_t place) const {
    const uint32_t server = ServerOf(queue);
    const uint64_t index = uint64_t{kPlaces} * FirstQueue(server) +
                           uint64_t{place} * QueueCount(server) +
                           (queue - FirstQueue(server));
    return shape.area + index * shape.msg_bytes;
  }
  uint16_t OffsetOf(uint32_t queue, uint32_t place) const {
    return static_cast<uint16_t>(place * QueueCount(ServerOf(queue)));
  }
  // The queue and place of `msg`, or false when it is not one of the
  // group's messages.
  bool Decode(const void* msg, uint32_t* queue, uint32_t* place) const {
    const auto* p = static_cast<const uint8_t*>(msg);
    if (p < shape.area) return false;
    const uint64_t bytes = static_cast<uint64_t>(p - shape.area);
    if (bytes % shape.msg_bytes != 0) return false;
    const uint64_t index = bytes / shape.msg_bytes;
    if (index >= uint64_t{kPlaces} * shape.queue_count) return false;
    const uint32_t server = static_cast<uint32_t>(index / (kPlaces * per_core));
    const uint64_t inside = index - uint64_t{kPlaces} * FirstQueue(server);
    const uint32_t count = QueueCount(server);
    *place = static_cast<uint32_t>(inside / count);
    *queue = FirstQueue(server) + static_cast<uint32_t>(inside % count);
    return true;
  }
  // Whether the queue's next message (the loop's) has been posted.
  bool NextPosted(const Queue& q) const {
    return q.places[q.taken % kPlaces].posts > q.taken / kPlaces;
  }
  std::string Channel(uint32_t queue, uint32_t place, const char* what) const {
    char text[96];
    std::snprintf(text, sizeof text, "CubeResGroup %p queue %u place %u %s",
                  static_cast<const void*>(shape.area), queue, place, what);
    return text;
  }
};

namespace {

struct Groups {
  std::map<const uint8_t*, CubeResGroupState> by_area;
};

// The launch's groups; under launch.mutex().
Groups& GroupsOf(Launch& launch) {
  if (!launch.cube_res_groups) {
    launch.cube_res_groups = std::make_shared<Groups>();
  }
  return *static_cast<Groups*>(launch.cube_res_groups.get());
}

const char* JoinApi(const CubeResGroupShape& shape) {
  return shape.group_id >= 0 ? "CreateCubeResGroup" : "CubeResGroupHandle";
}

// The cube core (a block of the launch) that ended in REGIST_MATMUL_OBJ, or
// -1; under launch.mutex().
int64_t RegistMatmulEnded(Launch& launch) {
  for (uint32_t i = 0; i < launch.num_blocks(); ++i) {
    const char* by = launch.block(i).ended_by;
    if (by != nullptr && std::strcmp(by, kRegistMatmul) == 0) return i;
  }
  return -1;
}

void RequireVectorCore(const char* api) {
  if (CurrentBlock().cube) {
    Fail(
        "CubeResGroupHandle::%s: a vector core's call (it posts into a "
        "queue); this is a cube core, which serves the queues",
        api);
  }
}

void RequireCubeCore(const char* api) {
  if (!CurrentBlock().cube) {
    Fail(
        "CubeResGroupHandle::%s: a cube core's call, made in the CallBack's "
        "Call; this is a vector core",
        api);
  }
}

uint32_t RequireBound(const char* api, int32_t queue) {
  if (queue < 0) {
    Fail(
        "CubeResGroupHandle::%s: the handle has no queue; call "
        "AssignQueue(queueIdIn) on this vector core first",
        api);
  }
  return static_cast<uint32_t>(queue);
}

// Under launch.mutex(): the cube core serving `queue` when it has ended,
// else null.
const BlockState* EndedServer(Launch& launch, const CubeResGroupState& g,
                              uint32_t queue) {
  const BlockState& server = launch.block(g.first_cube() + g.ServerOf(queue));
  return server.ended ? &server : nullptr;
}

// A vector core waits for a message of `queue` at `place` to be freed by a
// cube core that has ended: why it never will.
[[noreturn]] void FailServerEnded(Launch& launch, const char* api,
                                  const CubeResGroupState& g, uint32_t queue,
                                  uint32_t place, const BlockState& server) {
  const std::string core = launch.CoreName(server.index);
  const std::string head =
      std::string("CubeResGroupHandle::") + api + ": queue " +
      std::to_string(queue) + "'s message at place " + std::to_string(place) +
      " is never freed: " + core + ", which serves the queue, ";
  if (server.ended_by != nullptr &&
      std::strcmp(server.ended_by, kRegistMatmul) == 0) {
    Fail(
        "%sended in REGIST_MATMUL_OBJ, where a cube core of a mixed kernel "
        "turns to serving the vector cores' Matmul objects (REGIST_MATMUL_OBJ, "
        "or a Matmul object's Init there without ASCENDC_CUBE_ONLY): "
        "CreateCubeResGroup cannot be used together with REGIST_MATMUL_OBJ, "
        "and a CallBack's Matmul object needs ASCENDC_CUBE_ONLY",
        head.c_str());
  }
  if (!g.servers[g.ServerOf(queue)].looping) {
    Fail(
        "%sended without running CreateCubeResGroup's message loop (call "
        "CreateCubeResGroup on the group's cube cores too)",
        head.c_str());
  }
  Fail(
      "%sended its message loop without freeing it (the CallBack's Call "
      "must FreeMessage each message it takes)",
      head.c_str());
}

// The pages' rules for a group's shape, on the calling core.
void CheckShape(Launch& launch, const CubeResGroupShape& s) {
  const char* api = JoinApi(s);
  const ProfileInfo& info = CurrentCore().profile();
  if (info.profile != Profile::kA2) {
    Fail(
        "%s: not emulated on the %s profile (%s); cube resource groups run "
        "on the a2 profile (Atlas A2)",
        api, info.key, info.name);
  }
  if (launch.mix_ratio() == 0) {
    Fail(
        "%s: a cube resource group joins cube cores and vector cores; this "
        "kernel runs %s cores only (declare it KERNEL_TYPE_MIX_AIC_1_2 or "
        "__mix__(1, 2))",
        api, CurrentCore().is_cube() ? "cube" : "vector");
  }
  launch.RequireConcurrent(api);
  if (s.msg_bytes % kMessageAlign != 0) {
    Fail(
        "%s: the message type CubeMsgType is %llu bytes, not a multiple of "
        "%llu; a message is whole %llu-byte blocks",
        api, static_cast<unsigned long long>(s.msg_bytes),
        static_cast<unsigned long long>(kMessageAlign),
        static_cast<unsigned long long>(kMessageAlign));
  }
  if (s.head_offset != 0) {
    Fail(
        "%s: the message type's head is at byte %llu; its CubeGroupMsgHead "
        "head must be the first member",
        api, static_cast<unsigned long long>(s.head_offset));
  }
  CheckKfcWorkspace(api, s.area);
  if (s.block_start % 2 != 0 || s.block_size % 2 != 0) {
    Fail(
        "%s: blockStart %u and blockSize %u must both be even (they count "
        "vector cores, two per cube core)",
        api, s.block_start, s.block_size);
  }
  if (s.block_size == 0) {
    Fail(
        "%s: blockSize 0 gives the group no cube core; it is twice the "
        "group's cube cores",
        api);
  }
  const uint32_t aiv = info.aiv_cores;
  if (s.block_start + s.block_size > aiv - 1) {
    Fail(
        "%s: blockStart %u + blockSize %u = %u is more than %u; the sum may "
        "be at most the %s profile's %u vector cores - 1",
        api, s.block_start, s.block_size, s.block_start + s.block_size, aiv - 1,
        info.key, aiv);
  }
  if (s.queue_count == 0 || s.queue_count > aiv) {
    Fail(
        "%s: msgQueueSize %u is out of range 1..%u (the %s profile's vector "
        "cores)",
        api, s.queue_count, aiv, info.key);
  }
  GmBlock block;
  const uint64_t bytes = CubeResGroupAreaBytes(s.queue_count, s.msg_bytes);
  if (FindGmBlock(s.area, &block)) {
    const uint64_t offset = reinterpret_cast<uintptr_t>(s.area) - block.start;
    if (offset + bytes > block.size) {
      Fail(
          "%s: the group's %u queues of four %llu-byte messages take bytes "
          "[%llu, %llu) of the %llu-byte %s block at %p, past its end; the "
          "workspace needs room for every group's messages",
          api, s.queue_count, static_cast<unsigned long long>(s.msg_bytes),
          static_cast<unsigned long long>(offset),
          static_cast<unsigned long long>(offset + bytes),
          static_cast<unsigned long long>(block.size), GmOwnerName(block.owner),
          reinterpret_cast<void*>(block.start));
    }
  }
  const uint32_t first = s.block_start / 2, cubes = s.block_size / 2;
  if (first + cubes > launch.logical_blocks()) {
    Fail(
        "%s: the group's cube cores %u..%u (blockStart / 2 = %u, blockSize / "
        "2 = %u of them) are not all in this launch, which runs cube cores "
        "0..%u",
        api, first, first + cubes - 1, first, cubes,
        launch.logical_blocks() - 1);
  }
  const uint32_t per = (s.queue_count + cubes - 1) / cubes;
  if (uint64_t{per} * (cubes - 1) >= s.queue_count) {
    Fail(
        "%s: msgQueueSize %u over %u cube cores gives each ceil(%u / %u) = %u "
        "queues, which leaves AIC %u none; each cube core of a group serves "
        "at least one queue",
        api, s.queue_count, cubes, s.queue_count, cubes, per,
        first + (s.queue_count + per - 1) / per);
  }
}

bool SameShape(const CubeResGroupShape& a, const CubeResGroupShape& b) {
  return a.block_start == b.block_start && a.block_size == b.block_size &&
         a.queue_count == b.queue_count && a.msg_bytes == b.msg_bytes &&
         a.group_id == b.group_id;
}

// Under launch.mutex(): the rules between groups, for a new one.
void CheckAgainstOthers(Groups& groups, const CubeResGroupShape& s) {
  const char* api = JoinApi(s);
  const uint32_t first = s.block_start / 2, last = first + s.block_size / 2;
  const uint8_t* end =
      s.area + CubeResGroupAreaBytes(s.queue_count, s.msg_bytes);
  for (const auto& [area, other] : groups.by_area) {
    const uint32_t o_first = other.first_cube();
    const uint32_t o_last = o_first + other.cubes();
    if (first < o_last && o_first < last) {
      Fail(
          "%s: the group's cube cores %u..%u overlap cube cores %u..%u of the "
          "group at %p (made at %s); a cube core belongs to one group",
          api, first, last - 1, o_first, o_last - 1,
          static_cast<const void*>(area), other.made_at.c_str());
    }
    const uint8_t* o_end = area + CubeResGroupAreaBytes(other.shape.queue_count,
                                                        other.shape.msg_bytes);
    if (s.area < o_end && area < end) {
      Fail(
          "%s: the group's messages at %p overlap those of the group at %p "
          "(made at %s); each group needs its own part of the workspace",
          api, static_cast<const void*>(s.area), static_cast<const void*>(area),
          other.made_at.c_str());
    }
  }
}

}  // namespace

uint64_t CubeResGroupAreaBytes(uint32_t queue_count, uint64_t msg_bytes) {
  return uint64_t{kPlaces} * queue_count * msg_bytes;
}

void CheckKfcWorkspace(const char* api, const void* workspace) {
  if (workspace == nullptr) {
    Fail("%s: workspace is null; it must be GM the program owns, zeroed", api);
  }
  if (reinterpret_cast<uintptr_t>(workspace) % kMessageAlign != 0) {
    Fail("%s: workspace %p is not %llu-byte aligned (a message's alignment)",
         api, workspace, static_cast<unsigned long long>(kMessageAlign));
  }
}

void CheckKfcWorkspaceManual(const char* api, bool gave_groups) {
  if (gave_groups) {
    Fail(
        "%s: this KfcWorkspace gave message areas to CreateCubeResGroup, "
        "which cannot be used together with GetKfcWorkspace and "
        "UpdateKfcWorkspace",
        api);
  }
}

void CheckKfcWorkspaceForGroups(bool manual) {
  if (manual) {
    Fail(
        "CreateCubeResGroup: desc was used through GetKfcWorkspace or "
        "UpdateKfcWorkspace, which cannot be used together with "
        "CreateCubeResGroup");
  }
}

CubeResGroupState* CubeResGroupJoin(const CubeResGroupShape& shape) {
  Launch& launch = CurrentLaunch();
  CheckShape(launch, shape);
  const char* api = JoinApi(shape);
  CubeResGroupState* group = nullptr;
  launch.Change([&] {
    const int64_t regist = RegistMatmulEnded(launch);
    if (regist >= 0) {
      Fail(
          "%s: cannot be used together with REGIST_MATMUL_OBJ, which ended "
          "%s (its cube core serves the framework's Matmul objects instead "
          "of the group's messages)",
          api, launch.CoreName(static_cast<uint32_t>(regist)).c_str());
    }
    Groups& groups = GroupsOf(launch);
    const auto found = groups.by_area.find(shape.area);
    if (found != groups.by_area.end()) {
      const CubeResGroupShape& made = found->second.shape;
      if (!SameShape(made, shape)) {
        Fail(
            "%s: the group at %p was made with blockStart %u, blockSize %u, "
            "msgQueueSize %u, a %llu-byte message and groupID %lld (at %s); "
            "this call passes %u, %u, %u, %llu and %lld; every core makes a "
            "group alike",
            api, static_cast<const void*>(shape.area), made.block_start,
            made.block_size, made.queue_count,
            static_cast<unsigned long long>(made.msg_bytes),
            static_cast<long long>(made.group_id),
            found->second.made_at.c_str(), shape.block_start, shape.block_size,
            shape.queue_count, static_cast<unsigned long long>(shape.msg_bytes),
            static_cast<long long>(shape.group_id));
      }
      group = &found->second;
      return;
    }
    CheckAgainstOthers(groups, shape);
    CubeResGroupState& made = groups.by_area[shape.area];
    made.shape = shape;
    made.made_at = CallSiteText();
    made.per_core = (shape.queue_count + made.cubes() - 1) / made.cubes();
    made.queues.resize(shape.queue_count);
    made.servers.resize(made.cubes());
    group = &made;
  });
  if (!CurrentBlock().cube) {
    KeepUbTail(CurrentCore(),
               kUbTailBytes + static_cast<uint32_t>(shape.msg_bytes), api);
  }
  return group;
}

bool CubeResGroupServes(const CubeResGroupState* group) {
  const BlockState& self = CurrentBlock();
  return self.cube && self.index >= group->first_cube() &&
         self.index < group->first_cube() + group->cubes();
}

CubeResGroupState& CubeResGroupOf(const char* api, CubeResGroupState* group) {
  if (group == nullptr) {
    Fail(
        "CubeResGroupHandle::%s: the handle was default-constructed; make it "
        "with CreateCubeResGroup or the five-argument constructor",
        api);
  }
  return *group;
}

// ---- The vector side -------------------------------------------------------

void CubeResGroupAssign(CubeResGroupState& g, uint32_t queue) {
  RequireVectorCore("AssignQueue");
  if (queue >= g.shape.queue_count) {
    Fail(
        "CubeResGroupHandle::AssignQueue: queueIdIn %u is out of range 0..%u "
        "(msgQueueSize - 1)",
        queue, g.shape.queue_count - 1);
  }
  Launch& launch = CurrentLaunch();
  const BlockState& self = CurrentBlock();
  launch.Change([&] {
    CubeResGroupState::Queue& q = g.queues[queue];
    if (q.owner >= 0 && q.owner != self.index) {
      Fail(
          "CubeResGroupHandle::AssignQueue: queue %u is bound to %s already; "
          "each queue has one vector core",
          queue, launch.CoreName(static_cast<uint32_t>(q.owner)).c_str());
    }
    q.owner = self.index;
  });
}

void* CubeResGroupAlloc(CubeResGroupState& g, int32_t bound, PipeMode mode) {
  RequireVectorCore("AllocMessage");
  const uint32_t queue = RequireBound("AllocMessage", bound);
  Launch& launch = CurrentLaunch();
  BlockState& self = CurrentBlock();
  CubeResGroupState::Queue& q = g.queues[queue];
  uint32_t place = 0;
  launch.Change([&] {
    if (q.quit_posted) {
      Fail(
          "CubeResGroupHandle::AllocMessage: queue %u has quit (SetQuit); it "
          "takes no more messages",
          queue);
    }
    place = static_cast<uint32_t>(q.allocs % kPlaces);
    if (q.places[place].allocated) {
      Fail(
          "CubeResGroupHandle::AllocMessage: queue %u's place %u was given "
          "out by an AllocMessage whose message was never posted; post each "
          "message (PostMessage, PostFakeMsg or SetQuit) before taking a "
          "fifth place",
          queue, place);
    }
  });
  CubeResGroupState::Place& slot = q.places[place];
  launch.Wait(
      self,
      At("CubeResGroupHandle::AllocMessage(queue " + std::to_string(queue) +
         ", place " + std::to_string(place) + ", for " +
         launch.CoreName(g.first_cube() + g.ServerOf(queue)) +
         " to free its message there)"),
      [&] {
        return slot.state == CubeMsgState::FREE ||
               EndedServer(launch, g, queue) != nullptr;
      });
  launch.Change([&] {
    if (slot.state != CubeMsgState::FREE) {
      FailServerEnded(launch, "AllocMessage", g, queue, place,
                      *EndedServer(launch, g, queue));
    }
    RaceAcquire(launch, self, g.Channel(queue, place, "free"));
    slot.allocated = true;
    slot.mode = mode;
    ++q.allocs;
  });
  return g.MessageAt(queue, place);
}

uint16_t CubeResGroupPost(CubeResGroupState& g, int32_t bound, void* msg,
                          const void* input, CubeMsgState state, PipeMode mode,
                          const char* api) {
  const char* member = std::strstr(api, "::") + 2;
  RequireVectorCore(member);
  const uint32_t queue = RequireBound(member, bound);
  uint32_t at_queue = 0, place = 0;
  if (!g.Decode(msg, &at_queue, &place)) {
    Fail("%s: msg %p is not a message of the group at %p", api, msg,
         static_cast<const void*>(g.shape.area));
  }
  if (at_queue != queue) {
    Fail(
        "%s: msg %p is queue %u's place %u, not a message of the bound queue "
        "%u",
        api, msg, at_queue, place, queue);
  }
  Launch& launch = CurrentLaunch();
  BlockState& self = CurrentBlock();
  CubeResGroupState::Queue& q = g.queues[queue];
  CubeResGroupState::Place& slot = q.places[place];
  {
    const std::lock_guard<std::mutex> lock(launch.mutex());
    if (!slot.allocated) {
      Fail(
          "%s: msg %p is queue %u's place %u, which AllocMessage has not "
          "given out (or it was posted already)",
          api, msg, queue, place);
    }
    if (slot.mode != mode) {
      Fail("%s: the message was taken with AllocMessage<%s>; %s", api,
           ModeName(slot.mode),
           state == CubeMsgState::VALID
               ? "PostMessage takes the same pipeMode"
               : "after AllocMessage<PipeMode::MTE3_MODE> only PostMessage "
                 "sends it");
    }
  }
  auto* bytes = static_cast<uint8_t*>(msg);
  if (input != nullptr) std::memcpy(bytes, input, g.shape.msg_bytes);
  launch.Change([&] {
    bytes[0] = static_cast<uint8_t>(state);  // head.msgState
    slot.state = state;
    slot.allocated = false;
    ++slot.posts;
    if (state == CubeMsgState::QUIT) q.quit_posted = true;
    RaceRelease(launch, self, g.Channel(queue, place, "post"));
  });
  return g.OffsetOf(queue, place);
}

bool CubeResGroupWait(CubeResGroupState& g, int32_t bound, uint16_t offset,
                      bool sync) {
  RequireVectorCore("Wait");
  const uint32_t queue = RequireBound("Wait", bound);
  const uint32_t count = g.QueueCount(g.ServerOf(queue));
  if (offset % count != 0 || offset / count >= kPlaces) {
    Fail(
        "CubeResGroupHandle::Wait: offset %u is not one that PostMessage "
        "returns for queue %u (0, %u, %u or %u)",
        offset, queue, count, 2 * count, 3 * count);
  }
  const uint32_t place = offset / count;
  Launch& launch = CurrentLaunch();
  BlockState& self = CurrentBlock();
  CubeResGroupState::Place& slot = g.queues[queue].places[place];
  if (sync) {
    launch.Wait(self,
                At("CubeResGroupHandle::Wait(offset " + std::to_string(offset) +
                   ": queue " + std::to_string(queue) + ", place " +
                   std::to_string(place) + ", for " +
                   launch.CoreName(g.first_cube() + g.ServerOf(queue)) +
                   " to free it)"),
                [&] {
                  return slot.state == CubeMsgState::FREE ||
                         EndedServer(launch, g, queue) != nullptr;
                });
  }
  bool freed = false;
  launch.Change([&] {
    freed = slot.state == CubeMsgState::FREE;
    if (sync && !freed) {
      FailServerEnded(launch, "Wait", g, queue, place,
                      *EndedServer(launch, g, queue));
    }
    if (freed) RaceAcquire(launch, self, g.Channel(queue, place, "free"));
  });
  return freed;
}

// ---- The cube side ---------------------------------------------------------

namespace {

// The calling cube core's place among the group's servers; it must serve
// the group.
uint32_t ServerIndex(const CubeResGroupState& g, const char* api) {
  if (!CubeResGroupServes(&g)) {
    Fail(
        "CubeResGroupHandle::%s: this cube core (AIC %u) is not one of the "
        "group's cube cores %u..%u",
        api, CurrentBlock().index, g.first_cube(),
        g.first_cube() + g.cubes() - 1);
  }
  return CurrentBlock().index - g.first_cube();
}

}  // namespace

uint16_t CubeResGroupFree(CubeResGroupState& g, void* msg,
                          CubeMsgState wait_state) {
  RequireCubeCore("FreeMessage");
  const uint32_t server = ServerIndex(g, "FreeMessage");
  uint32_t queue = 0, place = 0;
  if (!g.Decode(msg, &queue, &place)) {
    Fail(
        "CubeResGroupHandle::FreeMessage: msg %p is not a message of the "
        "group at %p",
        msg, static_cast<const void*>(g.shape.area));
  }
  Launch& launch = CurrentLaunch();
  BlockState& self = CurrentBlock();
  if (g.ServerOf(queue) != server) {
    Fail(
        "CubeResGroupHandle::FreeMessage: msg %p is queue %u's place %u, "
        "which %s serves, not this cube core",
        msg, queue, place,
        launch.CoreName(g.first_cube() + g.ServerOf(queue)).c_str());
  }
  CubeResGroupState::Place& slot = g.queues[queue].places[place];
  if (wait_state != CubeMsgState::FREE) {
    launch.Wait(self,
                At(std::string("CubeResGroupHandle::FreeMessage(queue ") +
                   std::to_string(queue) + ", place " + std::to_string(place) +
                   ", waiting for a " + StateName(wait_state) + " message)"),
                [&] { return slot.state == wait_state; });
  }
  launch.Change([&] {
    if (slot.state == CubeMsgState::FREE || slot.state == CubeMsgState::QUIT) {
      Fail(
          "CubeResGroupHandle::FreeMessage: queue %u's place %u holds %s; "
          "only a VALID or FAKE message is freed",
          queue, place,
          slot.state == CubeMsgState::FREE ? "no message (it is FREE)"
                                           : "the queue's QUIT");
    }
    RaceAcquire(launch, self, g.Channel(queue, place, "post"));
    static_cast<uint8_t*>(msg)[0] = static_cast<uint8_t>(CubeMsgState::FREE);
    slot.state = CubeMsgState::FREE;
    RaceRelease(launch, self, g.Channel(queue, place, "free"));
  });
  return g.OffsetOf(queue, place);
}

void CubeResGroupSkip(CubeResGroupState& g, uint32_t count) {
  RequireCubeCore("SetSkipMsg");
  const uint32_t server = ServerIndex(g, "SetSkipMsg");
  Launch& launch = CurrentLaunch();
  launch.Change([&] {
    CubeResGroupState::Server& s = g.servers[server];
    if (s.in_call_queue < 0) {
      Fail(
          "CubeResGroupHandle::SetSkipMsg: called outside the CallBack's "
          "Call; it passes over the messages after the one a Call runs");
    }
    const uint32_t running = static_cast<uint32_t>(s.in_call_queue);
    const uint32_t last = g.FirstQueue(server) + g.QueueCount(server) - 1;
    if (running + count > last) {
      Fail(
          "CubeResGroupHandle::SetSkipMsg: skipCnt %u reaches past queue %u, "
          "the last this cube core serves (the running message is queue "
          "%u's)",
          count, last, running);
    }
    for (uint32_t queue = running + 1; queue <= running + count; ++queue) {
      CubeResGroupState::Queue& q = g.queues[queue];
      const uint32_t place = static_cast<uint32_t>(q.taken % kPlaces);
      if (q.done) {
        Fail("CubeResGroupHandle::SetSkipMsg: queue %u has quit (SetQuit)",
             queue);
      }
      if (place != s.in_call_place) {
        Fail(
            "CubeResGroupHandle::SetSkipMsg: queue %u's next message is at "
            "place %u, not at place %u of the running message; merged "
            "messages stand at the same place of consecutive queues",
            queue, place, s.in_call_place);
      }
      const CubeMsgState state = q.places[place].state;
      if (g.NextPosted(q) &&
          (state == CubeMsgState::VALID || state == CubeMsgState::QUIT)) {
        Fail(
            "CubeResGroupHandle::SetSkipMsg: queue %u's message at place %u "
            "is %s; only FAKE messages (PostFakeMsg) are passed over",
            queue, place, StateName(state));
      }
      ++q.taken;
    }
    s.cursor =
        (running + count + 1 - g.FirstQueue(server)) % g.QueueCount(server);
  });
}

void* CubeResGroupTake(CubeResGroupState& g) {
  const uint32_t server = ServerIndex(g, "CreateCubeResGroup");
  Launch& launch = CurrentLaunch();
  BlockState& self = CurrentBlock();
  const uint32_t first = g.FirstQueue(server), count = g.QueueCount(server);
  CubeResGroupState::Server& s = g.servers[server];
  launch.Change([&] { s.looping = true; });
  while (true) {
    // The queues in turn, from the cursor: the next one that has not quit
    // (under the lock; only this loop marks a queue done).
    uint32_t queue = 0;
    bool finished = true;
    launch.Change([&] {
      for (uint32_t step = 0; step < count; ++step) {
        const uint32_t local = (s.cursor + step) % count;
        if (g.queues[first + local].done) continue;
        s.cursor = local;
        queue = first + local;
        finished = false;
        return;
      }
    });
    if (finished) return nullptr;
    CubeResGroupState::Queue& q = g.queues[queue];
    const uint32_t place = static_cast<uint32_t>(q.taken % kPlaces);
    launch.Wait(
        self,
        At("CreateCubeResGroup's message loop (queue " + std::to_string(queue) +
           "'s next message, at place " + std::to_string(place) +
           "; it serves queues " + std::to_string(first) + ".." +
           std::to_string(first + count - 1) +
           " in turn until each has quit with SetQuit)"),
        [&] { return g.NextPosted(q); });
    void* taken = nullptr;
    launch.Change([&] {
      CubeResGroupState::Place& slot = q.places[place];
      ++q.taken;
      s.cursor = (s.cursor + 1) % count;
      RaceAcquire(launch, self, g.Channel(queue, place, "post"));
      switch (slot.state) {
        case CubeMsgState::VALID:
          taken = g.MessageAt(queue, place);
          s.in_call_queue = queue;
          s.in_call_place = place;
          break;
        case CubeMsgState::FAKE:  // nothing to run: freed at once
          g.MessageAt(queue, place)[0] =
              static_cast<uint8_t>(CubeMsgState::FREE);
          slot.state = CubeMsgState::FREE;
          RaceRelease(launch, self, g.Channel(queue, place, "free"));
          break;
        case CubeMsgState::QUIT:
          q.done = true;
          break;
        case CubeMsgState::FREE:  // a Call freed it before the loop came
          break;
      }
    });
    if (taken != nullptr) return taken;
  }
}

void CubeResGroupCallEnded(CubeResGroupState& g) {
  const uint32_t server = ServerIndex(g, "CreateCubeResGroup");
  CurrentLaunch().Change([&] { g.servers[server].in_call_queue = -1; });
}

}  // namespace normgrad_ascendc
