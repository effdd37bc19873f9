// The tuning rows of host <-> device copies (transfer.cpp).
#include "core/transfer_tuning.hpp"

namespace treefix::knobs {

// Copies of large arrays through page-locked (pinned) staging memory (CL_MEM_ALLOC_HOST_PTR,
// double-buffered) instead of straight from pageable memory. Pinned DMA is about twice as fast
// on a discrete GPU: 32-35 GB/s against 8-11 GB/s pageable on the H100 (`treefix-bench pipeline`,
// its transfers table); on a CPU device it only adds a copy.
const Knob<bool> pinned_transfers = declare<bool>(
    TuningRow("core", "pinned_transfers", "how large host <-> device copies are staged")
        .env("TREEFIX_TRANSFERS")
        .switch_words("pinned", "pageable")
        .defaults(0, 0)
        .measured_on("nvidia", 1));
// Below this a direct copy wins: no staging copy, one DMA.
const Knob<std::size_t> pinned_transfers_from = declare<std::size_t>(
    TuningRow("core", "pinned_transfers_from", "bytes from which a copy is staged, when pinned")
        .defaults(std::size_t(1) << 20, std::size_t(1) << 20)
        .range(0, std::size_t(1) << 40));
// Large enough that a DMA's fixed cost (~10 us) is small next to it, small enough that the first
// copy into staging, which nothing overlaps, is short.
const Knob<std::size_t> staging_chunk_bytes = declare<std::size_t>(
    TuningRow("core", "staging_chunk_bytes", "bytes of each of the two pinned staging buffers")
        .defaults(std::size_t(8) << 20, std::size_t(8) << 20)
        .range(4096, std::size_t(1) << 32));

}  // namespace treefix::knobs
