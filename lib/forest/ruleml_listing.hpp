#pragma once
// Internal to the forest module: listing RuleML files and handing them to reading threads, shared
// by the reader that parses on the host (ruleml_forest.cpp) and the one that only reads the bytes
// for the device (ruleml_bytes.cpp). The calling thread lists a directory chunk by chunk while
// the other threads take the chunks (a producer and consumers: listing is one sequential stream
// of getdents calls, about 0.2 us a file, and the reading need not wait for its end).
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "forest/ruleml_walk.hpp"
#include "treefix/core/error.hpp"

namespace treefix::detail {

// The readers' phase times, in milliseconds.
inline double ms_between(std::chrono::steady_clock::time_point a,
                         std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

// Files per piece of work: small, so that the threads run out of work at nearly the same time.
constexpr std::size_t chunk_files = 64;

// A chunk's names one after another, each '\0'-terminated: openat takes them as they are, and
// listing allocates per chunk, not per file.
class NameChunk {
 public:
  void add(std::string_view name) {
    start_.push_back(bytes_.size());
    bytes_.append(name);
    bytes_.push_back('\0');
  }
  std::size_t size() const { return start_.size(); }
  const char* c_str(std::size_t i) const { return bytes_.data() + start_[i]; }
  std::string_view name(std::size_t i) const {
    const std::size_t end = i + 1 < start_.size() ? start_[i + 1] : bytes_.size();
    return {c_str(i), end - 1 - start_[i]};
  }

 private:
  std::string bytes_;
  std::vector<std::size_t> start_;
};

// Chunks of names published by one producer, taken by any number of consumers, each of which
// makes the chunk's Result (a parsed chunk, the chunk's bytes). Published chunks and results
// never move (deques keep their elements in place).
template <class Result>
class ChunkQueue {
 public:
  void publish(NameChunk&& names) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      chunks_.push_back(std::move(names));
      results_.emplace_back();
    }
    ready_.notify_one();
  }
  void finish() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      finished_ = true;
    }
    ready_.notify_all();
  }
  // The next chunk, or false when the producer is done and every chunk is taken.
  bool take(std::size_t& index, const NameChunk*& names, Result*& result) {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [&] { return taken_ < chunks_.size() || finished_; });
    if (taken_ == chunks_.size()) return false;
    index = taken_++;
    names = &chunks_[index];
    result = &results_[index];
    return true;
  }
  const std::deque<NameChunk>& chunks() const { return chunks_; }
  const std::deque<Result>& results() const { return results_; }
  std::deque<Result>& results() { return results_; }  // once every taker is done

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<NameChunk> chunks_;
  std::deque<Result> results_;
  std::size_t taken_ = 0;
  bool finished_ = false;
};

// A file that could not be read or parsed: where it is in the listing (chunk * chunk_files + its
// place in the chunk), and why.
struct FileFailure {
  std::size_t index;
  std::string message;
};

// Of the failures the threads met, the one a sequential reader would have met first: first in
// name order for a directory's files (a directory lists in its own order, so that may be a later
// file of a chunk, or of a later chunk), first in listing order for files named one by one.
class FirstFailure {
 public:
  FirstFailure(const std::deque<NameChunk>& chunks, bool by_name)
      : chunks_(chunks), by_name_(by_name) {}
  void consider(const FileFailure& failure) {
    if (!first_ || (by_name_ ? name_of(failure.index) < name_of(first_->index)
                             : failure.index < first_->index))
      first_ = &failure;
  }
  template <class Failures>
  void consider_all(const Failures& failures) {
    for (const FileFailure& failure : failures) consider(failure);
  }
  // Throws that failure's InputError; returns when every file was read.
  void throw_if_any() const {
    if (first_) throw InputError(first_->message);
  }

 private:
  std::string_view name_of(std::size_t index) const {
    return chunks_[index / chunk_files].name(index % chunk_files);
  }
  const std::deque<NameChunk>& chunks_;
  const bool by_name_;
  const FileFailure* first_ = nullptr;
};

// Where the files are: names relative to a directory, or paths ("" directory).
struct Source {
  std::string directory;
  bool listed_regular = false;  // a listing found each name to be a regular file
};

// What a thread reuses from file to file, its own descriptor of the directory included: in a
// process of several threads, every openat takes a reference on the directory's open file, and
// threads sharing one descriptor would contend for that one counter. Where the directory cannot
// be opened, each file is opened by its path (and the first fails with the reason).
class FileReader {
 public:
  explicit FileReader(const Source& source)
      : directory_fd_(source.directory.empty()
                          ? -1
                          : ::open(source.directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {}
  ~FileReader() {
    if (directory_fd_ >= 0) ::close(directory_fd_);
  }
  FileReader(const FileReader&) = delete;
  FileReader& operator=(const FileReader&) = delete;

  // File `name` of the source into bytes[0, returned length); `path` names it in messages.
  std::size_t read(const Source& source, const char* name, const std::string& path) {
    const bool by_path = directory_fd_ < 0;
    return read_file_at(by_path ? AT_FDCWD : directory_fd_, by_path ? path.c_str() : name, path,
                        bytes, source.listed_regular);
  }

  std::string bytes, path;

 private:
  int directory_fd_;
};

inline bool regular_xml(int directory_fd, const dirent& entry) {
  const std::size_t length = std::strlen(entry.d_name);
  if (length <= 4 || std::memcmp(entry.d_name + length - 4, ".xml", 4) != 0) return false;
  if (entry.d_type == DT_REG) return true;
  if (entry.d_type != DT_UNKNOWN && entry.d_type != DT_LNK) return false;
  struct stat info {};  // file systems without d_type, and links: follow them
  return ::fstatat(directory_fd, entry.d_name, &info, 0) == 0 && S_ISREG(info.st_mode);
}

// A directory open for listing; its descriptor is where the files are opened from.
class OpenDirectory {
 public:
  explicit OpenDirectory(const std::string& directory) : dir_(::opendir(directory.c_str())) {
    if (!dir_) throw InputError(directory + ": cannot list the directory: " + std::strerror(errno));
  }
  ~OpenDirectory() { ::closedir(dir_); }
  OpenDirectory(const OpenDirectory&) = delete;
  OpenDirectory& operator=(const OpenDirectory&) = delete;
  int fd() const { return ::dirfd(dir_); }

  // Lists into the queue, chunk by chunk (names in the directory's own order).
  template <class Queue>
  void list_into(const std::string& directory, Queue& queue) {
    NameChunk chunk;
    errno = 0;
    while (const dirent* entry = ::readdir(dir_)) {
      if (regular_xml(fd(), *entry)) {
        chunk.add(entry->d_name);
        if (chunk.size() == chunk_files) queue.publish(std::exchange(chunk, NameChunk()));
      }
      errno = 0;
    }
    if (errno) throw InputError(directory + ": cannot list the directory: " + std::strerror(errno));
    if (chunk.size()) queue.publish(std::move(chunk));
  }

 private:
  DIR* dir_;
};

}  // namespace treefix::detail
