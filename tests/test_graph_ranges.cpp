// What a partitioned graph's ranks share with one device, tested on one: the edge stream built in
// rounds, the Kronecker stream cut anywhere, the raw CSR binary read and written by row ranges,
// edge lists parsed by byte ranges, the symmetry test and hash summed over row blocks, row
// normalisation of a block of a larger graph, and the ranged writer leaving nothing behind.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "error_of.hpp"
#include "scratch_directory.hpp"
#include "treefix/graph/csr_binary.hpp"
#include "treefix/graph/detail/arc_hash.hpp"
#include "treefix/graph/edge_list.hpp"
#include "treefix/graph/edge_stream.hpp"
#include "treefix/graph/generate.hpp"
#include "treefix/graph/graph_io.hpp"
#include "treefix/io/ranged_file.hpp"
#include "treefix/io/text_parse.hpp"

using namespace treefix;

namespace {

// Rows [first, last) of g as a block: offsets from 0, global column ids.
Csr block_of(const Csr& g, std::int64_t first, std::int64_t last) {
  Csr rows;
  rows.undirected = g.undirected;
  for (std::int64_t v = first; v <= last; ++v)
    rows.row_offset.push_back(g.row_offset[v] - g.row_offset[first]);
  rows.column.assign(g.column.begin() + g.row_offset[first], g.column.begin() + g.row_offset[last]);
  return rows;
}

}  // namespace

TEST_CASE("graph ranges: rows built from an edge stream equal csr_from_edges, in several rounds") {
  std::mt19937_64 rng(5);
  // 0 edges; fewer than one round; 10007 (prime) edges: eight rounds of 1251, the last short
  for (std::size_t edges : {0, 1, 1000, 10007}) {
    const std::size_t n = 1 + edges / 3;
    std::vector<vertex_t> source, target;
    for (std::size_t i = 0; i < edges; ++i) {
      source.push_back(static_cast<vertex_t>(rng() % n));
      target.push_back(i % 5 ? static_cast<vertex_t>(rng() % n) : source.back());  // loops
    }
    for (bool undirected : {false, true}) {
      CAPTURE(edges);
      CAPTURE(undirected);
      std::size_t made = 0, calls = 0;
      const Csr g = csr_from_edge_stream(
          n, edges, undirected,
          [&](std::uint64_t first, std::uint64_t last, vertex_t* s, vertex_t* t) {
            REQUIRE(first < last);
            REQUIRE(last <= edges);
            std::copy(source.begin() + first, source.begin() + last, s);
            std::copy(target.begin() + first, target.begin() + last, t);
            made += last - first;
            ++calls;
          });
      const Csr expected = csr_from_edges(n, source, target, undirected);
      CHECK(g.row_offset == expected.row_offset);
      CHECK(g.column == expected.column);
      CHECK(g.undirected == undirected);
      CHECK(made == 2 * edges);  // every edge made once to count and once to place
      if (edges == 10007) CHECK(calls == 2 * 8);
    }
  }
}

TEST_CASE("graph ranges: the Kronecker stream is the same edges however it is cut") {
  const std::uint64_t edges = 8 * 1024 + 13;
  std::vector<vertex_t> whole_s(edges), whole_t(edges);
  generate::kronecker_edges(10, 3, 0, edges, whole_s.data(), whole_t.data());
  std::vector<vertex_t> s(edges), t(edges);
  // cuts at awkward places: inside the 16-edge blocks the generator makes at once
  const std::uint64_t cuts[] = {0, 1, 17, 100, 4099, edges};
  for (std::size_t i = 0; i + 1 < std::size(cuts); ++i)
    generate::kronecker_edges(10, 3, cuts[i], cuts[i + 1], s.data() + cuts[i], t.data() + cuts[i]);
  CHECK(s == whole_s);
  CHECK(t == whole_t);
  for (std::uint64_t e = 0; e < edges; ++e) {
    REQUIRE(whole_s[e] >= 0);
    REQUIRE(whole_s[e] < 1024);
    REQUIRE(whole_t[e] < 1024);
  }
  const Csr g = generate::kronecker(10, 8, 3);
  CHECK(g.vertices() == 1024);
  CHECK(g.column ==
        csr_from_edges(1024, std::vector<vertex_t>(whole_s.begin(), whole_s.begin() + 8192),
                       std::vector<vertex_t>(whole_t.begin(), whole_t.begin() + 8192), true)
            .column);
}

TEST_CASE("graph ranges: symmetry sums and the hash add up over row blocks") {
  const Csr g = generate::kronecker(9, 8, 2);
  const detail::ArcKey key = detail::ArcKey::fresh();
  const detail::ArcSums whole = detail::arc_sums(g, 0, key, true);
  detail::ArcSums blocks;
  std::uint64_t hash = 0;
  const std::int64_t cuts[] = {0, 32, 33, 300, 512};
  for (std::size_t i = 0; i + 1 < std::size(cuts); ++i) {
    const Csr rows = block_of(g, cuts[i], cuts[i + 1]);
    const detail::ArcSums part = detail::arc_sums(rows, cuts[i], key, true);
    for (int lane = 0; lane < 2; ++lane) {
      blocks.forward[lane] += part.forward[lane];
      blocks.reverse[lane] += part.reverse[lane];
    }
    hash += detail::arc_hash_sum(rows, cuts[i]);
  }
  for (int lane = 0; lane < 2; ++lane) {
    CHECK(blocks.forward[lane] == whole.forward[lane]);
    CHECK(blocks.reverse[lane] == whole.reverse[lane]);
    CHECK(whole.forward[lane] == whole.reverse[lane]);  // undirected
  }
  CHECK(hash == detail::arc_hash_sum(g, 0));
  CHECK(graph_hash(g) != graph_hash(generate::kronecker(9, 8, 3)));
  // one arc missing its reverse: the sums tell
  Csr directed = g;
  directed.column.erase(directed.column.begin() + directed.row_offset[1]);
  for (std::size_t v = 1; v < directed.row_offset.size(); ++v) --directed.row_offset[v];
  directed.row_offset[0] = 0;
  const detail::ArcSums missing = detail::arc_sums(directed, 0, key, true);
  CHECK(missing.forward[0] != missing.reverse[0]);
}

TEST_CASE("graph ranges: a block's rows are normalised against their own vertices") {
  // rows of vertices 64..66 of a larger graph: self loops are arcs to 64 + v, repeats merge
  Csr rows;
  rows.row_offset = {0, 4, 6, 9};
  rows.column = {70, 64, 70, 3, 65, 65, 66, 1, 66};
  normalize_rows(rows, 64);
  CHECK(rows.row_offset == std::vector<std::int64_t>{0, 2, 2, 3});
  CHECK(rows.column == std::vector<vertex_t>{3, 70, 1});
}

TEST_CASE("graph ranges: the raw CSR binary read and written by row ranges") {
  test::ScratchDirectory dir("treefix-graph-ranges");
  const Csr g = generate::kronecker(8, 4, 9);
  const std::string whole = (dir.path / "whole.csr").string();
  GraphWriteOptions as_csr;
  as_csr.format = GraphFormat::csr;
  write_graph(whole, g, as_csr);
  const RangedReader file(whole);
  const CsrBinaryHeader header = read_csr_binary_header(file);
  CHECK(header.vertices == g.vertices());
  CHECK(header.file_bytes() == file.size());
  const std::int64_t cuts[] = {0, 32, 32, 97, 256};  // an empty block among them
  const std::string pieces = (dir.path / "pieces.csr").string();
  {
    RangedWriter out(pieces, header.file_bytes(), RangedWriter::create);
    write_csr_binary_header(out, header);
    for (std::size_t i = 0; i + 1 < std::size(cuts); ++i) {
      const Csr rows = read_csr_binary_rows(file, header, cuts[i], cuts[i + 1]);
      const Csr expected = block_of(g, cuts[i], cuts[i + 1]);
      CHECK(rows.row_offset == expected.row_offset);
      CHECK(rows.column == expected.column);
      write_csr_binary_rows(out, header, cuts[i], g.row_offset[cuts[i]], rows, cuts[i + 1] == 256);
    }
    CHECK(std::filesystem::exists(pieces + ".partial"));
    CHECK_FALSE(std::filesystem::exists(pieces));
    out.sync();
    out.commit();
  }
  CHECK_FALSE(std::filesystem::exists(pieces + ".partial"));
  const Csr back = read_graph(pieces);
  CHECK(back.row_offset == g.row_offset);
  CHECK(back.column == g.column);
  // a writer that never commits leaves nothing behind
  const std::string abandoned = (dir.path / "abandoned.csr").string();
  { RangedWriter out(abandoned, 100, RangedWriter::create); }
  CHECK_FALSE(std::filesystem::exists(abandoned + ".partial"));
  CHECK_FALSE(std::filesystem::exists(abandoned));
  // bad rows name the whole graph's row and arc
  std::vector<char> bytes(file.size());
  file.read(bytes.data(), bytes.size(), 0);
  const std::int64_t bad_arc = g.row_offset[100];
  const vertex_t outside = 999;
  std::memcpy(bytes.data() + header.columns_at() + bad_arc * 4, &outside, 4);
  const std::string broken = (dir.path / "broken.csr").string();
  std::ofstream(broken, std::ios::binary).write(bytes.data(), bytes.size());
  const RangedReader broken_file(broken);
  CHECK_NOTHROW(read_csr_binary_rows(broken_file, header, 0, 97));
  CHECK(test::error_of([&] { read_csr_binary_rows(broken_file, header, 97, 256); }) ==
        broken + ": arc " + std::to_string(bad_arc) + " goes to vertex 999, outside 0..255");
}

TEST_CASE("graph ranges: edge lists parsed by byte ranges, lines numbered as in the file") {
  test::ScratchDirectory dir("treefix-edge-ranges");
  const std::string path = (dir.path / "g.txt").string();
  std::string text = "# a comment\n";
  std::vector<vertex_t> source, target;
  for (int i = 0; i < 500; ++i) {
    source.push_back(i % 37), target.push_back((i * 7) % 41);
    text +=
        std::to_string(source.back()) + (i % 3 ? " " : "\t") + std::to_string(target.back()) + "\n";
    if (i % 50 == 0) text += "\n% another\n";
  }
  text += "5 6";  // no newline at the end
  source.push_back(5), target.push_back(6);
  std::ofstream(path) << text;
  for (std::size_t ranges : {1, 2, 3, 7, 64}) {
    CAPTURE(ranges);
    std::vector<vertex_t> s, t;
    std::size_t line = 1, largest = 0;
    for (std::size_t r = 0; r < ranges; ++r) {
      TextFile lines(path, {text.size() * r / ranges, text.size() * (r + 1) / ranges});
      lines.number_lines_from(line);
      line += std::count(lines.text().begin(), lines.text().end(), '\n');
      const EdgeList part = parse_edge_list(lines);
      s.insert(s.end(), part.source.begin(), part.source.end());
      t.insert(t.end(), part.target.begin(), part.target.end());
      largest = std::max(largest, part.vertices);
    }
    CHECK(s == source);
    CHECK(t == target);
    CHECK(largest == 41);
  }
  // a bad token: the line as the whole file numbers it, whichever range holds it
  std::string bad = text;
  const std::size_t at = bad.find("\n12 ");
  REQUIRE(at != std::string::npos);
  bad.replace(at + 1, 2, "1x");
  const std::size_t bad_line = std::count(bad.begin(), bad.begin() + at + 1, '\n') + 1;
  std::ofstream(path) << bad;
  std::string found;
  std::size_t line = 1;
  for (std::size_t r = 0; r < 3; ++r) {
    TextFile lines(path, {bad.size() * r / 3, bad.size() * (r + 1) / 3});
    lines.number_lines_from(line);
    line += std::count(lines.text().begin(), lines.text().end(), '\n');
    try {
      parse_edge_list(lines);
    } catch (const InputError& e) {
      if (found.empty()) found = e.what();
    }
  }
  CHECK(found.rfind(path + ":" + std::to_string(bad_line) + ":", 0) == 0);
}
