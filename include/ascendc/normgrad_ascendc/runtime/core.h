// normgrad_ascendc/runtime/core.h — the emulated AI core and kernel-side
// errors.
//
// A Core is one AI core as a kernel sees it: its own unified buffer (UB) of
// the profile's size, 32-byte aligned; its block index and block count; and
// the TPipe that owns the UB's allocations. Its profile is the process
// profile (profile.h), fixed from a TPipe's creation to its end. Each host
// thread has a current core: the one a launcher installed with ScopedCore,
// else a default core of the thread (block 0 of 1), created at first use.
//
// Errors. Every kernel-side rule violation (a documented rule of an API that
// the kernel broke) calls Fail, which throws KernelError carrying a message
// that names the API, the argument, the value and the rule, e.g.
//   "LayerNormGradBeta: outputPdGamma length 12 floats (48 bytes) is not a
//    multiple of 32 bytes".
// The exception unwinds the kernel (stopping it, as a device exception would)
// up to whoever runs it: a launcher catches KernelError per block and prints
// "normgrad: kernel <name> block <i>/<n>: <what()>"; tests observe it with
// EXPECT_THROW. Nothing else in normgrad_ascendc throws on the success path.
//
// Call sites. Every kernel API takes a last, defaulted `CallSite site = {}`
// argument, which the compiler fills with the caller's file and line (the
// user's .asc file and line: normgrad-cc keeps them with #line), and opens an
// ApiCall with it. The outermost ApiCall on a thread is the user's call (an
// API calling another keeps the user's site); while it is open, Fail prefixes
// the message with "<file>:<line>: ".
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <stdexcept>

#include "normgrad_ascendc/runtime/position.h"
#include "normgrad_ascendc/runtime/profile.h"
#include "normgrad_ascendc/vector/vector_mask.h"

namespace AscendC {
class TPipe;
}  // namespace AscendC

namespace normgrad_ascendc {

/// A kernel-side error: the kernel cannot go on. what() is the message.
class KernelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Formats a message (printf-style), prefixes the open call site's file and
/// line, and throws KernelError with it: the one way kernel-side code reports
/// an error.
[[noreturn]] void Fail(const char* format, ...)
    __attribute__((format(printf, 1, 2)));

/// Joins `pieces` into `out` (cut to fit, always terminated): an API's name
/// as its messages give it, made on every call, so without printf.
void JoinName(char* out, size_t size,
              std::initializer_list<const char*> pieces);

/// The file and line of a call: as a defaulted parameter, the caller's.
struct CallSite {
  constexpr CallSite(const char* file_name = __builtin_FILE(),
                     unsigned line_number = __builtin_LINE())
      : file(file_name), line(line_number) {}
  const char* file;
  unsigned line;
};

/// The call of a kernel API from `site`, for the scope's duration; see the
/// file comment. Not copyable; one per API entry.
class ApiCall {
 public:
  explicit ApiCall(const CallSite& site);
  ~ApiCall();
  ApiCall(const ApiCall&) = delete;
  ApiCall& operator=(const ApiCall&) = delete;

 private:
  bool outermost_;
};

/// The call site of the outermost open ApiCall on this thread, or null.
const CallSite* CurrentCallSite();

/// How many ApiCalls are open on this thread: 1 in the user's call, more
/// where an API calls another (the init check looks at the user's reads).
int ApiCallDepth();

/// A thread's outermost API call as another thread may read it (the report
/// of a launch interrupted or out of time): the last call's file (null before
/// the first) and line, and whether it is still open. Relaxed atomics: a
/// reader may see a file with the line of the next call, never a bad
/// pointer (file names are string literals).
struct ApiCallTrace {
  std::atomic<const char*> file{nullptr};
  std::atomic<unsigned> line{0};
  std::atomic<bool> open{false};
};

/// The calling thread's trace.
const ApiCallTrace& ThisThreadApiCalls();

/// What the last merge (MrgSort, MrgSort4) of a core left for
/// GetMrgSortResult (vector_sort.h): which merge, whether it ran with
/// ifExhaustedSuspension, and the structures it took from each list.
struct MergeRecord {
  const char* api = nullptr;  ///< null: no merge since the block started
  bool suspension = false;
  uint16_t consumed[4] = {0, 0, 0, 0};
};

/// The extreme register: what the last WholeReduceMax/Min (ReduceRepeat
/// with MAX or MIN; the C API's asc_repeat_reduce_max/min) found over all
/// its repeats, or the result of the last ReduceMax/ReduceMin of half or
/// float. asc_get_reduce_max_cnt/min_cnt and GetReduceRepeatMaxMinSpr read
/// it: which reduction left it, its element size, whether any lane was
/// selected, the value's bits and its position (repeat · lanes + lane, the
/// earliest of equal extremes; for ReduceMax/ReduceMin the index it wrote
/// with calIndex, else 0).
struct ReduceExtremeRegister {
  enum class Op : uint8_t { kNone, kMax, kMin };
  Op op = Op::kNone;
  uint8_t value_bytes = 0;
  bool has = false;
  uint64_t value_bits = 0;
  uint64_t index = 0;
};

/// The registers only the C API reaches (docs/capi.md): the inter-core
/// sync base address (asc_set_ffts_base_addr), the counters of
/// asc_sync_block_* and asc_sync_subblock_* per flag id, the count
/// asc_reduce left (asc_get_rsvd_count), and the address registers VA0..VA7
/// of asc_set_va_reg (8 UB byte offsets each; bit n of va_set: VAn was
/// set). Reset when a block starts.
struct CapiRegisters {
  uint64_t ffts_base = 0;
  uint8_t block_flags[16] = {};
  uint8_t subblock_flags[16] = {};
  int64_t rsvd_count = 0;
  uint32_t va[8][8] = {};
  uint8_t va_set = 0;
  /// The 950's MTE2_NZ_PARA (asc_set_gm2l1_nz_para), which the C API's ND2NZ
  /// and DN2NZ copies into L1 read; nz_para_set: set in this block.
  bool nz_para_set = false;
  uint64_t nz_para = 0;
  /// The 950's GM -> L1 loops and pad value, which asc_copy_gm2l1_align
  /// reads (asc_set_gm2l1_loop_size, _loop1_stride, _loop2_stride, _pad):
  /// sizes 0 or unset run a loop once; strides in bytes.
  uint32_t gm2l1_loop_size[2] = {};
  uint64_t gm2l1_loop_src_stride[2] = {};
  uint64_t gm2l1_loop_dst_stride[2] = {};
  bool gm2l1_pad_set = false;
  uint32_t gm2l1_pad = 0;
  /// The 950's NZ2ND matrices (asc_set_l0c2gm_nz2nd), which its copies out
  /// of L0C read with nz2nd_en: the count, the source stride in 16-value
  /// rows of L0C, the destination stride in elements. Unset: one matrix.
  bool l0c_nz2nd_set = false;
  uint16_t l0c_nd_num = 1;
  uint16_t l0c_src_nd_stride = 0;
  uint32_t l0c_dst_nd_stride = 0;
};

/// The cube core's fixpipe registers (cube/cube_api.h), which DataCopy L0C
/// -> GM reads: the scalar quantization parameter (SetFixpipePreQuantFlag),
/// the per-column parameters' bytes in the fixpipe buffer (SetFixPipeConfig)
/// and the NZ2ND setting (SetFixpipeNz2ndFlag). Unset when a block starts.
struct FixpipeRegisters {
  bool quant_set = false;
  uint64_t quant_pre = 0;
  bool config_set = false;
  uint32_t config_offset = 0;  ///< bytes into the fixpipe buffer
  uint32_t config_bytes = 0;
  bool nz2nd_set = false;
  uint16_t nd_num = 1;
  uint16_t src_nd_stride = 0;
  uint16_t dst_nd_stride = 0;
  /// The C API's unit-flag setting (asc_set_l0c2gm_config), read back by
  /// asc_get_l0c2gm_unitflag; it changes nothing on the CPU.
  bool unit_flag = false;
};

/// The cube core's img2col registers (cube/cube_img2col.h), which LoadData 3D
/// reads: the feature map's shape and padding (SetFmatrix, or a LoadData whose
/// IsResetLoad3dConfig sets them), the pad value (SetLoadDataPaddingValue, or
/// LoadData), the L1 boundary (SetLoadDataBoundary) and the repeat
/// (SetLoadDataRepeat). Unset when a block starts.
struct Img2colRegisters {
  bool fmatrix_set = false;
  uint16_t l1_h = 0;
  uint16_t l1_w = 0;
  uint8_t pad_list[4] = {};  ///< left, right, top, bottom
  bool pad_set = false;
  uint32_t pad_bits = 0;   ///< the pad value's bytes
  uint32_t pad_width = 0;  ///< the pad value's type's bits
  const char* pad_type = "";
  bool boundary_set = false;
  uint32_t boundary = 0;  ///< bytes; 0: the whole L1
  bool repeat_set = false;
  uint16_t repeat_stride = 0;
  uint8_t repeat_time = 1;
  uint8_t repeat_mode = 0;
  uint16_t dst_stride = 0;  ///< the 950's: fractals between L0A's columns
};

/// The cube core's Mmad modes (cube/cube_mmad_modes.h): HF32 on or off and
/// its rounding (0: ties to even, 1: ties away from zero). A block starts
/// with HF32 off and ties to even.
struct MmadModes {
  bool hf32 = false;
  uint8_t hf32_trans = 0;
  /// How Mmad reads 8-bit float operands on the 950 (cube/cube_mx.h:
  /// asc_enable_hif8, asc_enable_fp8): each as its type until either is
  /// called.
  enum class Float8Mode : uint8_t { kAsTyped, kHif8, kFp8 };
  Float8Mode float8 = Float8Mode::kAsTyped;
};

/// The 950 cube core's MX scale buffers (cube/cube_mx.h): L0A_MX and L0B_MX,
/// 4 KiB each, addressed as L0A's and L0B's byte address / 16; the MX form
/// of LoadData fills them in 32-byte fractals and MmadMx reads them. A block
/// starts with no fractal loaded (MmadMx refuses one that is not, so the
/// bytes need no clearing).
struct MxScaleBuffers {
  static constexpr uint32_t kBytes = 4096;
  static constexpr uint32_t kFractalBytes = 32;
  static constexpr uint32_t kFractals = kBytes / kFractalBytes;
  uint64_t loaded[2][kFractals / 64] = {};  ///< [0]: L0A_MX, [1]: L0B_MX
  /// Both buffers, L0A_MX first, allocated by the first move.
  std::unique_ptr<uint8_t[]> bytes;

  /// `side`'s buffer (0: L0A_MX, 1: L0B_MX), allocated on first use.
  uint8_t* buffer(int side) {
    if (!bytes) bytes.reset(new uint8_t[2 * kBytes]());
    return bytes.get() + side * kBytes;
  }
  bool IsLoaded(int side, uint32_t fractal) const {
    return (loaded[side][fractal / 64] >> (fractal % 64) & 1u) != 0;
  }
  void MarkLoaded(int side, uint32_t fractal) {
    loaded[side][fractal / 64] |= uint64_t{1} << (fractal % 64);
  }
  void Reset() {
    for (auto& side : loaded) {
      for (uint64_t& word : side) word = 0;
    }
  }
};

/// The cube core's sparse index buffer (cube/cube_sparse.h): the 2-bit
/// indices LoadDataWithSparse moves beside the L0B fractals it fills, 128
/// bytes for each 512-byte L0B fractal (a quarter of L0B), which
/// MmadWithSparse reads for its filter's fractals. A block starts with no
/// fractal's index loaded.
struct SparseIndexBuffer {
  static constexpr uint32_t kFractals = 128;  ///< L0B's 64 KiB in fractals
  static constexpr uint32_t kFractalBytes = 128;
  uint64_t loaded[kFractals / 64] = {};  ///< bit f: fractal f's index
  /// kFractals x kFractalBytes, allocated by the first LoadDataWithSparse.
  std::unique_ptr<uint8_t[]> bytes;

  bool IsLoaded(uint32_t fractal) const {
    return (loaded[fractal / 64] >> (fractal % 64) & 1u) != 0;
  }
  void MarkLoaded(uint32_t fractal) {
    loaded[fractal / 64] |= uint64_t{1} << (fractal % 64);
  }
  void Reset() {
    for (uint64_t& word : loaded) word = 0;
  }
};

/// L0C's unit flags (cube/cube_unit_flag.cc): one per 512-byte block, which
/// Mmad and Fixpipe with unitFlag 2 or 3 wait on and change, with the call
/// that last changed each (for the report of a wait that cannot end). All 0
/// when a block starts and after SetFixPipeConfig with isUnitFlag.
struct L0cUnitFlags {
  static constexpr uint32_t kBlockBytes = 512;
  static constexpr uint32_t kBlocks = 256;  ///< L0C's 128 KiB in blocks
  struct Block {
    bool set = false;
    const char* by = nullptr;  ///< the instruction's name; null: none
    const char* file = nullptr;
    unsigned line = 0;
  };
  Block blocks[kBlocks];
  void Reset() {
    for (Block& block : blocks) block = Block();
  }
};

/// The cube core's AIPP registers (cube/cube_aipp.h): the source image and
/// the preprocessing SetAippFunctions set, which LoadImageToLocal reads.
/// Unset when a block starts.
struct AippRegisters {
  bool set = false;
  uint8_t format = 0;  ///< AscendC::AippInputFormat
  const char* out_type = "";
  uint32_t out_bytes = 0;  ///< 1: int8_t, 2: half
  struct Image {
    const uint8_t* data = nullptr;
    uint64_t elems = 0;  ///< the GlobalTensor's size (when sized)
    bool sized = false;
    const void* base = nullptr;  ///< SetGlobalBuffer's address
  } src0, src1;
  uint32_t padding_mode = 0;
  uint16_t padding_value[4] = {};  ///< the output type's bits, channels 0..3
  bool swap_rb = false;
  bool swap_uv = false;
  bool swap_ax = false;
  bool single_line = false;
  uint8_t dtc_mean[3] = {};
  uint16_t dtc_min[3] = {};  ///< half bits
  uint16_t dtc_var[3] = {};  ///< half bits
  uint32_t c_padding_mode = 0;
  uint16_t c_padding_value = 0;  ///< the output type's bits
  bool csc = false;
  int16_t csc_matrix[9] = {};  ///< row major
  uint8_t csc_bias_in[3] = {};
  uint8_t csc_bias_out[3] = {};
};

/// The sum the last ReduceSum of half or float left for GetReduceRepeatSumSpr
/// (vector_reduce.h), in the bits of its type; 0 when a block starts.
struct ReduceSpr {
  uint64_t sum = 0;
};

/// One emulated AI core. Not copyable; used by one thread at a time.
/// Where a core sits in its launch. Outside mixed cube-and-vector launches
/// (KERNEL_TYPE_MIX_AIC_1_1 / _1_2, __mix__(1, 1) / (1, 2)) every block is
/// a core of its own: sub-block 0 of 1, ratio 1. In a mixed launch of
/// numBlocks logical AI Cores with `ratio` vector cores each, a cube core
/// is sub-block 0 of 1 with ratio 1, and vector core v (0 ..
/// ratio · numBlocks − 1) belongs to AI Core v / ratio as sub-block
/// v % ratio of `ratio`, with task ratio `ratio` (docs/cube.md, "Cube
/// cores").
struct CoreRole {
  bool cube = false;
  bool mixed = false;
  int64_t sub_block_idx = 0;
  int64_t sub_block_num = 1;
  int64_t task_ratio = 1;
};

class Core {
 public:
  /// A core with a zeroed UB, block 0 of 1.
  Core();
  ~Core();
  Core(const Core&) = delete;
  Core& operator=(const Core&) = delete;

  /// The first byte of the UB (kMaxUbBytes reserved, ub_size() in use).
  uint8_t* ub() const { return ub_; }
  /// The profile taken when the TPipe was created; without a TPipe, the
  /// process profile.
  const ProfileInfo& profile() const {
    return pipe_ != nullptr ? *profile_ : GetProfileInfo(CurrentProfile());
  }
  uint32_t ub_size() const { return profile().ub_bytes; }
  /// Where the pipe's buffers and the framework scratch end (profile.h).
  uint32_t scratch_end() const { return profile().scratch_end; }

  int64_t block_idx() const { return block_idx_; }
  int64_t block_num() const { return block_num_; }
  /// Sets the block index and count and resets the block's state (the mask
  /// register, DEQSCALE, the comparison-result register, the CTRL register,
  /// AR, the reductions' registers, the merge record, the C API's
  /// registers, the reduction extreme, the fixpipe registers): a launcher,
  /// before running a block.
  /// On the calling thread's current core it also sets block_idx and
  /// block_num (sys_var.h). `role` places the core in a mixed
  /// cube-and-vector launch (CoreRole); idx may then reach num · ratio.
  void SetBlock(int64_t idx, int64_t num, const CoreRole& role = {});
  /// The core's place in its launch (sub_block.h: GetSubBlockIdx,
  /// GetSubBlockNum, GetTaskRatio).
  const CoreRole& role() const { return role_; }

  /// The vector unit's mask register (vector_unit.h).
  VectorMask& vector_mask() { return vector_mask_; }
  /// The lists the last merge consumed (vector_sort.h).
  MergeRecord& merge_record() { return merge_record_; }
  /// The vector unit's DEQSCALE register (vector_convert.h); a block starts
  /// with the half value 1.0 in it.
  uint64_t& deq_scale() { return deq_scale_; }
  static constexpr uint64_t kDeqScaleReset = 0x3C00;
  /// The vector unit's comparison-result register (vector_select.h).
  CmpMaskRegister& cmp_mask() { return cmp_mask_; }
  /// The CTRL register (ctrl_spr.h); a block starts with the profile's
  /// default in it.
  uint64_t& ctrl() { return ctrl_; }
  /// The C API's own registers (CapiRegisters).
  CapiRegisters& capi() { return capi_; }
  /// The extreme of the last whole-repeat max / min reduction.
  ReduceExtremeRegister& reduce_extreme() { return reduce_extreme_; }
  /// The special-purpose register AR (system_query.h: GetSpr, ClearSpr); a
  /// block starts with 0 in it.
  int64_t& spr_ar() { return spr_ar_; }
  /// The core's SSBuffer (system_query.h: GetSsbufBaseAddr), 32-byte
  /// aligned; its bytes are not cleared between blocks, as on the device.
  static constexpr uint32_t kSsbufBytes = 1024;
  uint8_t* ssbuf() { return ssbuf_; }
  /// The sum GetReduceRepeatSumSpr reads (vector_reduce.h).
  ReduceSpr& reduce_spr() { return reduce_spr_; }
  /// The fixpipe's registers (FixpipeRegisters).
  FixpipeRegisters& fixpipe_registers() { return fixpipe_registers_; }
  /// The img2col registers (Img2colRegisters).
  Img2colRegisters& img2col_registers() { return img2col_registers_; }
  /// The Mmad modes (MmadModes).
  MmadModes& mmad_modes() { return mmad_modes_; }
  /// The sparse index buffer (SparseIndexBuffer).
  SparseIndexBuffer& sparse_index() { return sparse_index_; }
  /// The MX scale buffers (MxScaleBuffers).
  MxScaleBuffers& mx_scales() { return mx_scales_; }
  /// L0C's unit flags (L0cUnitFlags).
  L0cUnitFlags& unit_flags() { return unit_flags_; }
  /// The AIPP registers (AippRegisters).
  AippRegisters& aipp_registers() { return aipp_registers_; }

  /// Records that the UB's bytes [0, end) are in use: a pipe's buffers or
  /// the framework scratch, everything a kernel can reach.
  void Touch(uint32_t end) {
    if (end > touched_) touched_ = end;
  }
  /// The end of what Touch recorded since the last ZeroTouched.
  uint32_t touched() const { return touched_; }
  /// Zeroes the bytes Touch recorded since the last call (a launcher, after
  /// each block, so that every block starts on a zeroed UB).
  void ZeroTouched();

  /// Whether the core runs as a cube core (AIC): a __cube__ or
  /// KERNEL_TYPE_AIC_ONLY kernel, or the cube side of a mixed one
  /// (cube/cube_memory.h). SetBlock makes a block start as its role says
  /// (a vector core outside mixed launches). On the calling thread's
  /// current core set_cube also sets g_coreType (sys_var.h).
  bool is_cube() const { return role_.cube; }
  void set_cube(bool cube);
  /// The first byte of a cube memory (its largest size over the profiles
  /// reserved, zeroed), allocated at the first call.
  uint8_t* cube_memory(CubeMemory memory);
  /// Records that a cube memory's bytes [0, end) are in use (as Touch).
  void TouchCube(CubeMemory memory, uint32_t end) {
    uint32_t& touched = cube_touched_[static_cast<uint32_t>(memory)];
    if (end > touched) touched = end;
  }

  /// The TPipe alive on this core, or null.
  AscendC::TPipe* pipe() const { return pipe_; }
  /// Called by TPipe's constructor and TPipe::Init: one TPipe per core at a
  /// time (a second is a KernelError; TPipe::Destroy makes room for the
  /// next). The core's profile is fixed until DetachPipe.
  void AttachPipe(AscendC::TPipe* pipe);
  /// Called by TPipe's destructor and TPipe::Destroy.
  void DetachPipe(const AscendC::TPipe* pipe);

 private:
  uint8_t* ub_;
  const ProfileInfo* profile_ = nullptr;  ///< while pipe_ is set
  int64_t block_idx_ = 0;
  int64_t block_num_ = 1;
  AscendC::TPipe* pipe_ = nullptr;
  uint32_t touched_ = 0;  ///< see Touch
  VectorMask vector_mask_;
  MergeRecord merge_record_;
  uint64_t deq_scale_ = kDeqScaleReset;
  CmpMaskRegister cmp_mask_;
  uint64_t ctrl_ = 0;
  CapiRegisters capi_;
  ReduceExtremeRegister reduce_extreme_;
  int64_t spr_ar_ = 0;
  ReduceSpr reduce_spr_;
  FixpipeRegisters fixpipe_registers_;
  Img2colRegisters img2col_registers_;
  MmadModes mmad_modes_;
  SparseIndexBuffer sparse_index_;
  MxScaleBuffers mx_scales_;
  L0cUnitFlags unit_flags_;
  AippRegisters aipp_registers_;
  alignas(32) uint8_t ssbuf_[kSsbufBytes] = {};
  CoreRole role_;
  uint8_t* cube_memory_[kCubeMemoryCount] = {};
  uint32_t cube_touched_[kCubeMemoryCount] = {};
};

/// This thread's current core.
Core& CurrentCore();

/// Whether the current core runs the Ascend 950 profile: the one question
/// every API asks whose rules, layouts or units differ there from Atlas
/// A2/A3's.
inline bool OnProfile950() {
  return CurrentCore().profile().profile == Profile::k950;
}

/// Makes a core the calling thread's current core until the end of the scope
/// (launchers: one per block), with block_idx and block_num (sys_var.h) its
/// block's. Restores the previous one afterwards.
class ScopedCore {
 public:
  explicit ScopedCore(Core& core);
  ~ScopedCore();
  ScopedCore(const ScopedCore&) = delete;
  ScopedCore& operator=(const ScopedCore&) = delete;

 private:
  Core* previous_;
};

}  // namespace normgrad_ascendc

namespace AscendC {

/// The index of the block running on the current core, 0 … GetBlockNum()-1.
inline int64_t GetBlockIdx() {
  return normgrad_ascendc::CurrentCore().block_idx();
}
/// The number of blocks of the running launch.
inline int64_t GetBlockNum() {
  return normgrad_ascendc::CurrentCore().block_num();
}

}  // namespace AscendC
