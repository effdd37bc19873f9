// RuleML files straight into a SemanticForest. Files are handed out in chunks as the directory
// is listed, parsed by all threads at once (one pugixml document and one walker per thread; each
// tree's arrays written while its DOM is walked), and the per-chunk arrays are then gathered into
// one forest in name order.
//
// Why std::thread here and not parallel_for: listing a directory is one sequential stream of
// getdents calls (about 0.2 us a file), and with a static split the parse could only start once
// it ends; a producer (the listing) and consumers (the parsers) overlap the two.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <mutex>
#include <string>
#include <thread>

#include "forest/ruleml_walk.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/forest/ruleml.hpp"

namespace treefix {

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

constexpr std::size_t chunk_files = 256;  // files per piece of work

// What one chunk of files becomes: its trees' arrays, its own labels, its failures.
struct Piece {
  SemanticForest forest;
  Interner labels;
  std::vector<std::pair<std::size_t, std::string>> failures;  // (file index, message)
  double read_ms = 0, xml_ms = 0, walk_ms = 0;
};

// Chunks of names published by one producer, taken by any number of consumers.
class ChunkQueue {
 public:
  void publish(std::vector<std::string>&& names) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      chunks_.push_back(std::move(names));
      pieces_.emplace_back();
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
  // The next chunk (its index, names and piece), or false when the producer is done and every
  // chunk is taken. Published chunks never move (deques keep their elements in place).
  bool take(std::size_t& index, const std::vector<std::string>*& names, Piece*& piece) {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [&] { return taken_ < chunks_.size() || finished_; });
    if (taken_ == chunks_.size()) return false;
    index = taken_++;
    names = &chunks_[index];
    piece = &pieces_[index];
    return true;
  }
  std::deque<std::vector<std::string>>& chunks() { return chunks_; }
  std::deque<Piece>& pieces() { return pieces_; }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::vector<std::string>> chunks_;
  std::deque<Piece> pieces_;
  std::size_t taken_ = 0;
  bool finished_ = false;
};

void parse_chunk(const std::string& directory, std::size_t first_index,
                 const std::vector<std::string>& names, Piece& piece) {
  detail::RuleMLWalker walker;
  detail::FlatTree flat;
  std::string bytes, path;
  for (std::size_t i = 0; i < names.size(); ++i) {
    try {
      path = directory.empty() ? names[i] : directory + "/" + names[i];
      const Clock::time_point start = Clock::now();
      detail::read_file_bytes(path, bytes);
      const Clock::time_point read = Clock::now();
      walker.read(bytes, path, flat);
      const Clock::time_point parsed = Clock::now();
      if (piece.failures.empty()) detail::append_flat_tree(flat, piece.labels, piece.forest);
      const Clock::time_point appended = Clock::now();
      piece.read_ms += ms_between(start, read);
      piece.xml_ms += ms_between(read, parsed);
      piece.walk_ms += ms_between(parsed, appended);
    } catch (const Error& e) {
      // Keep going: the caller reports the failure first in name order, which may come later
      // in this chunk (a directory lists in its own order).
      piece.failures.emplace_back(first_index + i, e.what());
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

// Lists `directory` into the queue, chunk by chunk (names in the directory's own order).
void list_into(const std::string& directory, ChunkQueue& queue) {
  DIR* dir = ::opendir(directory.c_str());
  if (!dir) throw InputError(directory + ": cannot list the directory: " + std::strerror(errno));
  std::vector<std::string> chunk;
  errno = 0;
  while (const dirent* entry = ::readdir(dir)) {
    if (regular_xml(::dirfd(dir), *entry)) {
      chunk.emplace_back(entry->d_name);
      if (chunk.size() == chunk_files) {
        queue.publish(std::move(chunk));
        chunk = {};
      }
    }
    errno = 0;
  }
  const int error = errno;
  ::closedir(dir);
  if (error) throw InputError(directory + ": cannot list the directory: " + std::strerror(error));
  if (!chunk.empty()) queue.publish(std::move(chunk));
}

// Sorts on all host threads: ranges sorted in parallel, then merged pairwise in rounds.
template <class T, class Less>
void sort_on_threads(std::vector<T>& values, Less less) {
  const Ranges ranges(values.size(), host_threads(), 4096);
  parallel_for(ranges.count, [&](std::size_t k) {
    std::sort(values.begin() + ranges.begin(k), values.begin() + ranges.end(k), less);
  });
  std::vector<T> merged(values.size());
  for (std::size_t width = 1; width < ranges.count; width *= 2) {
    const std::size_t pairs = (ranges.count + 2 * width - 1) / (2 * width);
    parallel_for(pairs, [&](std::size_t p) {
      const std::size_t a = ranges.begin(2 * p * width),
                        mid = ranges.begin(std::min(2 * p * width + width, ranges.count)),
                        end = ranges.begin(std::min(2 * p * width + 2 * width, ranges.count));
      std::merge(values.begin() + a, values.begin() + mid, values.begin() + mid,
                 values.begin() + end, merged.begin() + a, less);
    });
    values.swap(merged);
  }
}

struct Gathered {
  NamedSemanticForest out;
  double sort_ms = 0, merge_ms = 0;
};

// The pieces' trees into one forest, trees in name order (by_name) or in listing order; labels
// not yet in `interner` get ids in lexicographic order (the same whatever the threads or the
// order the directory lists in).
Gathered gather(ChunkQueue& queue, bool by_name, Interner& interner) {
  Gathered g;
  std::vector<std::string> names;
  std::vector<std::pair<std::size_t, std::size_t>> where;  // (piece, tree in piece) per file
  for (std::size_t k = 0; k < queue.chunks().size(); ++k)
    for (std::size_t i = 0; i < queue.chunks()[k].size(); ++i) {
      names.push_back(std::move(queue.chunks()[k][i]));
      where.emplace_back(k, i);
    }
  Clock::time_point t = Clock::now();
  std::vector<std::size_t> order(names.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (by_name)
    sort_on_threads(order, [&](std::size_t a, std::size_t b) { return names[a] < names[b]; });
  g.sort_ms = ms_between(t, Clock::now());
  t = Clock::now();

  std::deque<Piece>& pieces = queue.pieces();
  std::vector<std::string_view> fresh;
  for (const Piece& piece : pieces)
    for (std::size_t id = 0; id < piece.labels.size(); ++id) {
      const std::string& name = piece.labels.name(static_cast<std::int32_t>(id));
      if (interner.find(name) < 0) fresh.push_back(name);
    }
  std::sort(fresh.begin(), fresh.end());
  fresh.erase(std::unique(fresh.begin(), fresh.end()), fresh.end());
  for (std::string_view name : fresh) interner.id(name);
  std::vector<std::vector<std::int32_t>> global_id(pieces.size());
  for (std::size_t k = 0; k < pieces.size(); ++k)
    for (std::size_t id = 0; id < pieces[k].labels.size(); ++id)
      global_id[k].push_back(interner.find(pieces[k].labels.name(static_cast<std::int32_t>(id))));

  const std::size_t count = names.size();
  std::vector<std::size_t> node_offset(count + 1, 0);
  for (std::size_t j = 0; j < count; ++j) {
    const auto [k, i] = where[order[j]];
    node_offset[j + 1] = node_offset[j] + pieces[k].forest.shape.node_count[i];
  }
  const std::size_t nodes = node_offset.back();
  if (nodes > static_cast<std::size_t>(std::numeric_limits<vertex_t>::max()))
    throw CapacityError("RuleML forest: " + std::to_string(nodes) + " nodes, more than 2^31-1");
  SemanticForest& f = g.out.forest;
  LinearForest& s = f.shape;
  s.head.resize(count);
  s.node_count.resize(count);
  for (auto* a : {&s.first_child, &s.next_sibling, &s.parent, &s.original, &f.label, &f.arc})
    a->resize(nodes);
  f.weight.resize(nodes);
  const Ranges ranges(count, host_threads());
  parallel_for(ranges.count, [&](std::size_t r) {
    for (std::size_t j = ranges.begin(r); j < ranges.end(r); ++j) {
      const auto [k, i] = where[order[j]];
      const SemanticForest& from = pieces[k].forest;
      const std::vector<std::int32_t>& id = global_id[k];
      const vertex_t old_head = from.shape.head[i], n = from.shape.node_count[i];
      const auto new_head = static_cast<vertex_t>(node_offset[j]);
      const vertex_t shift = new_head - old_head;
      const auto link = [shift](vertex_t v) { return v < 0 ? v : v + shift; };
      s.head[j] = new_head;
      s.node_count[j] = n;
      for (vertex_t v = old_head; v < old_head + n; ++v) {
        const vertex_t to = v + shift;
        s.first_child[to] = link(from.shape.first_child[v]);
        s.next_sibling[to] = link(from.shape.next_sibling[v]);
        s.parent[to] = link(from.shape.parent[v]);
        s.original[to] = to;
        f.label[to] = id[from.label[v]];
        f.arc[to] = from.arc[v] < 0 ? -1 : id[from.arc[v]];
        f.weight[to] = from.weight[v];
      }
    }
  });
  g.out.names.resize(count);
  for (std::size_t j = 0; j < count; ++j) g.out.names[j] = std::move(names[order[j]]);
  g.merge_ms = ms_between(t, Clock::now());
  return g;
}

// Runs the producer on the calling thread and threads - 1 consumers (the caller joins them when
// its listing is done); then gathers.
NamedSemanticForest read_forest(const std::string& directory, bool by_name, unsigned threads,
                                RuleMLReadTimes* times,
                                const std::function<void(ChunkQueue&)>& produce,
                                Interner& interner) {
  if (threads == 0) threads = host_threads();
  ChunkQueue queue;
  auto consume = [&] {
    std::size_t k;
    const std::vector<std::string>* names;
    Piece* piece;
    while (queue.take(k, names, piece)) parse_chunk(directory, k * chunk_files, *names, *piece);
  };
  const Clock::time_point start = Clock::now();
  std::vector<std::thread> workers;
  for (unsigned w = 1; w < threads; ++w) workers.emplace_back(consume);
  double list_ms = 0;
  try {
    produce(queue);
    list_ms = ms_between(start, Clock::now());
  } catch (...) {
    queue.finish();
    for (auto& w : workers) w.join();
    throw;
  }
  queue.finish();
  consume();
  for (auto& w : workers) w.join();
  const Clock::time_point parsed = Clock::now();
  // The failure first in name order (or file order), as a sequential reader would report it.
  const std::string* failure = nullptr;
  std::size_t failed_index = 0;
  for (const Piece& piece : queue.pieces())
    for (const auto& [index, message] : piece.failures) {
      const std::string& name = queue.chunks()[index / chunk_files][index % chunk_files];
      const std::string& current =
          failure ? queue.chunks()[failed_index / chunk_files][failed_index % chunk_files] : name;
      if (!failure || (by_name ? name < current : index < failed_index)) {
        failure = &message;
        failed_index = index;
      }
    }
  if (failure) throw InputError(*failure);
  Gathered g = gather(queue, by_name, interner);
  if (times) {
    *times = RuleMLReadTimes{};
    times->list_ms = list_ms;
    times->parse_ms = ms_between(start, parsed);
    times->sort_ms = g.sort_ms;
    times->merge_ms = g.merge_ms;
    for (const Piece& piece : queue.pieces()) {
      times->read_thread_ms += piece.read_ms;
      times->xml_thread_ms += piece.xml_ms;
      times->walk_thread_ms += piece.walk_ms;
    }
  }
  return std::move(g.out);
}

}  // namespace

NamedSemanticForest read_ruleml_forest(const RuleMLFiles& files, Interner& interner,
                                       unsigned threads, RuleMLReadTimes* times) {
  return read_forest(
      files.directory, false, threads, times,
      [&](ChunkQueue& queue) {
        for (std::size_t begin = 0; begin < files.names.size(); begin += chunk_files)
          queue.publish(std::vector<std::string>(
              files.names.begin() + begin,
              files.names.begin() + std::min(files.names.size(), begin + chunk_files)));
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
  return read_forest(
      dir_or_file, true, threads, times, [&](ChunkQueue& queue) { list_into(dir_or_file, queue); },
      interner);
}

}  // namespace treefix
