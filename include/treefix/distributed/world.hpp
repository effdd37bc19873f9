#pragma once
// The MPI world a distributed computation runs in: this process's rank, the number of ranks, and
// its rank among the processes of its host (which device it takes). A process not started by an
// MPI launcher (no OMPI_COMM_WORLD_SIZE / PMI_SIZE / PMIX_RANK in its environment) is a world of
// one and never calls MPI, so a plain run stays exactly the single-device program.
//
//   treefix::World world;                 // MPI_Init when launched by mpirun, else size 1
//   treefix::Runtime rt(world.device_spec());   // one device per rank of the host
//   auto total = world.sum(local_count);
//
// Collectives are the few the graph layer needs, on vectors of trivially copyable values. They
// throw Error on an MPI failure. One World per process (MPI is initialised once).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "treefix/core/error.hpp"

namespace treefix {

class World {
 public:
  World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;
  ~World();  // MPI_Finalize when this World initialised MPI

  // Whether the environment says an MPI launcher started this process with more than one rank.
  static bool launched_with_several_ranks();

  int rank() const { return rank_; }
  int size() const { return size_; }
  int local_rank() const { return local_rank_; }
  int local_size() const { return local_size_; }
  bool uses_mpi() const { return uses_mpi_; }

  // The device of this rank: "gpu" devices listed in order, rank `local_rank` taking the
  // (local_rank mod count)-th; with $TREEFIX_DEVICE or `spec` set, that device for every rank.
  std::string device_spec(const std::string& spec = "") const;

  // --- collectives (identities in a world of one) ---------------------------------------------
  std::uint64_t sum(std::uint64_t value) const;
  std::int64_t max(std::int64_t value) const;
  std::int64_t min(std::int64_t value) const;
  double max(double value) const;
  bool any(bool value) const;
  std::uint64_t exclusive_sum(std::uint64_t value) const;  // sum over the ranks before this one
  void sum_in_place(std::vector<std::uint64_t>& values) const;
  void max_in_place(std::vector<double>& values) const;  // element-wise, one reduction
  // Every rank's `bytes` bytes from `send`, concatenated in rank order into `receive` (whose size
  // is the total; `counts` the bytes of each rank).
  void all_gather_bytes(const void* send, std::size_t bytes, void* receive,
                        const std::vector<std::size_t>& counts) const;
  // Bytes exchanged all-to-all: send_counts[r] bytes for rank r, concatenated in rank order;
  // returns the bytes received, in rank order, and their counts in `received_counts`.
  std::vector<char> all_to_all(const char* send, const std::vector<std::size_t>& send_counts,
                               std::vector<std::size_t>& received_counts) const;
  // The same into `received`, resized to the bytes received: a buffer kept between calls is not
  // allocated and its pages not touched again (tens of megabytes per BFS level).
  void all_to_all(const char* send, const std::vector<std::size_t>& send_counts,
                  std::vector<char>& received, std::vector<std::size_t>& received_counts) const;
  // Rank `root` receives every rank's bytes concatenated in rank order (others: empty).
  std::vector<char> gather_bytes(const void* send, std::size_t bytes, int root = 0) const;
  void broadcast_bytes(void* data, std::size_t bytes, int root = 0) const;
  void barrier() const;

  // A failure on one rank made known to all: every rank calls it with its error message (empty:
  // none) and kind; when any rank has one, every rank throws the first (by rank) as that kind
  // (InputError, CapacityError, else Error), so no rank goes on to a collective the failed one
  // never reaches.
  enum class ErrorKind : int { general = 0, input = 1, capacity = 2 };
  void agree_on_error(const std::string& message, ErrorKind kind = ErrorKind::general) const;

 private:
  friend class SharedHostBlock;
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
  bool uses_mpi_ = false, initialised_here_ = false;
  void* local_comm_ = nullptr;
};

// One block of host memory that every rank of a world on a single host maps (an MPI-3 shared
// memory window): each rank writes its part in place and, after publish(), reads every part
// there, where an all-gather would copy each part into every rank's memory and out again.
// Collective: every rank constructs and destroys it together. Empty (data() == nullptr) when the
// ranks span several hosts or the world has no MPI; callers then use the collectives.
class SharedHostBlock {
 public:
  SharedHostBlock(const World& world, std::size_t bytes);
  SharedHostBlock(const SharedHostBlock&) = delete;
  SharedHostBlock& operator=(const SharedHostBlock&) = delete;
  ~SharedHostBlock();

  char* data() const { return data_; }
  // Every rank's writes so far visible to every rank (a memory barrier and an MPI barrier).
  // A rank must not write again until every rank is done reading: a collective in between (the
  // BFS's per-level sum) is enough.
  void publish() const;

 private:
  const World* world_;
  char* data_ = nullptr;
  void* window_ = nullptr;
};

// Runs `step` on every rank; an exception on any rank stops all of them with the same error. `step`
// must not call collectives (a failed rank would never reach them).
template <class F>
void on_every_rank(const World& world, F&& step) {
  std::string message;
  World::ErrorKind kind = World::ErrorKind::general;
  try {
    step();
  } catch (const CapacityError& e) {
    message = e.what(), kind = World::ErrorKind::capacity;
  } catch (const InputError& e) {
    message = e.what(), kind = World::ErrorKind::input;
  } catch (const std::exception& e) {
    message = e.what();
  }
  world.agree_on_error(message, kind);
}

// Typed helpers over the byte collectives.
template <class T>
std::vector<T> all_gather(const World& world, const std::vector<T>& mine) {
  std::vector<std::size_t> counts(world.size());
  std::vector<std::uint64_t> sizes(world.size(), 0);
  sizes[world.rank()] = mine.size();
  world.sum_in_place(sizes);
  std::size_t total = 0;
  for (int r = 0; r < world.size(); ++r) total += counts[r] = sizes[r] * sizeof(T);
  std::vector<T> all(total / sizeof(T));
  world.all_gather_bytes(mine.data(), mine.size() * sizeof(T), all.data(), counts);
  return all;
}

template <class T>
std::vector<T> gather(const World& world, const std::vector<T>& mine, int root = 0) {
  std::vector<char> bytes = world.gather_bytes(mine.data(), mine.size() * sizeof(T), root);
  std::vector<T> all(bytes.size() / sizeof(T));
  if (!bytes.empty()) std::memcpy(all.data(), bytes.data(), bytes.size());
  return all;
}

}  // namespace treefix
