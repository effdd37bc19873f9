// The MPI world (distributed/world.hpp). Every collective of more than a few values moves bytes
// in messages of at most kChunkBytes, because MPI counts are int: a rank's share of a graph
// passes 2^31 bytes from scale 28 on.
#include "treefix/distributed/world.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdlib>

#include "treefix/core/environment.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/runtime.hpp"

namespace treefix {

namespace {

constexpr std::size_t kChunkBytes = std::size_t(1) << 30;

void check(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw Error(std::string("MPI ") + what + " failed: " + std::string(text, length));
}

int env_int(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::atoi(value) : 0;
}

MPI_Comm local(void* comm) { return static_cast<MPI_Comm>(comm); }

// Messages of at most kChunkBytes between two ranks, matched by tag order.
void send_chunks(const char* data, std::size_t bytes, int to, std::vector<MPI_Request>& pending) {
  for (std::size_t at = 0; at < bytes; at += kChunkBytes) {
    pending.emplace_back();
    check(MPI_Isend(data + at, static_cast<int>(std::min(kChunkBytes, bytes - at)), MPI_BYTE, to, 0,
                    MPI_COMM_WORLD, &pending.back()),
          "Isend");
  }
}
void receive_chunks(char* data, std::size_t bytes, int from, std::vector<MPI_Request>& pending) {
  for (std::size_t at = 0; at < bytes; at += kChunkBytes) {
    pending.emplace_back();
    check(MPI_Irecv(data + at, static_cast<int>(std::min(kChunkBytes, bytes - at)), MPI_BYTE, from,
                    0, MPI_COMM_WORLD, &pending.back()),
          "Irecv");
  }
}
void wait_all(std::vector<MPI_Request>& pending) {
  if (!pending.empty())
    check(MPI_Waitall(static_cast<int>(pending.size()), pending.data(), MPI_STATUSES_IGNORE),
          "Waitall");
  pending.clear();
}

}  // namespace

bool World::launched_with_several_ranks() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"})
    if (env_int(name) > 1) return true;
  return false;
}

World::World() {
  if (!launched_with_several_ranks()) return;
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) {
    int provided = 0;
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "Init");
    initialised_here_ = true;
  }
  uses_mpi_ = true;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm shared;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &shared),
        "Comm_split_type");
  MPI_Comm_rank(shared, &local_rank_);
  MPI_Comm_size(shared, &local_size_);
  local_comm_ = shared;
}

World::~World() {
  if (!uses_mpi_) return;
  MPI_Comm shared = local(local_comm_);
  MPI_Comm_free(&shared);
  if (initialised_here_) MPI_Finalize();
}

std::string World::device_spec(const std::string& spec) const {
  if (!spec.empty()) return spec;
  if (const char* chosen = std::getenv("TREEFIX_DEVICE"); chosen && *chosen) return chosen;
  // The GPUs in listing order; without GPUs, every rank shares the first device (PoCL).
  std::vector<std::string> gpus;
  for (const DeviceDescription& d : list_devices())
    if (d.is_gpu)
      gpus.push_back(std::to_string(d.platform_index) + ":" + std::to_string(d.device_index));
  if (gpus.empty()) return "";
  return gpus[static_cast<std::size_t>(local_rank_) % gpus.size()];
}

std::uint64_t World::sum(std::uint64_t value) const {
  if (!uses_mpi_) return value;
  std::uint64_t total = 0;
  check(MPI_Allreduce(&value, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD), "Allreduce");
  return total;
}

std::int64_t World::max(std::int64_t value) const {
  if (!uses_mpi_) return value;
  std::int64_t result = 0;
  check(MPI_Allreduce(&value, &result, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD), "Allreduce");
  return result;
}

std::int64_t World::min(std::int64_t value) const {
  if (!uses_mpi_) return value;
  std::int64_t result = 0;
  check(MPI_Allreduce(&value, &result, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD), "Allreduce");
  return result;
}

double World::max(double value) const {
  if (!uses_mpi_) return value;
  double result = 0;
  check(MPI_Allreduce(&value, &result, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "Allreduce");
  return result;
}

bool World::any(bool value) const { return sum(value ? 1 : 0) > 0; }

std::uint64_t World::exclusive_sum(std::uint64_t value) const {
  if (!uses_mpi_) return 0;
  std::uint64_t before = 0;
  check(MPI_Exscan(&value, &before, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD), "Exscan");
  return rank_ == 0 ? 0 : before;
}

void World::sum_in_place(std::vector<std::uint64_t>& values) const {
  if (!uses_mpi_ || values.empty()) return;
  check(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_UINT64_T,
                      MPI_SUM, MPI_COMM_WORLD),
        "Allreduce");
}

void World::all_gather_bytes(const void* send, std::size_t bytes, void* receive,
                             const std::vector<std::size_t>& counts) const {
  char* out = static_cast<char*>(receive);
  std::size_t at = 0;
  for (int r = 0; r < size_; ++r) {
    if (r == rank_ && bytes) std::memmove(out + at, send, bytes);
    // A broadcast from every rank in turn, in chunks: counts pass 2^31 bytes at scale.
    for (std::size_t done = 0; uses_mpi_ && done < counts[r]; done += kChunkBytes)
      check(MPI_Bcast(out + at + done, static_cast<int>(std::min(kChunkBytes, counts[r] - done)),
                      MPI_BYTE, r, MPI_COMM_WORLD),
            "Bcast");
    at += counts[r];
  }
}

void World::max_in_place(std::vector<double>& values) const {
  if (!uses_mpi_ || values.empty()) return;
  check(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE,
                      MPI_MAX, MPI_COMM_WORLD),
        "Allreduce");
}

std::vector<char> World::all_to_all(const char* send, const std::vector<std::size_t>& send_counts,
                                    std::vector<std::size_t>& received_counts) const {
  std::vector<char> received;
  all_to_all(send, send_counts, received, received_counts);
  return received;
}

void World::all_to_all(const char* send, const std::vector<std::size_t>& send_counts,
                       std::vector<char>& received,
                       std::vector<std::size_t>& received_counts) const {
  received_counts.assign(size_, 0);
  if (!uses_mpi_) {
    received_counts[0] = send_counts[0];
    received.assign(send, send + send_counts[0]);
    return;
  }
  std::vector<std::uint64_t> mine(send_counts.begin(), send_counts.end()), theirs(size_);
  check(MPI_Alltoall(mine.data(), 1, MPI_UINT64_T, theirs.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD),
        "Alltoall");
  std::size_t total = 0;
  std::vector<std::size_t> received_at(size_), send_at(size_);
  std::size_t sent = 0;
  for (int r = 0; r < size_; ++r) {
    received_counts[r] = theirs[r];
    received_at[r] = total;
    total += theirs[r];
    send_at[r] = sent;
    sent += send_counts[r];
  }
  received.resize(total);
  std::vector<MPI_Request> pending;
  for (int r = 0; r < size_; ++r) {
    if (r == rank_) {
      if (send_counts[r])  // (an empty piece may come as a null pointer)
        std::memcpy(received.data() + received_at[r], send + send_at[r], send_counts[r]);
      continue;
    }
    receive_chunks(received.data() + received_at[r], received_counts[r], r, pending);
    send_chunks(send + send_at[r], send_counts[r], r, pending);
  }
  wait_all(pending);
}

std::vector<char> World::gather_bytes(const void* send, std::size_t bytes, int root) const {
  const char* data = static_cast<const char*>(send);
  if (!uses_mpi_) return std::vector<char>(data, data + bytes);
  std::vector<std::uint64_t> sizes(size_, 0);
  sizes[rank_] = bytes;
  sum_in_place(sizes);
  std::vector<MPI_Request> pending;
  std::vector<char> all;
  if (rank_ == root) {
    std::size_t total = 0;
    for (std::uint64_t s : sizes) total += s;
    all.resize(total);
    std::size_t at = 0;
    for (int r = 0; r < size_; at += sizes[r], ++r) {
      if (r == root) {
        if (bytes) std::memcpy(all.data() + at, data, bytes);
      } else
        receive_chunks(all.data() + at, sizes[r], r, pending);
    }
  } else {
    send_chunks(data, bytes, root, pending);
  }
  wait_all(pending);
  return all;
}

void World::broadcast_bytes(void* data, std::size_t bytes, int root) const {
  for (std::size_t done = 0; uses_mpi_ && done < bytes; done += kChunkBytes)
    check(MPI_Bcast(static_cast<char*>(data) + done,
                    static_cast<int>(std::min(kChunkBytes, bytes - done)), MPI_BYTE, root,
                    MPI_COMM_WORLD),
          "Bcast");
}

void World::barrier() const {
  if (uses_mpi_) check(MPI_Barrier(MPI_COMM_WORLD), "Barrier");
}

void World::agree_on_error(const std::string& message, ErrorKind kind) const {
  std::string text = message;
  if (uses_mpi_) {
    const std::int64_t first = min(message.empty() ? size_ : rank_);
    if (first == size_) return;
    std::uint64_t header[2] = {rank_ == first ? message.size() : 0,
                               static_cast<std::uint64_t>(kind)};
    broadcast_bytes(header, sizeof header, static_cast<int>(first));
    text.resize(header[0]);
    broadcast_bytes(text.data(), header[0], static_cast<int>(first));
    kind = static_cast<ErrorKind>(header[1]);
  } else if (message.empty()) {
    return;
  }
  if (kind == ErrorKind::input) throw InputError(text);
  if (kind == ErrorKind::capacity) throw CapacityError(text);
  throw Error(text);
}

SharedHostBlock::SharedHostBlock(const World& world, std::size_t bytes) : world_(&world) {
  if (!world.uses_mpi_ || world.local_size_ != world.size_ || bytes == 0) return;
  if (!Environment::read().mpi_shared_memory) return;
  MPI_Comm host = local(world.local_comm_);
  // The whole block in the first rank's share; the others map it (contiguous, one query).
  char* base = nullptr;
  MPI_Win window;
  check(MPI_Win_allocate_shared(static_cast<MPI_Aint>(world.local_rank_ == 0 ? bytes : 0), 1,
                                MPI_INFO_NULL, host, &base, &window),
        "Win_allocate_shared");
  MPI_Aint size = 0;
  int unit = 0;
  check(MPI_Win_shared_query(window, 0, &size, &unit, &base), "Win_shared_query");
  check(MPI_Win_lock_all(MPI_MODE_NOCHECK, window), "Win_lock_all");
  data_ = base;
  window_ = new MPI_Win(window);
}

SharedHostBlock::~SharedHostBlock() {
  if (!window_) return;
  MPI_Win* window = static_cast<MPI_Win*>(window_);
  MPI_Win_unlock_all(*window);
  MPI_Win_free(window);
  delete window;
}

void SharedHostBlock::publish() const {
  if (!window_) return;
  MPI_Win window = *static_cast<MPI_Win*>(window_);
  check(MPI_Win_sync(window), "Win_sync");
  check(MPI_Barrier(local(world_->local_comm_)), "Barrier");
  check(MPI_Win_sync(window), "Win_sync");
}

}  // namespace treefix
