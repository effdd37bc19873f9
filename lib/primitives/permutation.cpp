// A permutation planned once and applied many times (treefix/primitives/permutation.hpp).
#include "treefix/primitives/permutation.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "primitives/primitives_tuning.hpp"
#include "treefix/core/error.hpp"

namespace treefix {

namespace {

unsigned ceil_log2(std::size_t x) {
  unsigned log = 0;
  while ((std::size_t(1) << log) < x) ++log;
  return log;
}

const char* element_option(std::size_t element_bytes) {
  if (element_bytes == 4) return "-DELEM_T=uint";
  if (element_bytes == 8) return "-DELEM_T=ulong";
  throw InputError("permutation: elements of " + std::to_string(element_bytes) + " bytes (4 or 8)");
}

// Chunks of `from` long enough that each holds about 32 elements for every block of `to` (a run
// of 128 bytes or more, whole sectors), within what a ushort offset reaches.
constexpr unsigned kMinChunkLog = 11, kMaxChunkLog = 16, kRunElements = 32;

}  // namespace

DevicePermutation::DevicePermutation(Runtime& runtime, cl::Buffer index, std::size_t n,
                                     Profile* profile)
    : n_(n), index_(std::move(index)) {
  if (n > 0xFFFFFFFFull)
    throw CapacityError("permutation of " + std::to_string(n) + " elements: at most 2^32 - 1");
  const Tuning& tuning = runtime.tuning();
  const std::size_t two_pass_from = tuning[knobs::two_pass_permutation_from];
  if (two_pass_from == 0 || n < two_pass_from) return;
  // Blocks of `to`: their run starts must fit in local memory (4 bytes a block, 1 KB spare).
  const std::size_t local = runtime.description().local_mem_bytes;
  unsigned block_log = tuning[knobs::permutation_block_log];
  auto blocks_of = [&](unsigned log) { return (n + (std::size_t(1) << log) - 1) >> log; };
  while (blocks_of(block_log) * 4 + 1024 > local) ++block_log;
  const std::size_t blocks = blocks_of(block_log);
  if (blocks < 2) return;  // one block: the second pass alone would be the whole gather
  chunk_log_ = std::clamp(ceil_log2(blocks * kRunElements), kMinChunkLog, kMaxChunkLog);
  const std::size_t chunks = (n + (std::size_t(1) << chunk_log_) - 1) >> chunk_log_;

  translate_device_errors("planning a permutation", [&] {
    Kernels permute(runtime, "primitives/permute.cl", element_option(4), {profile, "layout"});
    cl::Buffer inverse = runtime.allocate(n * sizeof(cl_uint), "permutation inverse");
    offset_ = runtime.allocate(n * sizeof(cl_ushort), "permutation offsets");
    second_ = runtime.allocate(n * sizeof(cl_uint), "permutation second pass");
    permute.run("permutation_invert", permute.items(n), index_, cl_uint(n), inverse);
    permute.run("permutation_plan", permute.groups(chunks), inverse, cl_uint(n),
                cl_uint(chunk_log_), cl_uint(block_log), cl_uint(blocks), offset_, second_,
                LocalBytes{blocks * sizeof(cl_uint)});
  });
  index_ = cl::Buffer();  // the plan replaces it
}

void DevicePermutation::apply(Runtime& runtime, const cl::Buffer& from, const cl::Buffer& to,
                              std::size_t element_bytes, const Phase& phase) const {
  if (n_ == 0) return;
  Kernels permute(runtime, "primitives/permute.cl", element_option(element_bytes), phase);
  if (!two_pass()) {
    permute.run("permute_gather", permute.items(n_), from, index_, cl_uint(n_), to);
    return;
  }
  cl::Buffer& regrouped = runtime.scratch("permutation.regrouped", n_ * element_bytes);
  permute.run("permute_in_chunks", permute.items(n_), from, offset_, cl_uint(n_),
              cl_uint(chunk_log_), regrouped);
  permute.run("permute_gather", permute.items(n_), regrouped, second_, cl_uint(n_), to);
}

}  // namespace treefix
