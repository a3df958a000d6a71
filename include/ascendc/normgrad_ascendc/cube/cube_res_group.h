// normgrad_ascendc/cube/cube_res_group.h — cube resource groups (docs/cube.md,
// "Cube resource groups"): KfcWorkspace, the message area of GM the groups
// carve; CubeResGroupHandle, a group of cube cores that serve messages which
// vector cores post into queues (AssignQueue, AllocMessage, PostMessage,
// PostFakeMsg, SetQuit, Wait on the vector side; FreeMessage, SetSkipMsg in
// the cube side's callback); and CreateCubeResGroup, which makes a handle and
// runs the group's message loop on its cube cores, calling the user's
// CallBack (Init once, Call per message) with the group's compute object.
//
// The queues' state lives in the launch (cube_res_group.cc): the message
// bytes are written to the GM area as the device has them (so a Call reads
// its message there), while who may proceed is decided from normgrad's own
// record, under the launch's deadlock-detecting wait. Only a mixed kernel
// (cube and vector cores) on the a2 profile runs them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/runtime/block_sync.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/qualifiers.h"

namespace AscendC {

/// The state of one message place of a queue (the first byte of a message).
enum class CubeMsgState : uint8_t {
  FREE = 0,   ///< nothing posted: AllocMessage may take it
  VALID = 1,  ///< a message (PostMessage) waits for its cube core
  QUIT = 2,   ///< the queue's vector core has left (SetQuit)
  FAKE = 3,   ///< a merged message's stand-in (PostFakeMsg)
};

/// The two bytes every message type starts with, as a member named `head`.
struct CubeGroupMsgHead {
  CubeMsgState msgState;
  uint8_t aivID;  ///< the posting vector core, as the program fills it
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// One group's record in the launch (cube_res_group.cc).
struct CubeResGroupState;

/// CreateCubeResGroup's body (below): a class, so that KfcWorkspace and the
/// handle can let it in.
template <int groupID, class MatmulApiType,
          template <class, class> class CallBack, typename CubeMsgType>
class CubeResGroupFactory;

/// What a handle is made with; `group_id` is -1 for the constructor.
struct CubeResGroupShape {
  uint8_t* area;
  uint32_t block_start, block_size, queue_count;
  uint64_t msg_bytes;
  uint64_t head_offset;
  int64_t group_id;
};

/// The GM bytes a group's messages take: four places per queue.
uint64_t CubeResGroupAreaBytes(uint32_t queue_count, uint64_t msg_bytes);
/// KfcWorkspace's checks; `api` names the member.
void CheckKfcWorkspace(const char* api, const void* workspace);
void CheckKfcWorkspaceManual(const char* api, bool gave_groups);
void CheckKfcWorkspaceForGroups(bool manual);

/// Checks the shape against the pages' rules and the launch, and joins the
/// calling core to the group (created by the first core that joins).
CubeResGroupState* CubeResGroupJoin(const CubeResGroupShape& shape);
/// Whether the calling core is one of the group's cube cores.
bool CubeResGroupServes(const CubeResGroupState* group);
/// Fails unless the handle was made (it is not default-constructed).
CubeResGroupState& CubeResGroupOf(const char* api, CubeResGroupState* group);

// The vector side. `queue` is the handle's bound queue, or -1.
void CubeResGroupAssign(CubeResGroupState& group, uint32_t queue);
void* CubeResGroupAlloc(CubeResGroupState& group, int32_t queue,
                        AscendC::PipeMode mode);
/// Posts `state` in `msg` (with `input`'s bytes for VALID); `api` names the
/// call. Returns the message's offset from its queue's first place.
uint16_t CubeResGroupPost(CubeResGroupState& group, int32_t queue, void* msg,
                          const void* input, AscendC::CubeMsgState state,
                          AscendC::PipeMode mode, const char* api);
bool CubeResGroupWait(CubeResGroupState& group, int32_t queue, uint16_t offset,
                      bool sync);

// The cube side.
/// Frees `msg`; with `wait_state` other than FREE, first waits until the
/// message is in that state.
uint16_t CubeResGroupFree(CubeResGroupState& group, void* msg,
                          AscendC::CubeMsgState wait_state);
void CubeResGroupSkip(CubeResGroupState& group, uint32_t count);
/// The message loop: the next VALID message of the calling cube core's
/// queues to Call (fake ones it frees itself), or null once every queue
/// has quit.
void* CubeResGroupTake(CubeResGroupState& group);
/// The Call of the message Take returned has returned.
void CubeResGroupCallEnded(CubeResGroupState& group);

}  // namespace normgrad_ascendc

namespace AscendC {

/// The GM area from which CreateCubeResGroup carves each group's messages,
/// one group after another (or, for the CubeResGroupHandle constructor, the
/// program itself through GetKfcWorkspace / UpdateKfcWorkspace — not both
/// with one KfcWorkspace). The program zeroes it before use.
class KfcWorkspace {
 public:
  explicit KfcWorkspace(GM_ADDR workspace, normgrad_ascendc::CallSite site = {})
      : next_(workspace) {
    const normgrad_ascendc::ApiCall call(site);
    normgrad_ascendc::CheckKfcWorkspace("KfcWorkspace", workspace);
  }
  ~KfcWorkspace() = default;

  /// The present start of the area.
  GM_ADDR GetKfcWorkspace(normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    normgrad_ascendc::CheckKfcWorkspaceManual("KfcWorkspace::GetKfcWorkspace",
                                              gave_groups_);
    manual_ = true;
    return next_;
  }
  /// Moves the start `offset` bytes on.
  void UpdateKfcWorkspace(uint32_t offset,
                          normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    normgrad_ascendc::CheckKfcWorkspaceManual(
        "KfcWorkspace::UpdateKfcWorkspace", gave_groups_);
    manual_ = true;
    next_ += offset;
  }

 private:
  template <int groupID, class MatmulApiType,
            template <class, class> class CallBack, typename CubeMsgType>
  friend class normgrad_ascendc::CubeResGroupFactory;

  GM_ADDR next_;
  bool manual_ = false;       ///< GetKfcWorkspace / UpdateKfcWorkspace used
  bool gave_groups_ = false;  ///< CreateCubeResGroup took an area
};

/// A vector core's (or, in a callback, a cube core's) view of one group.
template <typename CubeMsgType>
class CubeResGroupHandle {
  static_assert(std::is_trivially_copyable_v<CubeMsgType>,
                "CubeResGroupHandle: the message type must be a plain struct "
                "(it is copied into GM)");

 public:
  CubeResGroupHandle() = default;

  /// A handle on the group whose messages start at `workspace`: AIV blocks
  /// blockStart .. blockStart + blockSize − 1 (its cube cores blockStart / 2
  /// onwards) and msgQueueSize queues. `evtIDIn` is accepted (the CPU needs
  /// no event for its messages).
  CubeResGroupHandle(GM_ADDR workspace, uint8_t blockStart, uint8_t blockSize,
                     uint8_t msgQueueSize, uint8_t evtIDIn,
                     normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    static_cast<void>(evtIDIn);
    group_ = normgrad_ascendc::CubeResGroupJoin(
        Shape(workspace, blockStart, blockSize, msgQueueSize, -1));
  }

  /// Binds the calling vector core to queue queueIdIn (0 .. msgQueueSize −
  /// 1); each queue has one vector core.
  void AssignQueue(uint8_t queueIdIn, normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    normgrad_ascendc::CubeResGroupAssign(Group("AssignQueue"), queueIdIn);
    queue_ = queueIdIn;
  }

  /// The next place of the bound queue (four, in turn), once it is FREE.
  template <PipeMode pipeMode = PipeMode::SCALAR_MODE>
  __gm__ CubeMsgType* AllocMessage(normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    return static_cast<__gm__ CubeMsgType*>(normgrad_ascendc::CubeResGroupAlloc(
        Group("AllocMessage"), queue_, pipeMode));
  }

  /// Writes msgInput into msg as a VALID message for the group's cube core.
  template <PipeMode pipeMode = PipeMode::SCALAR_MODE>
  uint16_t PostMessage(__gm__ CubeMsgType* msg, CubeMsgType& msgInput,
                       normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    return normgrad_ascendc::CubeResGroupPost(
        Group("PostMessage"), queue_, msg, &msgInput, CubeMsgState::VALID,
        pipeMode, "CubeResGroupHandle::PostMessage");
  }

  /// Marks msg FAKE: a message another queue's message stands for.
  uint16_t PostFakeMsg(__gm__ CubeMsgType* msg,
                       normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    return normgrad_ascendc::CubeResGroupPost(
        Group("PostFakeMsg"), queue_, msg, nullptr, CubeMsgState::FAKE,
        PipeMode::SCALAR_MODE, "CubeResGroupHandle::PostFakeMsg");
  }

  /// Marks msg QUIT: the queue posts nothing more.
  void SetQuit(__gm__ CubeMsgType* msg, normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    normgrad_ascendc::CubeResGroupPost(
        Group("SetQuit"), queue_, msg, nullptr, CubeMsgState::QUIT,
        PipeMode::SCALAR_MODE, "CubeResGroupHandle::SetQuit");
  }

  /// Whether the message at `offset` (PostMessage's or PostFakeMsg's
  /// return) of the bound queue has been freed; with `sync`, waits for it.
  template <bool sync = true>
  bool Wait(uint16_t offset, normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    return normgrad_ascendc::CubeResGroupWait(Group("Wait"), queue_, offset,
                                              sync);
  }

  /// In a Call: frees msg (a message of this cube core's queues).
  uint16_t FreeMessage(__gm__ CubeMsgType* msg,
                       normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    return normgrad_ascendc::CubeResGroupFree(Group("FreeMessage"), msg,
                                              CubeMsgState::FREE);
  }
  /// The same once msg is in waitState (VALID or FAKE).
  uint16_t FreeMessage(__gm__ CubeMsgType* msg, CubeMsgState waitState,
                       normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    if (waitState == CubeMsgState::FREE || waitState == CubeMsgState::QUIT) {
      normgrad_ascendc::Fail(
          "CubeResGroupHandle::FreeMessage: waitState %s is not a state to "
          "wait for; pass CubeMsgState::VALID or CubeMsgState::FAKE",
          waitState == CubeMsgState::FREE ? "FREE" : "QUIT");
    }
    return normgrad_ascendc::CubeResGroupFree(Group("FreeMessage"), msg,
                                              waitState);
  }

  /// In a Call: the messages at the same place of the next skipCnt queues
  /// are FAKE stand-ins for this one; the loop passes over them.
  void SetSkipMsg(uint8_t skipCnt, normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    normgrad_ascendc::CubeResGroupSkip(Group("SetSkipMsg"), skipCnt);
  }

 private:
  template <int groupID, class MatmulApiType,
            template <class, class> class CallBack, typename MsgType>
  friend class normgrad_ascendc::CubeResGroupFactory;

  static normgrad_ascendc::CubeResGroupShape Shape(GM_ADDR area,
                                                   uint8_t blockStart,
                                                   uint8_t blockSize,
                                                   uint8_t msgQueueSize,
                                                   int64_t groupId) {
    static_assert(
        std::is_same_v<decltype(CubeMsgType::head), CubeGroupMsgHead>,
        "CubeResGroupHandle: the message type's first member must be a "
        "CubeGroupMsgHead named head");
    return {area,         blockStart,          blockSize,
            msgQueueSize, sizeof(CubeMsgType), offsetof(CubeMsgType, head),
            groupId};
  }
  normgrad_ascendc::CubeResGroupState& Group(const char* member) {
    return normgrad_ascendc::CubeResGroupOf(member, group_);
  }

  normgrad_ascendc::CubeResGroupState* group_ = nullptr;
  int32_t queue_ = -1;  ///< bound by AssignQueue
};

/// Makes the group's handle from the next part of desc. On each of the
/// group's cube cores it then builds a MatmulApiType and a
/// CallBack<MatmulApiType, CubeMsgType>, calls its Init(callBack, mm,
/// tiling), and runs Call(mm, msg, handle) on every message its queues
/// bring until each of them has quit; elsewhere it returns at once.
template <int groupID, class MatmulApiType,
          template <class, class> class CallBack, typename CubeMsgType>
CubeResGroupHandle<CubeMsgType> CreateCubeResGroup(
    KfcWorkspace& desc, uint8_t blockStart, uint8_t blockSize,
    uint8_t msgQueueSize, GM_ADDR tiling,
    normgrad_ascendc::CallSite site = {}) {
  return normgrad_ascendc::CubeResGroupFactory<
      groupID, MatmulApiType, CallBack, CubeMsgType>::Create(desc, blockStart,
                                                             blockSize,
                                                             msgQueueSize,
                                                             tiling, site);
}

}  // namespace AscendC

namespace normgrad_ascendc {

template <int groupID, class MatmulApiType,
          template <class, class> class CallBack, typename CubeMsgType>
class CubeResGroupFactory {
 public:
  static AscendC::CubeResGroupHandle<CubeMsgType> Create(
      AscendC::KfcWorkspace& desc, uint8_t blockStart, uint8_t blockSize,
      uint8_t msgQueueSize, GM_ADDR tiling, const CallSite& site) {
    AscendC::CubeResGroupHandle<CubeMsgType> handle;
    {
      const ApiCall call(site);
      CheckKfcWorkspaceForGroups(desc.manual_);
      handle.group_ =
          CubeResGroupJoin(AscendC::CubeResGroupHandle<CubeMsgType>::Shape(
              desc.next_, blockStart, blockSize, msgQueueSize, groupID));
      desc.gave_groups_ = true;
      desc.next_ += CubeResGroupAreaBytes(msgQueueSize, sizeof(CubeMsgType));
      if (!CubeResGroupServes(handle.group_)) return handle;
    }
    // The group's cube core: the callbacks run as the program's own code
    // (their API calls name their own lines), the loop's steps as this
    // call.
    using Funcs = CallBack<MatmulApiType, CubeMsgType>;
    MatmulApiType mm;
    Funcs funcs{};
    Funcs::Init(funcs, mm, tiling);
    CubeResGroupState& group = *handle.group_;
    while (true) {
      void* msg = nullptr;
      {
        const ApiCall call(site);
        msg = CubeResGroupTake(group);
      }
      if (msg == nullptr) break;
      Funcs::Call(mm, static_cast<__gm__ CubeMsgType*>(msg), handle);
      const ApiCall call(site);
      CubeResGroupCallEnded(group);
    }
    return handle;
  }
};

}  // namespace normgrad_ascendc
