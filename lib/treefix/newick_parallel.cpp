// Newick text parsed on all host cores (parse_newick_in_parallel, treefix/treefix/newick.hpp).
//
// The text is cut into chunks just before a ',' (where the sequential parser always stands
// after a subtree, inside parentheses), and each chunk is read twice by the same state machine:
//   pass 1  counts its nodes and notes what it leaves open: the parentheses it closes that opened
//           before it (pops), the ones it opens and leaves open, the lowest depth it reaches, and
//           the depths of its ',' and ';' (which must be inside, and outside, all parentheses);
//   combine (in chunk order, on one thread) gives every chunk its first node id and starting
//           depth, and the few open nodes it can reach: those at depths from its lowest depth
//           minus one up to its start (their ids, from a stack of the open nodes kept across
//           chunks);
//   pass 2  gives every node its id (in pre-order: the order nodes start in the text), its parent
//           (the innermost open node), its length and the span of its name in the text.
// Anything the fast path does not take (quotes, comments) or that is not well formed makes it
// give up, and the sequential parser reads the text again: it says what and where.
#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>

#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/io/text_io.hpp"
#include "treefix/treefix/newick.hpp"

namespace treefix {
namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}
// Ends an unquoted label or a length (the sequential parser's delimiters and white space).
bool ends_token(char c) {
  switch (c) {
    case '(':
    case ')':
    case '[':
    case ']':
    case '\'':
    case ':':
    case ';':
    case ',':
    case '\0':
    case ' ':
    case '\n':
    case '\t':
    case '\r':
    case '\f':
    case '\v':
      return true;
    default:
      return false;
  }
}

enum class State { tree_start, subtree_start, after_subtree };

// What pass 1 finds in a chunk. Depths are relative to the chunk's start.
struct ChunkSummary {
  std::int64_t nodes = 0;
  std::int64_t lowest = 0;                // the lowest relative depth reached
  std::int64_t end = 0;                   // the relative depth at the end
  std::int64_t lowest_comma = INT64_MAX;  // the lowest relative depth a ',' stands at
  std::int64_t lowest_semicolon = INT64_MAX, highest_semicolon = INT64_MIN;
  std::vector<std::int64_t> left_open;  // local indices of nodes opened and not closed
  State end_state = State::after_subtree;
  bool ok = true;
};

// What pass 2 writes.
struct Output {
  vertex_t* parent;
  double* length;
  std::pair<std::size_t, std::size_t>* name;  // null: names not kept
};

// The state machine over text[begin, end), starting in `state` at absolute depth `depth` (pass 1:
// depth 0 and no output; pass 2: the real depth, the chunk's first id, the reachable open nodes
// `stack` for depths stack_low.. and out).
class ChunkReader {
 public:
  ChunkReader(std::string_view text, std::size_t begin, std::size_t end)
      : text_(text), at_(begin), end_(end) {}

  // Pass 1.
  ChunkSummary summarize(State state) {
    ChunkSummary s;
    std::int64_t depth = 0;
    std::vector<std::int64_t> open;  // local indices of this chunk's open nodes
    auto new_node = [&](bool opens) {
      if (opens) open.push_back(s.nodes);
      ++s.nodes;
    };
    auto close = [&] {
      if (!open.empty()) open.pop_back();
      --depth;
      s.lowest = std::min(s.lowest, depth);
    };
    auto no_label = [](std::int64_t, std::size_t, std::size_t, double, bool) { return true; };
    s.ok = run(state, depth, new_node, close, no_label, s);
    s.end = depth;
    s.left_open = std::move(open);
    return s;
  }

  // Pass 2.
  bool fill(State state, std::int64_t depth, std::int64_t first_id, std::int64_t stack_low,
            std::vector<vertex_t> stack, const Output& out) {
    std::int64_t next_id = first_id;
    ChunkSummary unused;
    std::int64_t last = -1;  // the node whose label and length come next
    auto new_node = [&](bool opens) {
      const vertex_t parent =
          depth == 0 ? -1 : stack[static_cast<std::size_t>(depth - 1 - stack_low)];
      out.parent[next_id] = parent;
      if (opens) {
        stack.resize(static_cast<std::size_t>(depth - stack_low));
        stack.push_back(static_cast<vertex_t>(next_id));
      }
      last = next_id++;
    };
    auto close = [&] {
      last = stack[static_cast<std::size_t>(depth - 1 - stack_low)];
      --depth;
    };
    auto label = [&](std::int64_t, std::size_t start, std::size_t size, double length,
                     bool has_length) {
      if (out.name) out.name[last] = {start, size};
      out.length[last] = has_length ? length : 0.0;
      return true;
    };
    return run(state, depth, new_node, close, label, unused);
  }

 private:
  void skip_blank() {
    while (at_ < end_ && is_blank(text_[at_])) ++at_;
  }

  // [label] [':' length] after a node; false when malformed.
  template <class Label>
  bool label_and_length(Label& label, std::int64_t node) {
    skip_blank();
    const std::size_t start = at_;
    while (at_ < end_ && !ends_token(text_[at_])) ++at_;
    const std::size_t size = at_ - start;
    skip_blank();
    double length = 0;
    bool has_length = false;
    if (at_ < end_ && text_[at_] == ':') {
      ++at_;
      skip_blank();
      const std::size_t number = at_;
      while (at_ < end_ && !ends_token(text_[at_])) ++at_;
      if (at_ == number) return false;
      if (*parse_value(text_.substr(number, at_ - number), length)) return false;
      has_length = true;
    }
    return label(node, start, size, length, has_length);
  }

  template <class NewNode, class Close, class Label>
  bool run(State state, std::int64_t& depth, NewNode& new_node, Close& close, Label& label,
           ChunkSummary& s) {
    for (;;) {
      skip_blank();
      if (at_ == end_) {
        if (state == State::subtree_start && end_ < text_.size()) {
          // "(," or ",,": the chunk ends where an empty leaf stands, before the next ','
          new_node(false);
          if (!label(0, at_, 0, 0.0, false)) return false;
          state = State::after_subtree;
        }
        s.end_state = state;
        return true;
      }
      const char c = text_[at_];
      if (state == State::after_subtree) {
        if (c == ',') {
          s.lowest_comma = std::min(s.lowest_comma, depth);
          ++at_;
          state = State::subtree_start;
        } else if (c == ')') {
          ++at_;
          close();
          if (!label_and_length(label, 0)) return false;
        } else if (c == ';') {
          s.lowest_semicolon = std::min(s.lowest_semicolon, depth);
          s.highest_semicolon = std::max(s.highest_semicolon, depth);
          ++at_;
          state = State::tree_start;
        } else {
          return false;
        }
        continue;
      }
      if (c == ';' || (state == State::tree_start && (c == ',' || c == ')'))) return false;
      if (c == '(') {
        ++at_;
        new_node(true);
        ++depth;
        state = State::subtree_start;
        continue;
      }
      new_node(false);
      if (!label_and_length(label, 0)) return false;
      state = State::after_subtree;
    }
  }

  std::string_view text_;
  std::size_t at_, end_;
};

}  // namespace

std::optional<NewickTree> parse_newick_in_parallel(std::string_view text, const std::string& name,
                                                   bool keep_names, std::size_t chunk_bytes) {
  const std::optional<NewickTree> fall_back;
  if (text.find('\'') != std::string_view::npos || text.find('[') != std::string_view::npos)
    return fall_back;  // quotes and comments: the sequential parser's
  // Chunks start just before a ','.
  std::vector<std::size_t> begin{0};
  const std::size_t wanted = std::max<std::size_t>(
      1, std::min<std::size_t>(text.size() / std::max<std::size_t>(chunk_bytes, 1),
                               std::size_t{16} * host_threads()));
  for (std::size_t k = 1; k < wanted; ++k) {
    const std::size_t from = std::max(begin.back() + 1, text.size() * k / wanted);
    const std::size_t comma = text.find(',', from);
    if (comma == std::string_view::npos) break;
    begin.push_back(comma);
  }
  const std::size_t chunks = begin.size();
  begin.push_back(text.size());
  // pass 1
  std::vector<ChunkSummary> summary(chunks);
  parallel_for(chunks, [&](std::size_t c) {
    summary[c] = ChunkReader(text, begin[c], begin[c + 1])
                     .summarize(c == 0 ? State::tree_start : State::after_subtree);
  });
  // combine
  std::vector<std::int64_t> first_id(chunks), start_depth(chunks), stack_low(chunks);
  std::vector<std::vector<vertex_t>> reachable(chunks);
  std::vector<vertex_t> open;  // the open nodes at each depth, across chunks
  std::int64_t nodes = 0, depth = 0;
  for (std::size_t c = 0; c < chunks; ++c) {
    const ChunkSummary& s = summary[c];
    if (!s.ok || depth + s.lowest < 0 || depth + s.lowest_comma < 1 ||
        (s.highest_semicolon != INT64_MIN &&
         (depth + s.lowest_semicolon != 0 || depth + s.highest_semicolon != 0)))
      return fall_back;
    first_id[c] = nodes;
    start_depth[c] = depth;
    const std::int64_t low = std::max<std::int64_t>(0, depth + s.lowest - 1);
    stack_low[c] = low;
    reachable[c].assign(open.begin() + low, open.begin() + depth);
    open.resize(static_cast<std::size_t>(depth + s.lowest));
    for (std::int64_t local : s.left_open) open.push_back(static_cast<vertex_t>(nodes + local));
    nodes += s.nodes;
    depth += s.end;
    if (nodes > INT32_MAX) throw CapacityError(name + ": more than 2^31-1 nodes");
  }
  for (std::size_t c = 0; c + 1 < chunks; ++c)
    if (summary[c].end_state != State::after_subtree) return fall_back;
  if (depth != 0 || summary.back().end_state != State::tree_start || nodes == 0) return fall_back;
  // pass 2
  const auto n = static_cast<std::size_t>(nodes);
  require_host_memory(
      bytes_for(n, sizeof(vertex_t) + sizeof(double) + (keep_names ? 2 * sizeof(std::size_t) : 0)),
      name + ": a Newick tree of " + std::to_string(n) + " nodes");
  NewickTree parsed;
  parsed.parent.resize(n);
  parsed.length.resize(n);
  std::vector<std::pair<std::size_t, std::size_t>> spans(keep_names ? n : 0);
  const Output out{parsed.parent.data(), parsed.length.data(), keep_names ? spans.data() : nullptr};
  std::atomic<bool> ok{true};
  parallel_for(chunks, [&](std::size_t c) {
    if (!ChunkReader(text, begin[c], begin[c + 1])
             .fill(c == 0 ? State::tree_start : State::after_subtree, start_depth[c], first_id[c],
                   stack_low[c], std::move(reachable[c]), out))
      ok = false;
  });
  if (!ok) return fall_back;
  if (keep_names) parsed.names = NodeNames(std::string(text), std::move(spans));
  return parsed;
}

}  // namespace treefix
