#pragma once
// Output files: written whole or not at all, and the outputs of one command all or none.
//
// Where an output goes depends on what its path names:
//   - "" or "-": standard output, written directly;
//   - a character or block device, or a FIFO: written directly (never replaced by a file);
//   - a regular file or a new path (a symbolic link: its target, followed to the end): written to
//     a temporary file beside it ("NAME.tmp-PID-N"), flushed to the disk and renamed over it when
//     the command commits, keeping the mode of the file it replaces. The flush comes at the
//     commit, before the first rename: a file at a time (fsync) for a few outputs, one syncfs per
//     file system for many (a command writing thousands of files pays one flush, not one each).
// Every write error is reported (a full disk, /dev/full, a failed fsync or close), as an Error
// "PATH: write failed: No space left on device".
//
// A command with several outputs declares them all before it computes anything, so that an
// output that cannot be written stops it at once, and commits them together:
//
//   OutputFiles outputs({depths_path, parents_path});  // checked, temporary files created
//   ... compute ...
//   write_output(depths_path, ...);                    // staged in `outputs`
//   write_output(parents_path, ...);
//   outputs.commit();                                  // renamed into place, all together
//
// Without commit() (an exception, an early return) every temporary file is removed and the files
// the paths named before stay as they were. While an OutputFiles lives, write_output() on its
// thread writes into it, so the library's writers (write_values_file, write_graph, ...) take part
// without knowing. A stream (standard output, device, FIFO) cannot be taken back: it is written
// when its turn comes. SIGINT, SIGTERM, SIGHUP and SIGPIPE remove the pending temporary files and
// then end the process as the signal would have (exit status 128 + its number in a shell).
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace treefix {

class OutputFiles {
 public:
  OutputFiles();
  // Declares each path of `paths` (add).
  explicit OutputFiles(const std::vector<std::string>& paths);
  ~OutputFiles();
  OutputFiles(const OutputFiles&) = delete;
  OutputFiles& operator=(const OutputFiles&) = delete;

  // Declares an output and checks now that it can be written: a regular file gets its temporary
  // file. Throws InputError: "PATH: is a directory", "PATH: cannot write: Permission denied",
  // "PATH: cannot write: No such file or directory" (a missing folder), "PATH: is given for two
  // outputs".
  void add(const std::string& path);

  // Writes the content `produce` gives for `path` (declared first if it was not).
  void write(const std::string& path, const std::function<void(std::ostream&)>& produce);

  // Renames every staged file into place. Throws Error if a declared file was never written.
  void commit();

 private:
  struct Destination;
  Destination& find(const std::string& path);
  void sync_staged() const;  // every written temporary file on the disk
  std::vector<std::unique_ptr<Destination>> destinations_;
  OutputFiles* enclosing_;  // the thread's previous innermost OutputFiles
  bool committed_ = false;
};

// Writes one output: into the innermost OutputFiles alive on this thread, to be committed with
// the others, or else at once (a one-output OutputFiles committed on return).
void write_output(const std::string& path, const std::function<void(std::ostream&)>& produce);

// Flushes std::cout and stdio's stdout and throws Error("standard output: write failed: ...")
// if anything written to them was lost (a program calls it before it exits).
void check_standard_output();

}  // namespace treefix
