// Progress on a terminal (progress.hpp).
#include "progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <memory>
#include <mutex>

#include "treefix/io/compressed.hpp"

namespace treefix::cli {
namespace {
constexpr auto kQuietStart = std::chrono::seconds(2);
constexpr auto kInterval = std::chrono::milliseconds(200);
}  // namespace

bool Progress::wanted() { return ::isatty(STDERR_FILENO) == 1; }

Progress::Progress(std::string what)
    : what_(std::move(what)), start_(std::chrono::steady_clock::now()), last_(start_) {}

Progress::~Progress() { clear(); }

void Progress::clear() {
  if (shown_) std::fprintf(stderr, "\r\033[K");  // the line erased: what follows starts clean
  shown_ = false;
}

void Progress::show(const std::string& status) {
  if (!wanted()) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - start_ < kQuietStart || now - last_ < kInterval) return;
  last_ = now;
  shown_ = true;
  std::fprintf(stderr, "\r\033[Ktreefix %s: %s", what_.c_str(), status.c_str());
  std::fflush(stderr);
}

ReadProgress::ReadProgress() {
  if (!Progress::wanted()) return;
  // Called with the library's lock held: one call at a time.
  auto progress = std::make_shared<std::unique_ptr<Progress>>();
  set_read_progress([progress](const std::string& path, std::size_t done, std::size_t total) {
    if (!*progress) *progress = std::make_unique<Progress>("reading");  // its 2 s start now
    char status[160];
    std::snprintf(status, sizeof status, "%s: %.0f of %.0f MiB (%.0f%%)", path.c_str(),
                  done / 1048576.0, total / 1048576.0, total ? 100.0 * done / total : 100.0);
    (*progress)->show(status);
    if (done == total) progress->reset();
  });
}

ReadProgress::~ReadProgress() { set_read_progress({}); }

}  // namespace treefix::cli
