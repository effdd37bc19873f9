// RuleML files straight into a SemanticForest, every phase on one team of `threads` threads
// (forest/thread_team.hpp). The calling thread lists the directory and hands out chunks of names
// while the others parse them (then it parses too). Each thread opens its files relative to the
// directory's descriptor, reads them into one reusable buffer, parses them with its own pugixml
// document and walker, and appends each tree's arrays to its own piece. Then the names are sorted
// and the pieces gathered into one forest in name order, on the same threads
// (forest/name_order.hpp, forest/ruleml_pieces.hpp).
//
// Why a producer and consumers rather than a static split: listing a directory is one sequential
// stream of getdents calls (about 0.2 us a file); with a static split the parse could only start
// once it ends.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <numeric>
#include <string>
#include <utility>

#include "forest/name_order.hpp"
#include "forest/ruleml_pieces.hpp"
#include "forest/ruleml_walk.hpp"
#include "forest/unfilled_array.hpp"
#include "treefix/core/error.hpp"
#include "treefix/forest/ruleml.hpp"

namespace treefix {

namespace {

using Clock = std::chrono::steady_clock;
using detail::ParsedChunk;
using detail::RuleMLPiece;

double ms_between(Clock::time_point a, Clock::time_point b) {
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

// Chunks of names published by one producer, taken by any number of consumers. Published chunks
// never move (deques keep their elements in place).
class ChunkQueue {
 public:
  void publish(NameChunk&& names) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      chunks_.push_back(std::move(names));
      parsed_.emplace_back();
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
  bool take(std::size_t& index, const NameChunk*& names, ParsedChunk*& parsed) {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [&] { return taken_ < chunks_.size() || finished_; });
    if (taken_ == chunks_.size()) return false;
    index = taken_++;
    names = &chunks_[index];
    parsed = &parsed_[index];
    return true;
  }
  const std::deque<NameChunk>& chunks() const { return chunks_; }
  const std::deque<ParsedChunk>& parsed() const { return parsed_; }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<NameChunk> chunks_;
  std::deque<ParsedChunk> parsed_;
  std::size_t taken_ = 0;
  bool finished_ = false;
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
    return detail::read_file_at(by_path ? AT_FDCWD : directory_fd_, by_path ? path.c_str() : name,
                                path, bytes, source.listed_regular);
  }

  detail::RuleMLWalker walker;
  detail::FlatTree flat;
  std::string bytes, path;

 private:
  int directory_fd_;
};

void parse_chunk(const Source& source, std::size_t first_index, const NameChunk& names,
                 FileReader& reader, RuleMLPiece& piece, ParsedChunk& out) {
  Clock::time_point start = Clock::now();
  for (std::size_t i = 0; i < names.size(); ++i) {
    try {
      std::string& path = reader.path;  // for messages; its capacity is reused
      path.assign(source.directory);
      if (!path.empty()) path += '/';
      path += names.name(i);
      const std::size_t length = reader.read(source, names.c_str(i), path);
      const Clock::time_point read = Clock::now();
      reader.walker.read(std::string_view(reader.bytes.data(), length), path, reader.flat);
      const Clock::time_point parsed = Clock::now();
      if (piece.failures.empty()) {
        detail::lay_out_flat_tree(reader.flat, piece.labels, out.nodes);
        out.tree_start.push_back(out.nodes.size());
      }
      const Clock::time_point appended = Clock::now();
      piece.read_ms += ms_between(start, read);
      piece.xml_ms += ms_between(read, parsed);
      piece.walk_ms += ms_between(parsed, appended);
      start = appended;
    } catch (const Error& e) {
      // Keep going: the caller reports the failure first in name order, which may come later
      // in this chunk (a directory lists in its own order).
      piece.failures.emplace_back(first_index + i, e.what());
      start = Clock::now();
    }
  }
}

bool regular_xml(int directory_fd, const dirent& entry) {
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
  void list_into(const std::string& directory, ChunkQueue& queue) {
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

// The failure first in name order (by_name) or in file order, as a sequential reader would report
// it; null when every file was read.
const std::string* first_failure(const ChunkQueue& queue, const std::vector<RuleMLPiece>& pieces,
                                 bool by_name) {
  const auto name_of = [&](std::size_t index) {
    return queue.chunks()[index / chunk_files].name(index % chunk_files);
  };
  const std::string* failure = nullptr;
  std::size_t failed_index = 0;
  for (const RuleMLPiece& piece : pieces)
    for (const auto& [index, message] : piece.failures)
      if (!failure || (by_name ? name_of(index) < name_of(failed_index) : index < failed_index)) {
        failure = &message;
        failed_index = index;
      }
  return failure;
}

// Parses on `threads` threads what `produce` publishes (it runs on the calling thread, which then
// parses too), then sorts the names (by_name) and gathers the pieces.
NamedSemanticForest read_forest(const Source& source, bool by_name, unsigned threads,
                                RuleMLReadTimes* times,
                                const std::function<void(ChunkQueue&)>& produce,
                                Interner& interner) {
  detail::ThreadTeam team(threads);
  ChunkQueue queue;
  std::vector<RuleMLPiece> pieces(team.size());
  const Clock::time_point start = Clock::now();
  double list_ms = 0;
  team.run([&](unsigned thread) {
    if (thread == 0) {
      try {
        produce(queue);
      } catch (...) {
        queue.finish();
        throw;
      }
      queue.finish();
      list_ms = ms_between(start, Clock::now());
    }
    FileReader reader(source);
    RuleMLPiece& piece = pieces[thread];
    std::size_t k;
    const NameChunk* names;
    ParsedChunk* parsed;
    std::size_t last_nodes = 0;  // the thread's previous chunk: its size is a good guess
    while (queue.take(k, names, parsed)) {
      parsed->piece = thread;
      parsed->nodes.reserve(last_nodes + last_nodes / 4);
      parsed->tree_start.reserve(names->size() + 1);
      parse_chunk(source, k * chunk_files, *names, reader, piece, *parsed);
      last_nodes = parsed->nodes.size();
    }
  });
  const Clock::time_point parsed = Clock::now();
  if (const std::string* failure = first_failure(queue, pieces, by_name))
    throw InputError(*failure);

  // Each file's name and tree, in listing order; then the order of the names.
  std::size_t count = 0;
  for (const NameChunk& chunk : queue.chunks()) count += chunk.size();
  detail::UnfilledArray<detail::NameRef> names(count);
  detail::UnfilledArray<detail::FileTree> trees(count);
  team.for_each(queue.chunks().size(), [&](std::size_t k) {
    const NameChunk& chunk = queue.chunks()[k];
    const ParsedChunk& parsed = queue.parsed()[k];
    for (std::size_t i = 0; i < chunk.size(); ++i) {
      const std::string_view name = chunk.name(i);
      const std::size_t first = parsed.tree_start[i], end = parsed.tree_start[i + 1];
      names[k * chunk_files + i] = {name.data(), static_cast<std::uint32_t>(name.size())};
      trees[k * chunk_files + i] = {parsed.nodes.data() + first,
                                    static_cast<std::uint32_t>(end - first), parsed.piece};
    }
  });
  std::vector<std::uint32_t> order;
  if (by_name) {
    order = detail::sorted_order(names.begin(), count, team);
  } else {
    order.resize(count);
    std::iota(order.begin(), order.end(), 0u);
  }
  const Clock::time_point sorted = Clock::now();
  NamedSemanticForest out =
      detail::gather_pieces(pieces, trees.begin(), names.begin(), order, interner, team);
  if (times) {
    *times = RuleMLReadTimes{};
    times->list_ms = list_ms;
    times->parse_ms = ms_between(start, parsed);
    times->sort_ms = ms_between(parsed, sorted);
    times->merge_ms = ms_between(sorted, Clock::now());
    for (const RuleMLPiece& piece : pieces) {
      times->read_thread_ms += piece.read_ms;
      times->xml_thread_ms += piece.xml_ms;
      times->walk_thread_ms += piece.walk_ms;
    }
  }
  return out;
}

}  // namespace

NamedSemanticForest read_ruleml_forest(const RuleMLFiles& files, Interner& interner,
                                       unsigned threads, RuleMLReadTimes* times) {
  const Source source{files.directory, false};
  return read_forest(
      source, false, threads, times,
      [&](ChunkQueue& queue) {
        for (std::size_t begin = 0; begin < files.names.size(); begin += chunk_files) {
          NameChunk chunk;
          const std::size_t end = std::min(files.names.size(), begin + chunk_files);
          for (std::size_t i = begin; i < end; ++i) chunk.add(files.names[i]);
          queue.publish(std::move(chunk));
        }
      },
      interner);
}

NamedSemanticForest read_ruleml_forest(const std::string& dir_or_file, Interner& interner,
                                       unsigned threads, RuleMLReadTimes* times) {
  struct stat info {};
  if (::stat(dir_or_file.c_str(), &info) != 0)
    throw InputError(dir_or_file + ": no such file or directory");
  if (!S_ISDIR(info.st_mode))
    return read_ruleml_forest(RuleMLFiles{"", {dir_or_file}}, interner, threads, times);
  OpenDirectory directory(dir_or_file);
  return read_forest(
      Source{dir_or_file, true}, true, threads, times,
      [&](ChunkQueue& queue) { directory.list_into(dir_or_file, queue); }, interner);
}

}  // namespace treefix
