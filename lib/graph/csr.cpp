// CSR construction on all host cores: from arc lists (count, scan, scatter, sort and compact the
// rows), row normalisation for readers that fill rows directly, the symmetry check, forests.
#include "treefix/graph/csr.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "graph/graph_detail.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"

namespace treefix {

namespace detail {

// Ranges of vertices holding about equal shares of vertices plus arcs, so that a hub's row
// does not leave one thread with most of the work: `wanted` ranges (default eight per thread),
// fewer for a small graph. Range p is [first[p], first[p + 1]).
std::vector<std::size_t> balanced_rows(const std::vector<std::int64_t>& row_offset,
                                       std::size_t wanted) {
  const std::size_t n = row_offset.size() - 1;
  const std::uint64_t work = n + static_cast<std::uint64_t>(row_offset[n]);
  const std::size_t pieces =
      std::max<std::size_t>(1, std::min<std::uint64_t>(wanted, work / 4096 + 1));
  std::vector<std::size_t> first(pieces + 1, n);
  first[0] = 0;
  for (std::size_t p = 1; p < pieces; ++p) {
    // the first vertex v with v + row_offset[v] >= p * work / pieces
    const std::uint64_t goal = p * work / pieces;
    std::size_t lo = first[p - 1], hi = n;
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (mid + static_cast<std::uint64_t>(row_offset[mid]) < goal)
        lo = mid + 1;
      else
        hi = mid;
    }
    first[p] = lo;
  }
  return first;
}

}  // namespace detail

namespace {

using detail::balanced_rows;

// Keeps the first kept[v] entries of every row v (kept: n + 1 entries, the last one 0; it becomes
// the row offsets) and moves the rows together when any entry went, in place: the rows of a
// partitioned graph's share or of a generated graph fill most of the host, and a compacted copy
// would double that (its zeroed pages also cost more than the moves). `pieces`: balanced_rows of
// the rows.
void keep_row_fronts(Csr& g, std::vector<std::int64_t> kept,
                     const std::vector<std::size_t>& pieces) {
  const std::size_t n = g.vertices();
  const std::int64_t total = exclusive_sum(kept.data(), n + 1);
  if (total == g.row_offset[n]) return;  // nothing merged or dropped: rows stay where they are
  vertex_t* column = g.column.data();
  auto move = [column](std::int64_t to, std::int64_t from, std::int64_t count) {
    if (to != from && count > 0)
      std::memmove(column + to, column + from, static_cast<std::size_t>(count) * sizeof(vertex_t));
  };
  // Each piece first gathers its rows at the front of its own arcs (in parallel: a piece writes
  // only where its rows were), then the pieces' blocks move down to their places, front to back
  // (each lands at or below where it was, and below the blocks after it).
  parallel_for(pieces.size() - 1, [&](std::size_t p) {
    const std::int64_t shift = g.row_offset[pieces[p]] - kept[pieces[p]];
    for (std::size_t v = pieces[p]; v < pieces[p + 1]; ++v)
      move(kept[v] + shift, g.row_offset[v], kept[v + 1] - kept[v]);
  });
  for (std::size_t p = 0; p + 1 < pieces.size(); ++p)
    move(kept[pieces[p]], g.row_offset[pieces[p]], kept[pieces[p + 1]] - kept[pieces[p]]);
  g.column.resize(static_cast<std::size_t>(total));
  // Most of the arcs gone (rows with room for both directions, lists giving every edge twice):
  // the spare memory is worth a copy.
  if (static_cast<std::size_t>(total) < g.column.capacity() / 4 * 3) g.column.shrink_to_fit();
  g.row_offset = std::move(kept);
}

// Sorts each row, merges duplicates and (when asked) drops self loops (row v is vertex first + v),
// then compacts the rows.
void sort_and_compact_rows(Csr& g, std::int64_t first, bool drop_loops) {
  const std::size_t n = g.vertices();
  if (n == 0) return;
  const std::vector<std::size_t> pieces = balanced_rows(g.row_offset);
  std::vector<std::int64_t> kept(n + 1, 0);
  parallel_for(pieces.size() - 1, [&](std::size_t p) {
    for (std::size_t v = pieces[p]; v < pieces[p + 1]; ++v) {
      vertex_t* begin = g.column.data() + g.row_offset[v];
      vertex_t* end = g.column.data() + g.row_offset[v + 1];
      if (!std::is_sorted(begin, end)) std::sort(begin, end);
      end = std::unique(begin, end);
      if (drop_loops) end = std::remove(begin, end, static_cast<vertex_t>(first + std::int64_t(v)));
      kept[v] = end - begin;
    }
  });
  keep_row_fronts(g, std::move(kept), pieces);
}

}  // namespace

std::uint64_t csr_build_bytes(std::size_t n, std::uint64_t arcs) {
  // row offsets and scatter cursors (8 bytes each per vertex), the scattered columns and, when
  // rows shrink, their compacted copy (4 bytes each per arc)
  return 16 * (static_cast<std::uint64_t>(n) + 1) + 8 * arcs;
}

Csr csr_from_edges(std::size_t n, const vertex_t* source, const vertex_t* target, std::size_t count,
                   bool undirected) {
  if (n > static_cast<std::size_t>(INT32_MAX))
    throw InputError("a graph of " + std::to_string(n) + " vertices exceeds 2^31-1 vertices");
  const Ranges slices(count, 4 * std::size_t(host_threads()), std::size_t(1) << 16);
  // Endpoints first: the first bad arc in arc order is reported.
  std::vector<std::size_t> first_bad(slices.count, count);
  parallel_for(slices.count, [&](std::size_t s) {
    for (std::size_t i = slices.begin(s); i < slices.end(s); ++i)
      if (source[i] < 0 || target[i] < 0 || static_cast<std::size_t>(source[i]) >= n ||
          static_cast<std::size_t>(target[i]) >= n) {
        first_bad[s] = i;
        return;
      }
  });
  for (std::size_t i : first_bad)
    if (i < count)
      throw InputError("edge " + std::to_string(i) + " (" + std::to_string(source[i]) + ", " +
                       std::to_string(target[i]) + ") has an endpoint outside 0.." +
                       std::to_string(n) + "-1");
  Csr g;
  g.undirected = undirected;
  g.row_offset.assign(n + 1, 0);
  if (n == 0) return g;
  // Each thread owns a range of rows and walks all arcs for those whose endpoints fall in it:
  // no atomics, and its degree counters and scatter cursors stay in its own cache. The arcs are
  // read once per thread, sequentially, which costs less than a contended random atomic per arc.
  auto for_my_arcs = [&](vertex_t lo, std::uint32_t width, auto&& visit) {
    for (std::size_t i = 0; i < count; ++i) {
      const vertex_t u = source[i], v = target[i];
      if (u == v) continue;
      if (static_cast<std::uint32_t>(u - lo) < width) visit(u, v);
      if (undirected && static_cast<std::uint32_t>(v - lo) < width) visit(v, u);
    }
  };
  // Degrees (of v at row_offset[v]) over equal ranges of vertices, then their exclusive prefix
  // sum: the row offsets.
  const Ranges owned(n, host_threads(), std::size_t(1) << 12);
  std::int64_t* offset = g.row_offset.data();
  parallel_for(owned.count, [&](std::size_t r) {
    for_my_arcs(static_cast<vertex_t>(owned.begin(r)),
                static_cast<std::uint32_t>(owned.end(r) - owned.begin(r)),
                [&](vertex_t from, vertex_t) { ++offset[from]; });
  });
  const std::int64_t arcs = exclusive_sum(offset, n + 1);
  // Scatter over ranges of equal arcs (the degrees are known now): each arc takes the next free
  // slot of its row.
  const std::vector<std::size_t> rows = balanced_rows(g.row_offset, host_threads());
  std::vector<std::int64_t> cursor(g.row_offset.begin(), g.row_offset.end() - 1);
  g.column.resize(static_cast<std::size_t>(arcs));
  vertex_t* column = g.column.data();
  parallel_for(rows.size() - 1, [&](std::size_t r) {
    for_my_arcs(static_cast<vertex_t>(rows[r]), static_cast<std::uint32_t>(rows[r + 1] - rows[r]),
                [&](vertex_t from, vertex_t to) { column[cursor[from]++] = to; });
  });
  cursor = std::vector<std::int64_t>();  // freed (`= {}` would keep the memory)
  sort_and_compact_rows(g, 0, false);    // the scatter's order within a row is arbitrary: sort
  return g;
}

Csr csr_from_edges(std::size_t n, const std::vector<vertex_t>& source,
                   const std::vector<vertex_t>& target, bool undirected) {
  if (source.size() != target.size())
    throw InputError("csr_from_edges: " + std::to_string(source.size()) + " sources for " +
                     std::to_string(target.size()) + " targets");
  return csr_from_edges(n, source.data(), target.data(), source.size(), undirected);
}

Csr symmetrized(const Csr& g) {
  const std::size_t n = g.vertices();
  Csr s;
  s.undirected = true;
  s.row_offset.assign(n + 1, 0);
  if (n == 0) return s;
  // The transpose: row u lists the sources of the arcs into u. As in csr_from_edges, each thread
  // owns a range of rows and walks every arc (no atomics); it walks them in row order, so the
  // sources reach each of its rows in increasing order and the rows come out sorted.
  auto for_my_arcs = [&](std::size_t lo, std::size_t hi, auto&& visit) {
    const vertex_t first = static_cast<vertex_t>(lo);
    const std::uint32_t width = static_cast<std::uint32_t>(hi - lo);
    for (std::size_t v = 0; v < n; ++v)
      for (std::int64_t e = g.row_offset[v]; e < g.row_offset[v + 1]; ++e)
        if (static_cast<std::uint32_t>(g.column[e] - first) < width)
          visit(g.column[e], static_cast<vertex_t>(v));
  };
  std::vector<std::int64_t> in_offset(n + 1, 0);
  const Ranges owned(n, host_threads(), std::size_t(1) << 12);
  parallel_for(owned.count, [&](std::size_t r) {
    for_my_arcs(owned.begin(r), owned.end(r), [&](vertex_t to, vertex_t) { ++in_offset[to]; });
  });
  exclusive_sum(in_offset.data(), n + 1);
  // in_offset[u] is row u's cursor during the scatter (no copy of n cursors): it ends at row
  // u + 1's start, and one shift brings the offsets back.
  std::vector<vertex_t> in_column(g.column.size());
  const std::vector<std::size_t> rows = balanced_rows(in_offset, host_threads());
  parallel_for(rows.size() - 1, [&](std::size_t r) {
    for_my_arcs(rows[r], rows[r + 1],
                [&](vertex_t to, vertex_t from) { in_column[in_offset[to]++] = from; });
  });
  std::copy_backward(in_offset.begin(), in_offset.end() - 1, in_offset.end());
  in_offset[0] = 0;
  // Row v of the result is the union of row v of g and of the transpose, both sorted and free of
  // duplicates, merged into room for both; an arc that met its reverse leaves its row short, and
  // such rows are compacted after. (Sizing the rows by a merge first costs as much as the merge:
  // a branch per element, taken at random when the ids of the two rows interleave.)
  const Ranges slices(n + 1, 4 * std::size_t(host_threads()), std::size_t(1) << 16);
  parallel_for(slices.count, [&](std::size_t r) {
    for (std::size_t v = slices.begin(r); v < slices.end(r); ++v)
      s.row_offset[v] = g.row_offset[v] + in_offset[v];
  });
  s.column.resize(static_cast<std::size_t>(s.row_offset[n]));
  const std::vector<std::size_t> pieces = balanced_rows(s.row_offset);
  std::vector<std::int64_t> kept(n + 1, 0);
  parallel_for(pieces.size() - 1, [&](std::size_t p) {
    for (std::size_t v = pieces[p]; v < pieces[p + 1]; ++v) {
      vertex_t* row = s.column.data() + s.row_offset[v];
      kept[v] = std::set_union(
                    g.column.data() + g.row_offset[v], g.column.data() + g.row_offset[v + 1],
                    in_column.data() + in_offset[v], in_column.data() + in_offset[v + 1], row) -
                row;
    }
  });
  in_column = std::vector<vertex_t>();  // freed before the compacted copy
  in_offset = std::vector<std::int64_t>();
  keep_row_fronts(s, std::move(kept), pieces);
  return s;
}

void normalize_rows(Csr& graph, std::int64_t first) { sort_and_compact_rows(graph, first, true); }

void check_and_normalize(Csr& g, const std::string& what) {
  const std::size_t n = g.vertices();
  const std::int64_t m = static_cast<std::int64_t>(g.column.size());
  if (g.row_offset.empty() || g.row_offset[0] != 0 || g.row_offset[n] != m)
    throw InputError(what + ": the row offsets run from " +
                     std::to_string(g.row_offset.empty() ? 0 : g.row_offset[0]) + " to " +
                     std::to_string(g.row_offset.empty() ? 0 : g.row_offset[n]) +
                     ", not from 0 to the " + std::to_string(m) + " column ids");
  check_and_normalize(g, what, RowBlock{0, 0, n});
}

void check_and_normalize(Csr& g, const std::string& what, const RowBlock& block) {
  const std::size_t n = g.vertices(), vertices = block.graph_vertices;
  // Offsets never decrease (first bad one reported); columns in range.
  const Ranges rows(n, 4 * std::size_t(host_threads()), std::size_t(1) << 16);
  std::vector<std::size_t> bad_row(rows.count, n);
  parallel_for(rows.count, [&](std::size_t s) {
    for (std::size_t v = rows.begin(s); v < rows.end(s); ++v)
      if (g.row_offset[v + 1] < g.row_offset[v]) {
        bad_row[s] = v;
        return;
      }
  });
  for (std::size_t v : bad_row)
    if (v < n)
      throw InputError(what + ": row offset " + std::to_string(block.first_vertex + v + 1) + " (" +
                       std::to_string(block.first_arc + g.row_offset[v + 1]) +
                       ") is smaller than row offset " + std::to_string(block.first_vertex + v) +
                       " (" + std::to_string(block.first_arc + g.row_offset[v]) + ")");
  const Ranges arcs(g.column.size(), 4 * std::size_t(host_threads()), std::size_t(1) << 16);
  std::vector<std::size_t> bad_arc(arcs.count, g.column.size());
  parallel_for(arcs.count, [&](std::size_t s) {
    for (std::size_t e = arcs.begin(s); e < arcs.end(s); ++e)
      if (g.column[e] < 0 || static_cast<std::size_t>(g.column[e]) >= vertices) {
        bad_arc[s] = e;
        return;
      }
  });
  for (std::size_t e : bad_arc)
    if (e < g.column.size())
      throw InputError(what + ": arc " + std::to_string(block.first_arc + e) + " goes to vertex " +
                       std::to_string(g.column[e]) + ", outside 0.." +
                       std::to_string(std::int64_t(vertices) - 1));
  // Rows in the library's form: strictly increasing, no self loop.
  const std::vector<std::size_t> pieces = balanced_rows(g.row_offset);
  std::vector<char> irregular(pieces.size() - 1, 0);
  parallel_for(pieces.size() - 1, [&](std::size_t p) {
    for (std::size_t v = pieces[p]; v < pieces[p + 1] && !irregular[p]; ++v)
      for (std::int64_t e = g.row_offset[v]; e < g.row_offset[v + 1]; ++e)
        if (g.column[e] == static_cast<vertex_t>(block.first_vertex + std::int64_t(v)) ||
            (e > g.row_offset[v] && g.column[e] <= g.column[e - 1])) {
          irregular[p] = 1;
          break;
        }
  });
  if (std::find(irregular.begin(), irregular.end(), 1) != irregular.end())
    normalize_rows(g, block.first_vertex);
}

Csr child_graph(const ParentArray& parent) {
  ChildLists lists = child_lists(parent);
  Csr g;
  g.row_offset = std::move(lists.child_offset);
  g.column = std::move(lists.child);
  return g;
}

}  // namespace treefix
