// Edge lists read as undirected graphs take one of three paths: a list giving each edge once (no
// sampled pair has its reverse) gets every reverse added while its CSR is built; otherwise the
// CSR of the arcs as written is built and kept when the symmetry check passes (both directions
// given), or merged with its transpose (symmetrized) when it fails. Every path must give exactly
// the graph that adding every pair's reverse gives (csr_from_edges(..., true) of the pairs, the
// reader's former build), on lists with both directions, one, a mix, self loops, duplicates,
// isolated vertices, none at all.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <utility>

#include "treefix/core/phase_times.hpp"
#include "treefix/graph/edge_list.hpp"
#include "treefix/graph/generate.hpp"
#include "treefix/graph/graph_io.hpp"

using namespace treefix;

namespace {

struct Pairs {
  std::vector<vertex_t> source, target;
  void add(vertex_t u, vertex_t v) {
    source.push_back(u);
    target.push_back(v);
  }
  std::size_t vertices() const {  // what the reader takes: the largest id + 1
    vertex_t largest = -1;
    for (std::size_t e = 0; e < source.size(); ++e)
      largest = std::max({largest, source[e], target[e]});
    return static_cast<std::size_t>(largest + 1);
  }
};

enum class Written { both, ascending, descending, random_orientation, mixed };
const Written kEveryKind[] = {Written::both, Written::ascending, Written::descending,
                              Written::random_orientation, Written::mixed};
const char* name_of(Written kind) {
  const char* names[] = {"both", "ascending", "descending", "random orientation", "mixed"};
  return names[static_cast<int>(kind)];
}

// `edges` random edges among ids below n (a third at hub 0; a sparse list leaves many ids
// isolated), written as `kind`: both arcs, u < v, u > v, either at random, or both for a third
// of the edges and either for the rest. `extras`: a tenth more lines repeating earlier ones and
// some self loops (one at a new largest id, which leaves that vertex isolated). Lines shuffled.
Pairs random_list(std::size_t n, std::size_t edges, Written kind, bool extras, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Pairs list;
  for (std::size_t e = 0; e < edges && n > 1; ++e) {
    const vertex_t u = rng() % 3 == 0 ? 0 : static_cast<vertex_t>(rng() % n);
    vertex_t v = static_cast<vertex_t>(rng() % n);
    if (v == u) v = static_cast<vertex_t>((v + 1) % n);
    const vertex_t low = std::min(u, v), high = std::max(u, v);
    const bool flip = rng() % 2 == 0;
    switch (kind) {
      case Written::both:
        list.add(u, v);
        list.add(v, u);
        break;
      case Written::ascending:
        list.add(low, high);
        break;
      case Written::descending:
        list.add(high, low);
        break;
      case Written::random_orientation:
        list.add(flip ? low : high, flip ? high : low);
        break;
      case Written::mixed:
        list.add(flip ? low : high, flip ? high : low);
        if (rng() % 3 == 0) list.add(flip ? high : low, flip ? low : high);
        break;
    }
  }
  if (extras && !list.source.empty()) {
    const std::size_t lines = list.source.size();
    for (std::size_t i = 0; i < lines / 10 + 1; ++i) {
      const std::size_t e = rng() % lines;
      list.add(list.source[e], list.target[e]);
    }
    for (std::size_t i = 0; i < lines / 30 + 1; ++i) {
      const vertex_t v = static_cast<vertex_t>(rng() % n);
      list.add(v, v);
    }
    list.add(static_cast<vertex_t>(n), static_cast<vertex_t>(n));
  }
  std::vector<std::size_t> order(list.source.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  Pairs shuffled;
  for (std::size_t i : order) shuffled.add(list.source[i], list.target[i]);
  return shuffled;
}

std::string scratch_list(const std::string& name, const Pairs& list) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("treefix-edge-list-undirected-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string text = "# " + name + "\n";
  for (std::size_t e = 0; e < list.source.size(); ++e)
    text += std::to_string(list.source[e]) + " " + std::to_string(list.target[e]) + "\n";
  const std::string path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

bool same_graph(const Csr& a, const Csr& b) {
  return a.row_offset == b.row_offset && a.column == b.column && a.undirected == b.undirected;
}

bool ran(const PhaseTimes& phases, const std::string& phase) {
  const auto& all = phases.phases();
  return std::any_of(all.begin(), all.end(), [&](const auto& p) { return p.first == phase; });
}

enum class Path { reverses_while_building, symmetric, symmetrized };

// Reads the list as a file, undirected and directed, against the former build, and tells which
// path ran. Certain by the data: a list whose arcs are symmetric keeps its CSR after the check;
// one where no pair has its reverse (each edge once) gets the reverses while building (no check).
Path check_read(const std::string& name, const Pairs& list) {
  CAPTURE(name);
  const std::size_t n = list.vertices();
  const Csr former = csr_from_edges(n, list.source, list.target, true);
  const Csr directed = csr_from_edges(n, list.source, list.target, false);
  const std::string path = scratch_list(name, list);
  PhaseTimes phases;
  GraphReadOptions options;
  options.phases = &phases;
  CHECK(same_graph(read_graph(path, options), former));
  GraphReadOptions as_directed;
  as_directed.edges_directed = true;
  CHECK(same_graph(read_graph(path, as_directed), directed));
  CHECK(ran(phases, "read: csr"));
  const Path taken = !ran(phases, "read: symmetry check") ? Path::reverses_while_building
                     : ran(phases, "read: reverse arcs")  ? Path::symmetrized
                                                          : Path::symmetric;
  const bool symmetric =
      directed.row_offset == former.row_offset && directed.column == former.column;
  std::vector<std::uint64_t> arcs;  // (u << 32) | v, u != v, sorted
  for (std::size_t e = 0; e < list.source.size(); ++e)
    if (list.source[e] != list.target[e])
      arcs.push_back(std::uint64_t(list.source[e]) << 32 | std::uint32_t(list.target[e]));
  std::sort(arcs.begin(), arcs.end());
  const bool reverse_seen = std::any_of(arcs.begin(), arcs.end(), [&](std::uint64_t arc) {
    return std::binary_search(arcs.begin(), arcs.end(), (arc << 32) | (arc >> 32));
  });
  if (symmetric) CHECK(taken == Path::symmetric);
  if (!symmetric) CHECK(taken != Path::symmetric);
  if (!arcs.empty() && !reverse_seen) CHECK(taken == Path::reverses_while_building);
  return taken;
}

}  // namespace

TEST_CASE("undirected edge lists of every kind read as adding every reverse always did") {
  std::uint64_t seed = 1;
  std::map<Path, int> taken;
  for (Written kind : kEveryKind)
    for (bool extras : {false, true})
      for (std::size_t n : {2, 3, 5, 97, 1000, 5003})
        for (std::size_t edges : {std::size_t(1), n / 2 + 1, 7 * n + 3}) {
          const std::string name = std::string(name_of(kind)) + (extras ? "+extras" : "") + "-" +
                                   std::to_string(n) + "-" + std::to_string(edges) + ".txt";
          ++taken[check_read(name, random_list(n, edges, kind, extras, ++seed))];
        }
  CHECK(taken[Path::reverses_while_building] > 20);
  CHECK(taken[Path::symmetric] > 20);
  CHECK(taken[Path::symmetrized] > 20);
}

TEST_CASE("edge lists without edges, of self loops only, or of one edge read as before") {
  Pairs none, loops, one, both;
  loops.add(3, 3);
  loops.add(0, 0);
  loops.add(3, 3);
  one.add(4, 1);
  both.add(1, 4);
  both.add(4, 1);
  both.add(6, 6);
  for (auto& [name, list] : {std::pair<std::string, Pairs>("none.txt", none),
                             {"loops.txt", loops},
                             {"one.txt", one},
                             {"both.txt", both}})
    check_read(name, list);
  // comments and blank lines only: no vertex at all
  const Csr empty = read_graph(scratch_list("comments.txt", none));
  CHECK(empty.vertices() == 0);
  CHECK(empty.row_offset == std::vector<std::int64_t>{0});
  CHECK(empty.undirected);
}

TEST_CASE("large undirected edge lists: a few million arcs, both directions, one, a mix") {
  // Kronecker scale 16 (about 1.9M arcs) written every arc, as in bench/run_graph_input.sh
  const Csr kronecker = generate::kronecker(16, 16, 9);
  Pairs every_arc, each_once, mixed;
  std::mt19937_64 rng(5);
  for (std::size_t v = 0; v < kronecker.vertices(); ++v)
    for (std::int64_t e = kronecker.row_offset[v]; e < kronecker.row_offset[v + 1]; ++e) {
      const vertex_t u = static_cast<vertex_t>(v), w = kronecker.column[e];
      every_arc.add(u, w);
      if (u < w && (u + w) % 2) each_once.add(u, w);  // every edge once, either way round
      if (u < w && (u + w) % 2 == 0) each_once.add(w, u);
      if (u < w || rng() % 4 == 0) mixed.add(u, w);
    }
  REQUIRE(every_arc.source.size() > 1500000);
  CHECK(check_read("kronecker-every-arc.txt", every_arc) == Path::symmetric);
  CHECK(check_read("kronecker-each-once.txt", each_once) == Path::reverses_while_building);
  CHECK(check_read("kronecker-mixed.txt", mixed) == Path::symmetrized);
  // and random lists of about three million lines, hub edges repeated either way round
  CHECK(check_read("random-mixed-large.txt",
                   random_list(400000, 1200000, Written::mixed, true, 77)) == Path::symmetrized);
  check_read("random-once-large.txt",
             random_list(1 << 20, 3000000, Written::random_orientation, true, 78));
}

TEST_CASE("symmetrized equals adding every arc's reverse, on directed graphs of every shape") {
  std::mt19937_64 rng(3);
  for (std::size_t n : {0, 1, 2, 3, 97, 4096, 20011}) {
    for (int density : {0, 1, 8}) {
      Pairs arcs;
      for (std::size_t e = 0; e < density * n; ++e)
        arcs.add(rng() % 4 == 0 ? 0 : static_cast<vertex_t>(rng() % n),
                 static_cast<vertex_t>(rng() % n));
      const Csr directed = csr_from_edges(n, arcs.source, arcs.target, false);
      const Csr symmetric = symmetrized(directed);
      CAPTURE(n);
      CAPTURE(density);
      CHECK(same_graph(symmetric, csr_from_edges(n, arcs.source, arcs.target, true)));
      CHECK(has_reverse_arcs(symmetric));
      CHECK(same_graph(symmetrized(symmetric), symmetric));  // nothing to add
      // undirected_edges goes through it: each edge once, u < v
      const EdgeList list = undirected_edges(directed);
      std::size_t upper = 0;
      for (std::size_t v = 0; v < n; ++v)
        for (std::int64_t e = symmetric.row_offset[v]; e < symmetric.row_offset[v + 1]; ++e)
          upper += static_cast<std::size_t>(symmetric.column[e]) > v;
      CHECK(list.edges() == upper);
    }
  }
  const Csr kronecker = generate::kronecker(12, 8, 4);
  CHECK(same_graph(symmetrized(kronecker), kronecker));
}

TEST_CASE("the symmetry check answers for graphs missing one reverse or most of them") {
  // Arcs within each half of the ids have their reverses; `missing` arcs go from the lower half
  // to the upper one alone. One missing is left to the hash pass, most are found by the sample.
  std::mt19937_64 rng(8);
  for (std::size_t missing : {std::size_t(0), std::size_t(1), std::size_t(40000)}) {
    Pairs arcs;
    for (std::size_t e = 0; e < 60000; ++e) {
      const vertex_t u = static_cast<vertex_t>(rng() % 2500),
                     v = static_cast<vertex_t>(rng() % 2500);
      if (e < missing) {
        arcs.add(u, v + 2500);
      } else {
        const vertex_t half = rng() % 2 ? 2500 : 0;
        arcs.add(u + half, v + half);
        arcs.add(v + half, u + half);
      }
    }
    CAPTURE(missing);
    CHECK(has_reverse_arcs(csr_from_edges(5000, arcs.source, arcs.target, false)) == !missing);
  }
}
