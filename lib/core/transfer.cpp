// Host <-> device copies, direct or through double-buffered page-locked staging
// (treefix/core/device_array.hpp).
#include <algorithm>
#include <cstring>

#include "core/transfer_tuning.hpp"
#include "treefix/core/device_array.hpp"
#include "treefix/core/interrupt.hpp"
#include "treefix/core/parallel.hpp"

namespace treefix::detail {
namespace {

// Staging chunk and threshold: the rows in transfer_tuning.cpp.
std::size_t chunk_bytes(const Runtime& runtime) {
  return runtime.tuning()[knobs::staging_chunk_bytes];
}

Staging chosen(const Runtime& runtime, std::size_t bytes) {
  const Tuning& tuning = runtime.tuning();
  return tuning[knobs::pinned_transfers] && bytes >= tuning[knobs::pinned_transfers_from]
             ? Staging::pinned
             : Staging::direct;
}

}  // namespace

void write_buffer(Runtime& runtime, const cl::Buffer& buffer, const void* host, std::size_t bytes,
                  Profile* profile, std::size_t offset) {
  write_buffer(runtime, buffer, host, bytes, profile, offset, chosen(runtime, bytes));
}

void read_buffer(Runtime& runtime, const cl::Buffer& buffer, void* host, std::size_t bytes,
                 Profile* profile, std::size_t offset) {
  read_buffer(runtime, buffer, host, bytes, profile, offset, chosen(runtime, bytes));
}

namespace {

// One transfer between `buffer` (from byte `offset`) and the host, in one direction, recorded
// under the phase "upload" or "download".
struct Transfer {
  Runtime& runtime;
  const cl::Buffer& buffer;
  std::size_t offset;
  Profile* profile;
  bool upload;

  // Copies bytes [at, at + size) of the transfer between the buffer and `host` (only read from
  // when uploading); a non-blocking copy is flushed at once, so that its DMA starts now.
  void enqueue(bool blocking, std::size_t at, std::size_t size, void* host, cl::Event& done) const {
    auto& queue = runtime.queue();
    if (upload)
      queue.enqueueWriteBuffer(buffer, blocking, offset + at, size, host, nullptr, &done);
    else
      queue.enqueueReadBuffer(buffer, blocking, offset + at, size, host, nullptr, &done);
    if (!blocking) queue.flush();
    if (profile) profile->record(upload ? "upload" : "download", done);
  }

  // Runs `staged` (copies through the staging slots), or else one blocking copy of `bytes`
  // between the buffer and `host`, translating OpenCL errors; nothing for 0 bytes.
  // An upload of `bytes` through the staging slots: fill(stage, at, size) writes bytes
  // [at, at + size) of the upload into `stage`. Chunk k is filled in slot k % 2 while the DMA of
  // chunk k - 1 runs; a slot is reused only after its previous DMA finished.
  template <class Fill>
  void staged_upload(std::size_t bytes, Fill fill) const {
    cl::Event in_flight[2];
    const std::size_t chunk = std::min(bytes, chunk_bytes(runtime));
    for (std::size_t done = 0, k = 0; done < bytes; done += chunk, ++k) {
      const std::size_t slot = k % 2, size = std::min(chunk, bytes - done);
      char* const stage = static_cast<char*>(runtime.pinned_staging(slot, chunk));
      if (in_flight[slot]()) in_flight[slot].wait();
      fill(stage, done, size);
      enqueue(false, done, size, stage, in_flight[slot]);
    }
    for (auto& event : in_flight)
      if (event()) event.wait();
  }

  template <class Staged>
  void run(void* host, std::size_t bytes, Staging staging, Staged staged) const {
    if (bytes == 0) return;
    translate_device_errors(upload ? "upload" : "download", [&] {
      if (staging == Staging::pinned) return staged();
      cl::Event done;
      enqueue(true, 0, bytes, host, done);
    });
  }
};

}  // namespace

void write_buffer(Runtime& runtime, const cl::Buffer& buffer, const void* host, std::size_t bytes,
                  Profile* profile, std::size_t offset, Staging staging) {
  const Transfer upload{runtime, buffer, offset, profile, true};
  // enqueueWriteBuffer takes a void* but only reads through it.
  upload.run(const_cast<void*>(host), bytes, staging, [&] {
    upload.staged_upload(bytes, [&](char* stage, std::size_t at, std::size_t size) {
      // on every core: one alone copies ~5-10 GB/s, less than the DMA
      parallel_memcpy(stage, static_cast<const char*>(host) + at, size);
    });
  });
}

void read_buffer(Runtime& runtime, const cl::Buffer& buffer, void* host, std::size_t bytes,
                 Profile* profile, std::size_t offset, Staging staging) {
  if (bytes > 0) wait_interruptibly(runtime);  // interruptible: the copy below then waits little
  const Transfer download{runtime, buffer, offset, profile, false};
  download.run(host, bytes, staging, [&] {
    // The DMA of chunk k + 1 runs while chunk k is copied out of its staging slot.
    const std::size_t chunk = std::min(bytes, chunk_bytes(runtime));
    const std::size_t chunks = (bytes + chunk - 1) / chunk;
    cl::Event in_flight[2];
    void* stage[2] = {runtime.pinned_staging(0, chunk),
                      chunks > 1 ? runtime.pinned_staging(1, chunk) : nullptr};
    auto enqueue = [&](std::size_t k) {
      const std::size_t at = k * chunk;
      download.enqueue(false, at, std::min(chunk, bytes - at), stage[k % 2], in_flight[k % 2]);
    };
    enqueue(0);
    for (std::size_t k = 0; k < chunks; ++k) {
      if (k + 1 < chunks) enqueue(k + 1);
      in_flight[k % 2].wait();
      const std::size_t at = k * chunk, size = std::min(chunk, bytes - at);
      parallel_memcpy(static_cast<char*>(host) + at, stage[k % 2], size);
    }
  });
}

void write_buffer_gather(Runtime& runtime, const cl::Buffer& buffer,
                         const std::vector<HostPiece>& pieces, Profile* profile) {
  std::vector<std::size_t> start(pieces.size() + 1, 0);  // piece i lands at start[i]
  for (std::size_t i = 0; i < pieces.size(); ++i) start[i + 1] = start[i] + pieces[i].bytes;
  const std::size_t bytes = start.back();
  const Transfer upload{runtime, buffer, 0, profile, true};
  if (chosen(runtime, bytes) == Staging::direct) {
    translate_device_errors("upload", [&] {
      cl::Event done;
      for (std::size_t i = 0; i < pieces.size(); ++i)
        if (pieces[i].bytes)
          upload.enqueue(true, start[i], pieces[i].bytes, const_cast<void*>(pieces[i].data), done);
    });
    return;
  }
  upload.run(nullptr, bytes, Staging::pinned, [&] {
    upload.staged_upload(bytes, [&](char* stage, std::size_t done, std::size_t size) {
      // The pieces that overlap [done, done + size), cut in slices that every core shares:
      // copied whole, one large piece (the BFS's pairs from one other rank) would take one core.
      const std::size_t first =
          std::upper_bound(start.begin(), start.end(), done) - start.begin() - 1;
      const std::size_t last =
          std::lower_bound(start.begin(), start.end(), done + size) - start.begin();
      const std::size_t slice_bytes =
          std::max<std::size_t>(size / host_threads() + 1, std::size_t(1) << 18);
      struct Slice {
        std::size_t at;  // in the whole upload
        std::size_t piece, bytes;
      };
      std::vector<Slice> slices;
      for (std::size_t i = first; i < last; ++i) {
        const std::size_t from = std::max(start[i], done), to = std::min(start[i + 1], done + size);
        for (std::size_t at = from; at < to; at += slice_bytes)
          slices.push_back({at, i, std::min(slice_bytes, to - at)});
      }
      parallel_copies(slices.size(), [&](std::size_t j) {
        const Slice& slice = slices[j];
        std::memcpy(
            stage + (slice.at - done),
            static_cast<const char*>(pieces[slice.piece].data) + (slice.at - start[slice.piece]),
            slice.bytes);
      });
    });
  });
}

void warm_up_transfers(Runtime& runtime) {
  if (!runtime.tuning()[knobs::pinned_transfers]) return;
  std::vector<char> host(chunk_bytes(runtime) + 1, 0);
  cl::Buffer device = runtime.allocate(host.size(), "transfer warm-up");
  write_buffer(runtime, device, host.data(), host.size(), nullptr, 0, Staging::pinned);
  read_buffer(runtime, device, host.data(), host.size(), nullptr, 0, Staging::pinned);
}

}  // namespace treefix::detail
