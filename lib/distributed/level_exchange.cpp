// What the BFS's levels exchange: a top-down level's pairs sent to their owners, a bottom-up
// level's frontier bitmap (distributed/level_exchange.hpp).
#include "distributed/level_exchange.hpp"

#include <algorithm>

#include "treefix/core/host_memory.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/graph/detail/arc_buckets.hpp"

namespace treefix::detail {

namespace {

// A device array grown (never shrunk) to hold at least `count` values.
template <class T>
void reserve(Runtime& runtime, DeviceArray<T>& array, std::size_t count, const char* what) {
  if (array.size() < count || array.buffer()() == nullptr)
    array = DeviceArray<T>(runtime, std::max<std::size_t>(count, array.size() * 2), what);
}

}  // namespace

void LevelExchange::pack(const World& world, Runtime& runtime, const VertexPartition& partition,
                         const DeviceArray<cl_int2>& sent, std::size_t count, cl_int2* out,
                         std::vector<std::size_t>& at, Profile* profile) {
  const std::size_t ranks = static_cast<std::size_t>(world.size());
  if (ranks == 2) {  // every pair goes to the other rank: read straight into place
    if (count) sent.read_into(runtime, out, count, 0, profile);
    const std::size_t to_rank_0 = world.rank() == 1 ? count : 0;
    at = {0, to_rank_0, count};
    return;
  }
  unpacked_.resize(count);
  if (count) sent.read_into(runtime, unpacked_.data(), count, 0, profile);
  const Ranges pieces(count, host_threads() * 2, 1 << 16);
  const auto owner = [&](const cl_int2& pair) { return partition.owner(pair.s[0]); };
  const auto each_pair = [&](std::size_t piece, auto&& visit) {
    for (std::size_t i = pieces.begin(piece); i < pieces.end(piece); ++i) visit(unpacked_[i]);
  };
  const Buckets<cl_int2, decltype(owner), decltype(each_pair)> grouped(pieces, ranks, owner,
                                                                       each_pair);
  grouped.scatter(out);
  at = grouped.start();
}

bool LevelExchange::make_room(const World& world, std::size_t needed, std::size_t pairs_bound) {
  if (needed <= segment_bytes_) return true;
  const std::size_t ranks = static_cast<std::size_t>(world.size());
  const std::size_t header_bytes = (ranks + 1) * sizeof(std::uint64_t);
  // At most 256 MiB a rank up front (shared memory is often limited); more as levels need.
  const std::size_t first_size =
      segment_bytes_ ? 0
                     : header_bytes + std::min<std::size_t>(pairs_bound, std::size_t(1) << 25) *
                                          sizeof(cl_int2);
  segment_bytes_ = std::max({needed, 2 * segment_bytes_, first_size, std::size_t(1) << 16});
  shared_pairs_.reset();  // collective, as is the new block
  shared_pairs_ = std::make_unique<SharedHostBlock>(world, segment_bytes_ * ranks);
  through_mpi_ = shared_pairs_->data() == nullptr;
  // This rank writes its segment and reads every other: all pages mapped now.
  if (!through_mpi_) prefault_for_writing(shared_pairs_->data(), segment_bytes_ * ranks);
  return !through_mpi_;
}

std::size_t LevelExchange::exchange_pairs(const World& world, Runtime& runtime,
                                          const VertexPartition& partition,
                                          const DeviceArray<cl_int2>& sent, std::size_t count,
                                          std::size_t pairs_bound, DeviceArray<cl_int2>& received,
                                          Profile* profile) {
  const std::size_t ranks = static_cast<std::size_t>(world.size());
  const std::size_t me = static_cast<std::size_t>(world.rank());
  const std::size_t header_bytes = (ranks + 1) * sizeof(std::uint64_t);
  std::vector<std::size_t> at;
  if (through_mpi_ ||
      !make_room(
          world,
          header_bytes + static_cast<std::size_t>(world.max(std::int64_t(count))) * sizeof(cl_int2),
          pairs_bound)) {
    packed_.resize(count);
    pack(world, runtime, partition, sent, count, packed_.data(), at, profile);
    std::vector<std::size_t> send_bytes(ranks), received_bytes;
    for (std::size_t r = 0; r < ranks; ++r) send_bytes[r] = (at[r + 1] - at[r]) * sizeof(cl_int2);
    world.all_to_all(reinterpret_cast<const char*>(packed_.data()), send_bytes, incoming_,
                     received_bytes);
    const std::size_t arrived = incoming_.size() / sizeof(cl_int2);
    reserve(runtime, received, std::max<std::size_t>(arrived, 1), "BFS pairs in");
    if (arrived)
      received.write_from(runtime, reinterpret_cast<const cl_int2*>(incoming_.data()), arrived, 0,
                          profile);
    return arrived;
  }
  char* const block = shared_pairs_->data();
  auto segment_at = [&](std::size_t r) {
    return reinterpret_cast<std::uint64_t*>(block + r * segment_bytes_);
  };
  auto segment_pairs = [&](std::size_t r) {
    return reinterpret_cast<cl_int2*>(block + r * segment_bytes_ + header_bytes);
  };
  pack(world, runtime, partition, sent, count, segment_pairs(me), at, profile);
  std::copy(at.begin(), at.end(), segment_at(me));
  shared_pairs_->publish();
  // This rank's group from every segment, one upload. No rank writes its segment again before
  // the level's closing sum, which it enters only after this upload has read the groups.
  std::vector<HostPiece> pieces;
  std::size_t arrived = 0;
  for (std::size_t r = 0; r < ranks; ++r) {
    const std::uint64_t* their_at = segment_at(r);
    const std::size_t size = their_at[me + 1] - their_at[me];
    if (size) pieces.push_back({segment_pairs(r) + their_at[me], size * sizeof(cl_int2)});
    arrived += size;
  }
  reserve(runtime, received, std::max<std::size_t>(arrived, 1), "BFS pairs in");
  if (arrived) write_buffer_gather(runtime, received.buffer(), pieces, profile);
  return arrived;
}

char* LevelExchange::frontier_bits(const World& world, std::size_t bytes, bool& shared) {
  if (!shared_bits_) {
    // Ranks on one host meet in one shared block; across hosts each rank gathers a copy.
    shared_bits_ = std::make_unique<SharedHostBlock>(world, bytes);
    if (!shared_bits_->data()) own_bits_ = prefaulted_vector<cl_uint>((bytes + 3) / 4);
  }
  shared = shared_bits_->data() != nullptr;
  return shared ? shared_bits_->data() : reinterpret_cast<char*>(own_bits_.data());
}

void LevelExchange::publish_frontier_bits() const { shared_bits_->publish(); }

}  // namespace treefix::detail
