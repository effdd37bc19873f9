#pragma once
// Internal to the distributed module: what the BFS's levels exchange (bfs.cpp), and the buffers
// for it kept from search to search. A top-down level's (target, parent) pairs go to their
// targets' owners through one block of host memory shared by the ranks of one host, or through
// MPI's all-to-all between hosts; either way the pairs are read back from the device and packed,
// grouped by owner, by one step (pack), and with two ranks every pair goes to the other one and
// is read straight into place. A bottom-up level's frontier bitmap meets in a shared block too,
// or is all-gathered.
#include <cstddef>
#include <memory>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/distributed/world.hpp"
#include "treefix/graph/partitioned_graph.hpp"

namespace treefix::detail {

class LevelExchange {
 public:
  // The `count` pairs of a level (in `sent` on this rank's device) to their owners; returns how
  // many arrived, uploaded to `received` (grown as needed). `pairs_bound`: the most pairs a rank
  // sends in one level as far as the direction rule knows (the same on every rank), which sizes
  // the shared block up front. Collective.
  std::size_t exchange_pairs(const World& world, Runtime& runtime, const VertexPartition& partition,
                             const DeviceArray<cl_int2>& sent, std::size_t count,
                             std::size_t pairs_bound, DeviceArray<cl_int2>& received,
                             Profile* profile);

  // The bottom-up levels' host copy of the frontier bitmap (`bytes` bytes): one block shared by
  // the ranks of a host, else this rank's own copy, which the caller all-gathers (`shared`
  // false). Made at the first call (MPI's shared window costs milliseconds to set up).
  char* frontier_bits(const World& world, std::size_t bytes, bool& shared);
  void publish_frontier_bits() const;

  // The bottom-up levels' whole frontier bitmap on the device, made at the first of them, and the
  // rank's rows of more than kWorkGroupRowArcs arcs (counted then; -1 before).
  DeviceArray<cl_uint> device_bits;
  std::int64_t heavy_rows = -1;

 private:
  // The pairs read back and grouped by owner into `out` (room for count): pairs
  // out[at[r] .. at[r + 1]) go to rank r.
  void pack(const World& world, Runtime& runtime, const VertexPartition& partition,
            const DeviceArray<cl_int2>& sent, std::size_t count, cl_int2* out,
            std::vector<std::size_t>& at, Profile* profile);
  // The shared block made large enough for every rank's segment of `needed` bytes (collective);
  // false when the ranks share no memory (several hosts, or TREEFIX_MPI_SHARED=off), after which
  // the pairs always go through MPI.
  bool make_room(const World& world, std::size_t needed, std::size_t pairs_bound);

  // Each rank's pairs in its own segment of one shared block, behind a header of where each
  // owner's group starts; receivers upload their groups from there. MPI's copies between
  // processes cost more than the pairs' two DMAs (a level's pairs reach tens of megabytes).
  // Grown, never shrunk; its pages mapped up front (a new block, mapped at first touch, cost a
  // search milliseconds).
  std::unique_ptr<SharedHostBlock> shared_pairs_;
  std::size_t segment_bytes_ = 0;
  bool through_mpi_ = false;
  std::vector<cl_int2> unpacked_, packed_;  // through MPI: read back, grouped by owner
  std::vector<char> incoming_;
  std::unique_ptr<SharedHostBlock> shared_bits_;
  std::vector<cl_uint> own_bits_;
};

}  // namespace treefix::detail
