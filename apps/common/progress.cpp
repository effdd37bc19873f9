// Progress on a terminal (progress.hpp).
#include "progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>

#include "treefix/core/error.hpp"
#include "treefix/io/compressed.hpp"

namespace treefix::cli {
namespace {
constexpr auto kInterval = std::chrono::milliseconds(200);

// The quiet start: $TREEFIX_PROGRESS_DELAY seconds (a terminal session that wants progress at
// once, or a test under a pseudo-terminal), else 2 s. A value that is not a number of seconds is
// refused, as every other variable's is.
std::chrono::steady_clock::duration quiet_start() {
  const char* text = std::getenv("TREEFIX_PROGRESS_DELAY");
  if (text == nullptr || *text == '\0') return std::chrono::seconds(2);
  char* end = nullptr;
  const double seconds = std::strtod(text, &end);
  if (*end != '\0' || !(seconds >= 0) || seconds > 1e6)
    throw InputError(std::string("environment variable TREEFIX_PROGRESS_DELAY='") + text +
                     "': expected a number of seconds from 0 to 1e6");
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(seconds));
}
}  // namespace

bool Progress::wanted() { return ::isatty(STDERR_FILENO) == 1; }

Progress::Progress(std::string what)
    : what_(std::move(what)),
      start_(std::chrono::steady_clock::now()),
      last_(start_),
      quiet_(wanted() ? quiet_start() : std::chrono::steady_clock::duration::zero()) {}

Progress::~Progress() { clear(); }

void Progress::clear() {
  if (shown_) std::fprintf(stderr, "\r\033[K");  // the line erased: what follows starts clean
  shown_ = false;
}

void Progress::show(const std::string& status) {
  if (!wanted()) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - start_ < quiet_ || (ever_shown_ && now - last_ < kInterval)) return;
  last_ = now;
  shown_ = ever_shown_ = true;
  std::fprintf(stderr, "\r\033[Ktreefix %s: %s", what_.c_str(), status.c_str());
  std::fflush(stderr);
}

ReadProgress::ReadProgress() {
  if (!Progress::wanted()) return;
  quiet_start();  // a malformed delay is refused here, not inside a reader's callback
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
