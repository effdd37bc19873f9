// RuleML files straight into a SemanticForest: parsed in parallel across files, arrays written
// while walking each DOM, then the per-thread pieces joined into one forest.
#include <chrono>
#include <limits>
#include <string>

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

// What one thread reads: a contiguous range of files, its own labels, its own arrays.
struct Piece {
  SemanticForest forest;
  Interner labels;
  std::size_t failed_file = std::numeric_limits<std::size_t>::max();
  std::string failure;
  double read_ms = 0, xml_ms = 0, walk_ms = 0;
};

void read_piece(const RuleMLFiles& files, std::size_t begin, std::size_t end, Piece& piece) {
  detail::RuleMLWalker walker;
  detail::FlatTree flat;
  std::string bytes;
  for (std::size_t i = begin; i < end; ++i) {
    try {
      const std::string path = files.path(i);
      const Clock::time_point start = Clock::now();
      detail::read_file_bytes(path, bytes);
      const Clock::time_point read = Clock::now();
      walker.read(bytes, path, flat);
      const Clock::time_point parsed = Clock::now();
      detail::append_flat_tree(flat, piece.labels, piece.forest);
      const Clock::time_point appended = Clock::now();
      piece.read_ms += ms_between(start, read);
      piece.xml_ms += ms_between(read, parsed);
      piece.walk_ms += ms_between(parsed, appended);
    } catch (const Error& e) {
      // Stop this piece at its first bad file; the caller reports the first in file order.
      piece.failed_file = i;
      piece.failure = e.what();
      return;
    }
  }
}

}  // namespace

NamedSemanticForest read_ruleml_forest(const RuleMLFiles& files, Interner& interner,
                                       unsigned threads, RuleMLReadTimes* times) {
  const std::size_t count = files.names.size();
  if (threads == 0) threads = host_threads();
  const Ranges ranges(count, threads);
  std::vector<Piece> pieces(ranges.count);
  const Clock::time_point start = Clock::now();
  auto read_range = [&](std::size_t k) {
    read_piece(files, ranges.begin(k), ranges.end(k), pieces[k]);
  };
  if (ranges.count == 1)
    read_range(0);
  else
    parallel_for(ranges.count, read_range);
  for (const Piece& piece : pieces)  // pieces are in file order: the first failure is the one
    if (!piece.failure.empty()) throw InputError(piece.failure);
  const Clock::time_point parsed = Clock::now();

  // Label ids: each piece's labels in its first-seen order, pieces in file order, which is the
  // order a sequential reader meets them.
  std::vector<std::vector<std::int32_t>> global_id(pieces.size());
  std::vector<std::size_t> node_offset(pieces.size() + 1, 0), tree_offset(pieces.size() + 1, 0);
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    for (std::size_t local = 0; local < pieces[k].labels.size(); ++local)
      global_id[k].push_back(interner.id(pieces[k].labels.name(static_cast<std::int32_t>(local))));
    node_offset[k + 1] = node_offset[k] + pieces[k].forest.size();
    tree_offset[k + 1] = tree_offset[k] + pieces[k].forest.trees();
  }
  const std::size_t nodes = node_offset.back();
  if (nodes > static_cast<std::size_t>(std::numeric_limits<vertex_t>::max()))
    throw CapacityError("RuleML forest: " + std::to_string(nodes) + " nodes, more than 2^31-1");
  NamedSemanticForest out;
  SemanticForest& f = out.forest;
  LinearForest& s = f.shape;
  s.head.resize(count);
  s.node_count.resize(count);
  for (auto* a : {&s.first_child, &s.next_sibling, &s.parent, &s.original, &f.label, &f.arc})
    a->resize(nodes);
  f.weight.resize(nodes);
  parallel_for(pieces.size(), [&](std::size_t k) {
    const SemanticForest& from = pieces[k].forest;
    const auto shift = static_cast<vertex_t>(node_offset[k]);
    const std::vector<std::int32_t>& id = global_id[k];
    const auto link = [shift](vertex_t v) { return v < 0 ? v : v + shift; };
    for (std::size_t t = 0; t < from.trees(); ++t) {
      s.head[tree_offset[k] + t] = from.shape.head[t] + shift;
      s.node_count[tree_offset[k] + t] = from.shape.node_count[t];
    }
    for (std::size_t v = 0; v < from.size(); ++v) {
      const std::size_t to = node_offset[k] + v;
      s.first_child[to] = link(from.shape.first_child[v]);
      s.next_sibling[to] = link(from.shape.next_sibling[v]);
      s.parent[to] = link(from.shape.parent[v]);
      s.original[to] = static_cast<vertex_t>(to);
      f.label[to] = id[from.label[v]];
      f.arc[to] = from.arc[v] < 0 ? -1 : id[from.arc[v]];
      f.weight[to] = from.weight[v];
    }
  });
  out.names = files.names;
  const Clock::time_point merged = Clock::now();
  if (times) {
    times->parse_ms = ms_between(start, parsed);
    times->merge_ms = ms_between(parsed, merged);
    times->read_thread_ms = times->xml_thread_ms = times->walk_thread_ms = 0;
    for (const Piece& piece : pieces) {
      times->read_thread_ms += piece.read_ms;
      times->xml_thread_ms += piece.xml_ms;
      times->walk_thread_ms += piece.walk_ms;
    }
  }
  return out;
}

NamedSemanticForest read_ruleml_forest(const std::string& dir_or_file, Interner& interner,
                                       unsigned threads, RuleMLReadTimes* times) {
  const Clock::time_point start = Clock::now();
  const RuleMLFiles files = list_ruleml_files(dir_or_file);
  const double list_ms = ms_between(start, Clock::now());
  NamedSemanticForest out = read_ruleml_forest(files, interner, threads, times);
  if (times) times->list_ms = list_ms;
  return out;
}

}  // namespace treefix
