// The registry of pending temporary files and the signal handler that removes them
// (pending_files.hpp).
//
// The handler may run on any thread at any moment, so it takes no lock and allocates nothing: it
// walks chunks of atomic slots, each null or a path, and unlinks every path it finds. Mutators
// (remember, forget) take a mutex among themselves. A chunk, once linked, is never freed. A path
// forgotten while the handler runs is not freed either: forget() clears its slot first and then
// reads `handling`, the handler sets `handling` first and then reads the slots, so (sequentially
// consistent atomics) the handler never reads a path that forget() has freed.
#include "treefix/core/detail/pending_files.hpp"

#include <pthread.h>
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstring>
#include <iterator>
#include <mutex>
#include <vector>

namespace treefix::detail {
namespace {

constexpr std::size_t kSlotsPerChunk = 256;

struct Chunk {
  std::atomic<char*> slot[kSlotsPerChunk] = {};
  std::atomic<Chunk*> next{nullptr};
};

Chunk first_chunk;                 // static: the handler walks from here
std::atomic<int> handling{0};      // set by the handler before it reads a slot
std::mutex mutators;               // remember/forget among themselves
std::vector<Chunk*> chunks;        // by index, under `mutators`
std::size_t first_maybe_free = 0;  // no free slot before it, under `mutators`
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

struct sigaction previous_action[std::size(kSignals)];  // what the handler hands the signal on to

extern "C" void remove_pending_files(int signo) {
  handling.store(1);
  for (Chunk* chunk = &first_chunk; chunk != nullptr; chunk = chunk->next.load())
    for (auto& slot : chunk->slot)
      if (const char* path = slot.load()) ::unlink(path);
  // The action that was there before ours takes the signal on: the default (the process ends
  // as the signal would have ended it), or a library's own handler that chains the same way
  // (LLVM, under PoCL, installs one for SIGINT, SIGTERM and SIGHUP). The signal is blocked while
  // its handler runs: unblock it and raise it again.
  for (std::size_t i = 0; i < std::size(kSignals); ++i)
    if (kSignals[i] == signo) sigaction(signo, &previous_action[i], nullptr);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, signo);
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
  raise(signo);
}

void install_handlers() {
  for (std::size_t i = 0; i < std::size(kSignals); ++i) {
    struct sigaction& current = previous_action[i];
    if (sigaction(kSignals[i], nullptr, &current) != 0) continue;
    if (!(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN)  // NOLINT
      continue;  // an ignored signal stays ignored (nohup, a shell's background job)
    struct sigaction action {};
    action.sa_handler = remove_pending_files;
    sigfillset(&action.sa_mask);  // no other signal interrupts the removal
    sigaction(kSignals[i], &action, nullptr);
  }
}

std::atomic<char*>& slot_at(std::size_t handle) {
  return chunks[handle / kSlotsPerChunk]->slot[handle % kSlotsPerChunk];
}

}  // namespace

std::size_t remember_pending_file(const std::string& path) {
  static std::once_flag installed;
  std::call_once(installed, install_handlers);
  char* copy = new char[path.size() + 1];
  std::memcpy(copy, path.c_str(), path.size() + 1);
  std::lock_guard<std::mutex> lock(mutators);
  if (chunks.empty()) chunks.push_back(&first_chunk);
  for (std::size_t handle = first_maybe_free;; ++handle) {
    if (handle == chunks.size() * kSlotsPerChunk) {
      Chunk* added = new Chunk;
      chunks.back()->next.store(added);
      chunks.push_back(added);
    }
    std::atomic<char*>& slot = slot_at(handle);
    if (slot.load() == nullptr) {
      slot.store(copy);
      first_maybe_free = handle + 1;
      return handle;
    }
  }
}

void forget_pending_file(std::size_t handle) {
  std::lock_guard<std::mutex> lock(mutators);
  char* path = slot_at(handle).exchange(nullptr);
  if (handling.load() == 0) delete[] path;  // else the handler may be reading it: keep it
  first_maybe_free = std::min(first_maybe_free, handle);
}

}  // namespace treefix::detail
