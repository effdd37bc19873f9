#pragma once
// Progress of long work on standard error, for a person watching a terminal: nothing at all
// when standard error is a pipe or a file (scripts and logs see only results and errors), and
// nothing for the first 2 s (short commands stay quiet; $TREEFIX_PROGRESS_DELAY sets another
// number of seconds). One line, rewritten in place at most five times a second, erased when the
// work is done.
//
//   Progress progress("batch");
//   progress.show("line 37 of 100");
#include <chrono>
#include <string>

namespace treefix::cli {

class Progress {
 public:
  explicit Progress(std::string what);
  ~Progress();  // erases the line, if one was shown
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  void show(const std::string& status);
  // Erases the line now (before other output on standard error).
  void clear();

  // Whether progress can be shown at all: standard error is a terminal.
  static bool wanted();

 private:
  std::string what_;
  std::chrono::steady_clock::time_point start_, last_;
  std::chrono::steady_clock::duration quiet_;
  bool shown_ = false, ever_shown_ = false;
};

// Shows the reading of large inputs (bytes decompressed or scanned) while the object lives.
class ReadProgress {
 public:
  ReadProgress();
  ~ReadProgress();
};

}  // namespace treefix::cli
