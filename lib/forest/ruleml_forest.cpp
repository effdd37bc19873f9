// RuleML files straight into a SemanticForest, every phase on `threads` threads of the
// host executor (treefix/core/parallel.hpp, run_on_threads). Slot 0 lists the directory and hands
// out chunks of names while the others parse them (then it parses too). Each thread opens its files
// relative to the directory's descriptor, reads them into one reusable buffer, parses them with its
// own pugixml document and walker, and appends each tree's arrays to its own piece. Then the names
// are sorted and the pieces gathered into one forest in name order, on the same threads
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
#include "forest/ruleml_listing.hpp"
#include "forest/ruleml_pieces.hpp"
#include "forest/ruleml_walk.hpp"
#include "forest/unfilled_array.hpp"
#include "treefix/core/error.hpp"
#include "treefix/forest/ruleml.hpp"

namespace treefix {

namespace {

using Clock = std::chrono::steady_clock;
using detail::chunk_files;
using detail::FileReader;
using detail::ms_between;
using detail::NameChunk;
using detail::OpenDirectory;
using detail::ParsedChunk;
using detail::RuleMLPiece;
using detail::Source;
using ChunkQueue = detail::ChunkQueue<ParsedChunk>;

// A reading thread's reader, with the pugixml walker it parses with.
struct ParsingReader : FileReader {
  using FileReader::FileReader;
  detail::RuleMLWalker walker;
  detail::FlatTree flat;
};

void parse_chunk(const Source& source, std::size_t first_index, const NameChunk& names,
                 ParsingReader& reader, RuleMLPiece& piece, ParsedChunk& out) {
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
      piece.failures.push_back({first_index + i, e.what()});
      start = Clock::now();
    }
  }
}

// Parses on `threads` threads what `produce` publishes (it runs in slot 0, which then parses too),
// then sorts the names (by_name) and gathers the pieces.
NamedSemanticForest read_forest(const Source& source, bool by_name, unsigned threads,
                                RuleMLReadTimes* times,
                                const std::function<void(ChunkQueue&)>& produce,
                                Interner& interner) {
  if (threads == 0) threads = host_threads();
  ChunkQueue queue;
  std::vector<RuleMLPiece> pieces(threads);
  const Clock::time_point start = Clock::now();
  double list_ms = 0;
  run_on_threads(threads, [&](unsigned thread) {
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
    ParsingReader reader(source);
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
  detail::FirstFailure first_failure(queue.chunks(), by_name);
  for (const RuleMLPiece& piece : pieces) first_failure.consider_all(piece.failures);
  first_failure.throw_if_any();

  // Each file's name and tree, in listing order; then the order of the names.
  std::size_t count = 0;
  for (const NameChunk& chunk : queue.chunks()) count += chunk.size();
  detail::UnfilledArray<detail::NameRef> names(count);
  detail::UnfilledArray<detail::FileTree> trees(count);
  parallel_for(queue.chunks().size(), threads, [&](std::size_t k) {
    const NameChunk& chunk = queue.chunks()[k];
    const ParsedChunk& parsed = queue.results()[k];
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
    order = detail::sorted_order(names.begin(), count, threads);
  } else {
    order.resize(count);
    std::iota(order.begin(), order.end(), 0u);
  }
  const Clock::time_point sorted = Clock::now();
  NamedSemanticForest out =
      detail::gather_pieces(pieces, trees.begin(), names.begin(), order, interner, threads);
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
