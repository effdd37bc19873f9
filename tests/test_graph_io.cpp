// Graph readers (Matrix Market, edge list, METIS) and graph generators.
#include <doctest/doctest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>

#include "treefix/core/error.hpp"
#include "treefix/graph/bfs.hpp"
#include "treefix/graph/generate.hpp"
#include "treefix/graph/graph_io.hpp"
#include "treefix/treefix/generate.hpp"

using namespace treefix;

namespace {

std::string data_path(const std::string& name) {
  return (std::filesystem::path(__FILE__).parent_path() / "data" / name).string();
}

std::string scratch_file(const std::string& name, const std::string& text) {
  auto dir =
      std::filesystem::temp_directory_path() / ("treefix-graph-io-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::vector<vertex_t> row(const Csr& g, vertex_t v) {
  return {g.column.begin() + g.row_offset[v], g.column.begin() + g.row_offset[v + 1]};
}

// The message of the InputError that reading `text` as `name` raises ("" when none).
std::string read_error(const std::string& name, const std::string& text) {
  auto path = scratch_file(name, text);
  try {
    read_graph(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

bool symmetric(const Csr& g) {
  for (std::size_t v = 0; v < g.vertices(); ++v)
    for (vertex_t u : row(g, static_cast<vertex_t>(v))) {
      auto r = row(g, u);
      if (!std::binary_search(r.begin(), r.end(), static_cast<vertex_t>(v))) return false;
    }
  return true;
}

}  // namespace

TEST_CASE("a symmetric pattern Matrix Market file gives both directions of every edge") {
  Csr g = read_graph(data_path("petersen.mtx"));
  CHECK(g.vertices() == 10);
  CHECK(g.edges() == 30);
  for (vertex_t v = 0; v < 10; ++v) CHECK(g.degree(v) == 3);
  CHECK(symmetric(g));
  CHECK(row(g, 0) == std::vector<vertex_t>{1, 4, 5});
  CHECK(g.undirected);
}

TEST_CASE(
    "a general real Matrix Market file keeps arc directions, drops self loops and duplicates") {
  Csr g = read_graph(data_path("directed_real.mtx"));
  CHECK(g.vertices() == 7);
  CHECK(g.edges() == 7);
  CHECK(row(g, 0) == std::vector<vertex_t>{1, 2});
  CHECK(row(g, 2) == std::vector<vertex_t>{3});
  CHECK(row(g, 4) == std::vector<vertex_t>{0});
  CHECK(row(g, 6).empty());
  CHECK_FALSE(g.undirected);
}

TEST_CASE("METIS files: empty lines are isolated vertices, comments are skipped, weights read") {
  Csr g = read_graph(data_path("two_triangles.graph"));
  CHECK(g.vertices() == 7);
  CHECK(g.edges() == 14);
  CHECK(row(g, 2) == std::vector<vertex_t>{0, 1, 3});
  CHECK(row(g, 6).empty());
  CHECK(symmetric(g));
  Csr w = read_graph(data_path("weighted.graph"));
  CHECK(w.vertices() == 4);
  CHECK(row(w, 0) == std::vector<vertex_t>{1, 3});
  CHECK(row(w, 2) == std::vector<vertex_t>{1, 3});
}

TEST_CASE("edge lists are 0-based, undirected by default, with # and % comments") {
  auto path = scratch_file("list.txt", "# comment\n0 1\n1 2 % trailing comment\n\n2 0\n1 0\n3 3\n");
  Csr g = read_graph(path);
  CHECK(g.vertices() == 4);
  CHECK(row(g, 0) == std::vector<vertex_t>{1, 2});
  CHECK(row(g, 1) == std::vector<vertex_t>{0, 2});
  CHECK(row(g, 3).empty());
  GraphReadOptions directed;
  directed.edges_directed = true;
  Csr d = read_graph(path, directed);
  CHECK(row(d, 0) == std::vector<vertex_t>{1});
  CHECK(row(d, 1) == std::vector<vertex_t>{0, 2});
}

TEST_CASE("a skew-symmetric Matrix Market file with a diagonal entry is refused") {
  const std::string skew = "%%MatrixMarket matrix coordinate real skew-symmetric\n";
  CHECK(read_error("skew.mtx", skew + "3 3 2\n2 1 1.5\n3 3 2\n")
            .find("skew.mtx:4: entry 2 (3, 3) is on the diagonal") != std::string::npos);
  // Without a diagonal entry it is read: both directions of every entry.
  const Csr g = read_graph(scratch_file("skew_ok.mtx", skew + "3 3 2\n2 1 1.5\n3 2 -1\n"));
  CHECK(g.edges() == 4);
  CHECK(g.undirected);
}

TEST_CASE("malformed graph files are rejected with the file line") {
  const std::string banner = "%%MatrixMarket matrix coordinate pattern general\n";
  CHECK(read_error("a.mtx", "hello\n").find("a.mtx:1: not a Matrix Market") != std::string::npos);
  CHECK(read_error("b.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n")
            .find("coordinate") != std::string::npos);
  CHECK(read_error("c.mtx", banner + "3 3 2\n1 2\n1 4\n")
            .find("c.mtx:4: column index 4 outside 1..3") != std::string::npos);
  CHECK(read_error("d.mtx", banner + "3 3 3\n1 2\n2 3\n").find("d.mtx:4: file ends after 2 of 3") !=
        std::string::npos);
  CHECK(read_error("e.mtx", banner + "3 4 1\n1 2\n").find("square") != std::string::npos);
  CHECK(read_error("f.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2\n")
            .find("f.mtx:3: entry without its value") != std::string::npos);
  CHECK(read_error("g.mtx", banner + "2 2 1\n1 2\n2 1\n").find("g.mtx:4: unexpected '2'") !=
        std::string::npos);
  CHECK(read_error("h.txt", "0 1\n1 x\n").find("h.txt:2: expected a vertex id") !=
        std::string::npos);
  CHECK(read_error("i.txt", "0 1\n2\n3 4\n").find("i.txt:2: an edge line needs two vertex ids") !=
        std::string::npos);
  CHECK(read_error("j.txt", "0 1\n-4 2\n").find("j.txt:2:") != std::string::npos);
  CHECK(read_error("k.txt", std::string("0 1\n1 \0 2\n", 10)).find("k.txt:2: binary data") !=
        std::string::npos);
  CHECK(read_error("l.graph", "3 2\n2\n1 3\n2 1\n").find("header says 2 edges") !=
        std::string::npos);
  CHECK(read_error("m.graph", "3 1\n2\n1 4\n").find("m.graph:3: neighbour 4 outside 1..3") !=
        std::string::npos);
  CHECK(read_error("n.graph", "2 1\n2\n1\n1\n").find("n.graph:4: more vertex lines") !=
        std::string::npos);
  CHECK(read_error("o.graph", "2 1 1\n2\n1 5\n")
            .find("o.graph:2: a neighbour without its edge weight") != std::string::npos);
  CHECK(read_error("p.graph", "").find("empty file") != std::string::npos);
  CHECK_THROWS_AS(read_graph("/nonexistent/file.mtx"), InputError);
}

TEST_CASE("Matrix Market and edge list writers round-trip a generated graph") {
  Csr g = generate::kronecker(8, 4, 3);
  std::ostringstream mtx, edges;
  write_matrix_market(mtx, g);
  write_edge_list(edges, g);
  Csr from_mtx = read_graph(scratch_file("k.mtx", mtx.str()));
  GraphReadOptions directed;
  directed.edges_directed = true;
  Csr from_edges = read_graph(scratch_file("k.edges", edges.str()), directed);
  CHECK(from_mtx.row_offset == g.row_offset);
  CHECK(from_mtx.column == g.column);
  // the edge list cannot express trailing isolated vertices: compare the rows it has
  REQUIRE(from_edges.vertices() <= g.vertices());
  CHECK(std::equal(from_edges.column.begin(), from_edges.column.end(), g.column.begin()));
}

TEST_CASE("Kronecker graphs are undirected, loop-free, skewed, and deterministic per seed") {
  Csr g = generate::kronecker(12, 16, 7);
  CHECK(g.vertices() == 4096);
  CHECK(g.edges() > 4096 * 16);  // both directions of most of the 16n generated edges
  CHECK(g.edges() <= 2 * 4096 * 16);
  CHECK(symmetric(g));
  std::size_t largest = 0;
  for (vertex_t v = 0; v < 4096; ++v) {
    auto r = row(g, v);
    CHECK_FALSE(std::binary_search(r.begin(), r.end(), v));
    largest = std::max(largest, r.size());
  }
  CHECK(largest > 10 * g.edges() / g.vertices());  // R-MAT hubs
  Csr again = generate::kronecker(12, 16, 7);
  CHECK(again.column == g.column);
}

TEST_CASE("grids have 4-neighbourhoods and diameter rows + cols - 2") {
  Csr g = generate::grid2d(37, 41);
  CHECK(g.vertices() == 37 * 41);
  CHECK(g.edges() == 2 * (36 * 41 + 37 * 40));
  CHECK(symmetric(g));
  auto r = bfs_reference(g, 0);
  CHECK(r.levels == 37 + 41 - 1);
  CHECK(r.depth.back() == 36 + 40);
  CHECK(generate::grid2d(0, 5).vertices() == 0);
  CHECK(generate::grid2d(1, 1).edges() == 0);
}

TEST_CASE("BFS spanning trees are valid trees of the graph; unreachable vertices are roots") {
  Csr g = read_graph(data_path("two_triangles.graph"));
  ParentArray tree = generate::bfs_spanning_tree(g, 0);
  CHECK_NOTHROW(validate_parent_array(tree));
  CHECK(tree == ParentArray{-1, 0, 0, 2, 3, 3, -1});
  Csr k = generate::kronecker(10, 8, 1);
  ParentArray kt = generate::bfs_spanning_tree(k, 0);
  auto ref = bfs_reference(k, 0);
  CHECK(bfs_tree_problem(k, 0, ref.depth, ref.depth, kt).empty());
  CHECK_THROWS_AS(generate::bfs_spanning_tree(k, 1024), InputError);
}

TEST_CASE("mutated and random graph files either read as valid graphs or fail with InputError") {
  std::mt19937_64 rng(2024);
  const std::string alphabet = std::string("0123456789 \n-+%#.eE9x") + '\0';
  std::vector<std::pair<std::string, std::string>> seeds;
  for (const char* name :
       {"petersen.mtx", "directed_real.mtx", "two_triangles.graph", "weighted.graph"}) {
    std::ifstream in(data_path(name), std::ios::binary);
    seeds.emplace_back(name, std::string(std::istreambuf_iterator<char>(in), {}));
  }
  seeds.emplace_back("list.txt", "0 1\n1 2\n2 3 # c\n3 0\n");
  int accepted = 0, rejected = 0;
  for (int trial = 0; trial < 600; ++trial) {
    auto& [name, text] = seeds[trial % seeds.size()];
    std::string mutated = text;
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !mutated.empty(); ++e) {
      std::size_t at = rng() % mutated.size();
      switch (rng() % 3) {
        case 0:
          mutated[at] = alphabet[rng() % alphabet.size()];
          break;
        case 1:
          mutated.erase(at, 1 + rng() % 8);
          break;
        default:
          mutated.insert(at, 1, alphabet[rng() % alphabet.size()]);
          break;
      }
    }
    if (trial % 50 == 0) {  // pure garbage too
      mutated.clear();
      for (int i = 0; i < 300; ++i) mutated += static_cast<char>(rng() % 256);
    }
    auto path = scratch_file("fuzz-" + name, mutated);
    try {
      Csr g = read_graph(path);
      for (vertex_t u : g.column) REQUIRE((u >= 0 && static_cast<std::size_t>(u) < g.vertices()));
      REQUIRE(g.row_offset.size() == g.vertices() + 1);
      ++accepted;
    } catch (const InputError& e) {
      CHECK(std::string(e.what()).find(path) == 0);  // every message names the file
      ++rejected;
    }
  }
  CHECK(accepted > 0);
  CHECK(rejected > 0);
}
