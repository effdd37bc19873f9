// Graph input at scale: the parallel CSR build against a set-based reference, SciPy .npz and raw
// CSR round trips (and SciPy's own files), parser errors at exact lines across chunk boundaries,
// and capacity refusals that come at once.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <sstream>

#include "error_of.hpp"
#include "fixture.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/graph/csr_binary.hpp"
#include "treefix/graph/edge_list.hpp"
#include "treefix/graph/generate.hpp"
#include "treefix/graph/graph_io.hpp"
#include "treefix/io/npy.hpp"
#include "treefix/io/npz.hpp"
#include "treefix/io/text_parse.hpp"

using namespace treefix;
using test::error_of;

namespace {

std::string data_path(const std::string& name) {
  return (std::filesystem::path(__FILE__).parent_path() / "data" / name).string();
}

std::string scratch(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() /
             ("treefix-graph-formats-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

std::string scratch_file(const std::string& name, const std::string& bytes) {
  const std::string path = scratch(name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<vertex_t> row(const Csr& g, vertex_t v) {
  return {g.column.begin() + g.row_offset[v], g.column.begin() + g.row_offset[v + 1]};
}

std::string read_error(const std::string& path, const GraphReadOptions& options = {}) {
  return error_of([&] { read_graph(path, options); });
}

bool same_graph(const Csr& a, const Csr& b) {
  return a.row_offset == b.row_offset && a.column == b.column && a.undirected == b.undirected;
}

}  // namespace

TEST_CASE("the parallel CSR build equals a set-based reference: duplicates, loops, hubs") {
  std::mt19937_64 rng(11);
  for (std::size_t n :
       {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(97), std::size_t(5000)}) {
    for (bool undirected : {false, true}) {
      std::vector<vertex_t> source, target;
      const std::size_t m = n ? 6 * n + 13 : 0;
      for (std::size_t e = 0; e < m; ++e) {
        // a third of the arcs touch vertex 0 (a hub), some are loops, many repeat
        const vertex_t u = rng() % 3 == 0 ? 0 : static_cast<vertex_t>(rng() % n);
        const vertex_t v = rng() % 17 == 0 ? u : static_cast<vertex_t>(rng() % n);
        source.push_back(u);
        target.push_back(v);
        if (rng() % 5 == 0) {
          source.push_back(u);
          target.push_back(v);
        }
      }
      std::vector<std::set<vertex_t>> reference(n);
      for (std::size_t e = 0; e < source.size(); ++e) {
        if (source[e] == target[e]) continue;
        reference[source[e]].insert(target[e]);
        if (undirected) reference[target[e]].insert(source[e]);
      }
      const Csr g = csr_from_edges(n, source, target, undirected);
      REQUIRE(g.vertices() == n);
      for (std::size_t v = 0; v < n; ++v)
        CHECK(row(g, static_cast<vertex_t>(v)) ==
              std::vector<vertex_t>(reference[v].begin(), reference[v].end()));
      CHECK(g.undirected == undirected);
      if (undirected) CHECK(has_reverse_arcs(g));
    }
  }
  CHECK_THROWS_AS(csr_from_edges(3, std::vector<vertex_t>{0, 3}, std::vector<vertex_t>{1, 1}, true),
                  InputError);
}

TEST_CASE("the symmetry check finds one missing reverse among many arcs") {
  Csr g = generate::kronecker(12, 8, 5);
  REQUIRE(has_reverse_arcs(g));
  // drop the last arc of the busiest row: its reverse is now alone
  std::size_t hub = 0;
  for (std::size_t v = 0; v < g.vertices(); ++v)
    if (g.degree(static_cast<vertex_t>(v)) > g.degree(static_cast<vertex_t>(hub))) hub = v;
  std::vector<vertex_t> source, target;
  for (std::size_t v = 0; v < g.vertices(); ++v)
    for (std::int64_t e = g.row_offset[v]; e < g.row_offset[v + 1]; ++e)
      if (!(v == hub && e + 1 == g.row_offset[v + 1])) {
        source.push_back(static_cast<vertex_t>(v));
        target.push_back(g.column[e]);
      }
  const Csr directed = csr_from_edges(g.vertices(), source, target, false);
  CHECK(directed.edges() + 1 == g.edges());
  CHECK_FALSE(has_reverse_arcs(directed));
}

TEST_CASE("a graph's undirected edges: each once, an arc without its reverse included") {
  const Csr directed = csr_from_edges(5, std::vector<vertex_t>{0, 1, 3, 2},
                                      std::vector<vertex_t>{1, 0, 2, 4}, false);
  const EdgeList list = undirected_edges(directed);
  CHECK(list.vertices == 5);
  CHECK(list.source == std::vector<vertex_t>{0, 2, 2});
  CHECK(list.target == std::vector<vertex_t>{1, 3, 4});
  const EdgeList grid = undirected_edges(generate::grid2d(3, 4));
  CHECK(grid.edges() == 2 * 4 + 3 * 3);
}

TEST_CASE("SciPy's save_npz files read as their graphs, compressed or stored, int64 or not") {
  const Csr petersen = read_graph(data_path("petersen.mtx"));
  for (const char* name : {"npz/petersen_compressed.npz", "npz/petersen_stored.npz"}) {
    const Csr g = read_graph(data_path(name));
    CHECK(same_graph(g, petersen));
  }
  // rows unsorted, a duplicate, diagonal entries, int64 indices: the library's form after reading
  const Csr d = read_graph(data_path("npz/directed_int64_unsorted.npz"));
  REQUIRE(d.vertices() == 5);
  CHECK(row(d, 0) == std::vector<vertex_t>{1, 2, 3});
  CHECK(row(d, 1) == std::vector<vertex_t>{0});
  CHECK(row(d, 2).empty());
  CHECK(row(d, 3) == std::vector<vertex_t>{4});
  CHECK(row(d, 4).empty());
  CHECK_FALSE(d.undirected);
  CHECK(read_error(data_path("npz/petersen_coo.npz")).find("holds a 'coo' matrix") !=
        std::string::npos);
}

TEST_CASE("graphs round-trip through .npz (stored, compressed) and the raw CSR binary") {
  std::vector<Csr> graphs = {generate::kronecker(11, 8, 3), generate::grid2d(17, 23), Csr{},
                             read_graph(data_path("directed_real.mtx"))};
  graphs[2].row_offset = {0, 0, 0};  // two isolated vertices: no arc lacks its reverse
  graphs[2].undirected = true;
  for (std::size_t i = 0; i < graphs.size(); ++i) {
    const Csr& g = graphs[i];
    for (const char* name : {"g.npz", "g.csr"})
      for (bool compress : {false, true}) {
        CAPTURE(i);
        CAPTURE(name);
        CAPTURE(compress);
        const std::string path = scratch(name);
        GraphWriteOptions write;
        write.compress = compress;
        write_graph(path, g, write);
        CHECK(same_graph(read_graph(path), g));
      }
  }
  // the text formats keep it too (METIS for undirected graphs; it refuses directed ones)
  const Csr& k = graphs[0];
  for (const char* name : {"k.graph", "k.mtx"}) {
    write_graph(scratch(name), k);
    CHECK(same_graph(read_graph(scratch(name)), k));
  }
  CHECK(error_of([&] { write_graph(scratch("d.graph"), graphs[3]); }).find("undirected") !=
        std::string::npos);
  CHECK_FALSE(std::filesystem::exists(scratch("d.graph")));
}

TEST_CASE("npz archives: zip64 records, CRC and truncation are checked") {
  const std::vector<std::int64_t> values = {5, -1, 1LL << 40, 7};
  for (bool compress : {false, true})
    for (bool zip64 : {false, true}) {
      std::ostringstream out;
      NpzWriter writer(out, compress, zip64);
      writer.add("values", "<i8", {values.size()}, values.data(), values.size() * 8);
      writer.add("empty", "<i4", {0}, nullptr, 0);
      writer.finish();
      const std::string path = scratch_file("a.npz", out.str());
      NpzReader archive(path);
      std::string storage;
      const std::string_view bytes = archive.member("values", storage);
      const NpyHeader header = parse_npy_header(bytes, "values");
      REQUIRE(header.size() == values.size());
      CHECK(std::memcmp(bytes.data() + header.data_offset, values.data(), 32) == 0);
      CHECK(parse_npy_header(archive.member("empty", storage), "empty").size() == 0);
      CHECK_FALSE(archive.has("missing"));
      // a flipped byte of the data: the CRC (or the deflate stream) says so
      std::string damaged = out.str();
      const std::size_t at = damaged.find("\x93NUMPY");
      damaged[compress ? 60 : at + 130] ^= 0x10;
      const std::string damaged_path = scratch_file("damaged.npz", damaged);
      CHECK(error_of([&] {
              NpzReader broken(damaged_path);
              broken.member("values", storage);
            }).find("damaged.npz[values]") != std::string::npos);
      // cut short: the directory is gone
      const std::string cut = scratch_file("cut.npz", out.str().substr(0, out.str().size() / 2));
      CHECK(error_of([&] { NpzReader broken(cut); }).find("not a readable .npz") !=
            std::string::npos);
    }
}

TEST_CASE("the raw CSR binary refuses a damaged file by its size and its checks") {
  const Csr g = generate::kronecker(8, 4, 9);
  write_graph(scratch("good.csr"), g);
  const std::string good = file_bytes(scratch("good.csr"));
  auto with = [&](std::size_t at, const void* bytes, std::size_t count) {
    std::string copy = good;
    copy.replace(at, count, static_cast<const char*>(bytes), count);
    return scratch_file("bad.csr", copy);
  };
  CHECK(
      read_error(scratch_file("short.csr", good.substr(0, good.size() - 4))).find("(truncated)") !=
      std::string::npos);
  CHECK(read_error(scratch_file("long.csr", good + "x")).find("holds") != std::string::npos);
  CHECK(read_error(scratch_file("text.csr", "0 1\n")).find("not a treefix CSR binary") !=
        std::string::npos);
  const std::uint32_t version = 2;
  CHECK(read_error(with(8, &version, 4)).find("version 2") != std::string::npos);
  const std::int64_t backwards = 1 << 20;  // row offset 1 larger than all that follow
  CHECK(read_error(with(64 + 8, &backwards, 8)).find("is smaller than row offset") !=
        std::string::npos);
  const std::int32_t outside = 256;
  const std::size_t columns = 64 + 8 * (g.vertices() + 1);
  CHECK(read_error(with(columns + 4 * 3, &outside, 4)).find("arc 3 goes to vertex 256") !=
        std::string::npos);
  // a column changed to another vertex: rows still in range, the undirected flag now false
  const std::int32_t other = g.column[0] == 1 ? 2 : 1;
  CHECK(read_error(with(columns, &other, 4)).find("lacks its reverse") != std::string::npos);
  // a header claiming 2*10^9 vertices: refused by its size, at once
  const std::uint64_t claim = 2000000000;
  CHECK(read_error(with(16, &claim, 8)).find("promises 2000000000 vertices") != std::string::npos);
}

TEST_CASE("parser errors name their line, also at the chunk boundaries of a large file") {
  // An edge list of ~4 MiB: several chunks per parse. Errors are planted by replacing bytes
  // without moving any newline, so the chunks stay where they are.
  std::string text;
  for (int i = 0; text.size() < (std::size_t(4) << 20); ++i)
    text += std::to_string(100000 + i % 900000) + " " + std::to_string(100000 + (7 * i) % 900000) +
            "\n";
  const std::string path = scratch_file("big.txt", text);
  TextFile file(path);
  TokenChunks chunks(file, 0, "#%");
  REQUIRE(chunks.chunks() >= 2);
  const std::size_t boundary = chunks.first_line(1);  // the first line of the second chunk
  auto line_start = [&](std::size_t line) {           // byte offset of a 1-based line
    std::size_t at = 0;
    for (std::size_t l = 1; l < line; ++l) at = text.find('\n', at) + 1;
    return at;
  };
  auto planted = [&](std::vector<std::pair<std::size_t, std::string>> edits) {
    std::string copy = text;
    for (auto& [line, replacement] : edits)
      copy.replace(line_start(line), replacement.size(), replacement);
    return scratch_file("bad.txt", copy);
  };
  // a bad token opening the second chunk, closing the first, and the earlier of two
  CHECK(read_error(planted({{boundary, "12x"}}))
            .find("bad.txt:" + std::to_string(boundary) + ": expected a vertex id, found '12x") !=
        std::string::npos);
  CHECK(read_error(planted({{boundary - 1, "-7"}}))
            .find("bad.txt:" + std::to_string(boundary - 1) + ": vertex id -7") !=
        std::string::npos);
  CHECK(read_error(planted({{boundary + 1, "x"}, {boundary - 1, "y"}}))
            .find("bad.txt:" + std::to_string(boundary - 1) + ":") != std::string::npos);
  // the last line of a chunk with one id only: not paired with the next chunk's first token
  std::string half = text;
  const std::size_t start = line_start(boundary - 1), space = half.find(' ', start);
  half.replace(space, half.find('\n', start) - space,
               std::string(half.find('\n', start) - space, ' '));
  CHECK(read_error(scratch_file("half.txt", half))
            .find("half.txt:" + std::to_string(boundary - 1) +
                  ": an edge line needs two vertex ids") != std::string::npos);
  // the same text as Matrix Market entries (1-based, after the size line), an error opening the
  // second chunk of the entries
  const std::string banner = "%%MatrixMarket matrix coordinate pattern general\n1000000 1000000 " +
                             std::to_string(std::count(text.begin(), text.end(), '\n')) + "\n";
  std::string mtx = banner + text;
  const std::string mtx_path = scratch_file("big.mtx", mtx);
  TextFile mtx_file(mtx_path);
  const std::size_t mtx_boundary = TokenChunks(mtx_file, banner.size(), "%").first_line(1);
  mtx.replace(banner.size() + line_start(mtx_boundary - 2), 6, "000000");
  const std::string mtx_error = read_error(scratch_file("bad.mtx", mtx));
  CAPTURE(mtx_error);
  CHECK(mtx_error.find("bad.mtx:" + std::to_string(mtx_boundary) +
                       ": row index 0 outside 1..1000000") != std::string::npos);
}

TEST_CASE("METIS lines are vertices across chunks; files need all n lines") {
  // a path of n vertices, ~3 MiB of lines, read in chunks: row v lists v-1 and v+1
  const std::size_t n = 400000;
  std::string text = "% a path\n" + std::to_string(n) + " " + std::to_string(n - 1) + "\n";
  for (std::size_t v = 1; v <= n; ++v) {
    if (v == n / 2) text += "% a comment line between vertex lines\n";
    if (v > 1) text += std::to_string(v - 1);
    if (v < n) text += (v > 1 ? " " : "") + std::to_string(v + 1);
    text += "\n";
  }
  const Csr g = read_graph(scratch_file("path.graph", text));
  REQUIRE(g.vertices() == n);
  CHECK(g.edges() == 2 * (n - 1));
  CHECK(g.undirected);
  CHECK(row(g, 0) == std::vector<vertex_t>{1});
  CHECK(row(g, static_cast<vertex_t>(n / 2)) ==
        std::vector<vertex_t>{static_cast<vertex_t>(n / 2 - 1), static_cast<vertex_t>(n / 2 + 1)});
  // trailing empty lines are fine; a missing vertex line is not
  CHECK(read_graph(scratch_file("t.graph", "3 1\n2\n1\n\n\n\n")).vertices() == 3);
  CHECK(read_error(scratch_file("short.graph", "4 1\n2\n1\n"))
            .find("short.graph:4: the file ends after 2 of the 4 vertex lines") !=
        std::string::npos);
  CHECK(read_error(scratch_file("c.graph", "2 1\n2 % no\n1\n")).find("c.graph:2: a comment") !=
        std::string::npos);
}

TEST_CASE("METIS: the last vertex, isolated, may be the empty line after the last newline") {
  // Lines joined with "\n" and no newline at the end: the last vertex's empty line has none.
  const Csr g = read_graph(scratch_file("joined.graph", "3 1\n2\n1\n"));
  REQUIRE(g.vertices() == 3);
  CHECK(g.edges() == 2);
  CHECK(row(g, 2).empty());
  CHECK(read_graph(scratch_file("one.graph", "1 0\n")).vertices() == 1);
  CHECK(read_error(scratch_file("cut.graph", "3 1\n2\n1")).find("ends after 2 of the 3") !=
        std::string::npos);
}

TEST_CASE("claims of 2*10^9 vertices are refused at once, with the numbers") {
  GraphReadOptions small;
  small.limits.host_bytes = std::uint64_t(1) << 30;  // 1 GiB, whatever the host has
  const auto start = std::chrono::steady_clock::now();
  const std::string banner = "%%MatrixMarket matrix coordinate pattern general\n";
  const std::string mtx =
      read_error(scratch_file("h.mtx", banner + "2000000000 2000000000 1\n1 2\n"), small);
  CHECK(mtx.find("a graph of 2000000000 vertices and 1 arcs needs") != std::string::npos);
  CHECK(mtx.find("the limit is 1024.0 MiB") != std::string::npos);
  CHECK(read_error(scratch_file("id.txt", "0 1\n5 2000000000\n"), small)
            .find("a graph of 2000000001 vertices") != std::string::npos);
  // truncated files: the size says so before any counting
  CHECK(read_error(scratch_file("t.graph", "2000000000 1\n2\n1\n"))
            .find("t.graph:1: the header promises 2000000000 vertices") != std::string::npos);
  CHECK(read_error(scratch_file("e.mtx", banner + "5 5 2000000000\n" + std::string(2 << 20, '\n')))
            .find("promises 2000000000 entries") != std::string::npos);
  // beyond 32-bit ids, whatever the memory
  CHECK(read_error(scratch_file("w.mtx", banner + "3000000000 3000000000 0\n"))
            .find("exceeds the 2^31-1 vertices") != std::string::npos);
  // the forests of `root`: refused before the file is read when the count is given
  const std::string forest = scratch_file("f.txt", "0 1\n");
  GraphLimits limits;
  limits.host_bytes = std::uint64_t(1) << 30;
  CHECK(error_of([&] {
          read_edge_list_strict(forest, 2000000000, nullptr, limits);
        }).find("a forest of 2000000000 vertices") != std::string::npos);
  CHECK(error_of([&] {
          read_edge_list_strict(forest, 3000000000LL, nullptr, limits);
        }).find("exceed the 2^31-1") != std::string::npos);
  // a header that promises no entries at all
  CHECK(read_error(scratch_file("e0.mtx", banner + "2000000000 2000000000 0\n"), small)
            .find("a graph of 2000000000 vertices and 0 arcs needs") != std::string::npos);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

TEST_CASE(
    "capacity: one message with the host's and the device's numbers; a CPU device's "
    "buffers count on the host") {
  const Runtime& rt = test::runtime();
  const DeviceDescription& device = rt.description();
  GraphLimits limits;
  limits.device = &rt;
  // Far beyond any device: 2^31-1 vertices and 2^40 arcs.
  const std::string message =
      error_of([&] { require_graph_fits(limits, "g.mtx", INT32_MAX, std::uint64_t(1) << 40); });
  CHECK(message.find("g.mtx: a graph of 2147483647 vertices and 1099511627776 arcs needs ") == 0);
  CHECK(message.find(" of host memory") != std::string::npos);
  CHECK(message.find(" of device memory (largest buffer ") != std::string::npos);
  CHECK(message.find(device.device_name + " has " + mib_text(device.global_mem_bytes) +
                     " of global memory and allows buffers of at most " +
                     mib_text(device.max_alloc_bytes)) != std::string::npos);
  CHECK((message.find("of it for the CPU device") != std::string::npos) == device.is_cpu);
  // the same need without a device names the host only
  const std::string host_only = error_of(
      [&] { require_graph_fits(GraphLimits{}, "g.mtx", INT32_MAX, std::uint64_t(1) << 40); });
  CHECK(host_only.find("are available") != std::string::npos);
  CHECK(host_only.find("device") == std::string::npos);
  // a small graph and forest fit both
  CHECK_NOTHROW(require_graph_fits(limits, "small", 1000, 4000));
  CHECK_NOTHROW(require_forest_fits(limits, "small", 1000, 999));
  // on a CPU device, a need that fits the device alone but not the host with it is refused
  if (device.is_cpu) {
    GraphLimits tight = limits;
    tight.host_bytes = 1 << 20;
    MemoryNeed need{1 << 19, 1 << 20, 1 << 20};  // half the host limit, plus the device's share
    CHECK(error_of([&] {
            require_memory(tight, "both", need);
          }).find("both needs 1.5 MiB of host memory (1.0 MiB of it for the CPU device)") == 0);
  }
}

TEST_CASE("generators refuse sizes the host cannot hold before generating") {
  const auto start = std::chrono::steady_clock::now();
  CHECK(error_of([] { generate::kronecker(30, 16, 1); })
            .find("kronecker graph of scale 30 and edge factor 16: a graph of 1073741824 vertices "
                  "and 34359738368 arcs needs ") == 0);
  // The largest grid 32-bit ids allow needs about 50 GB: a big host holds it, so the limit is
  // given (16 GiB) rather than left to the host's memory.
  GraphLimits sixteen_gib;
  sixteen_gib.host_bytes = std::uint64_t(16) << 30;
  CHECK(error_of([&] {
          generate::grid2d(46000, 46000, sixteen_gib);
        }).find("grid of 46000 x 46000: a graph of 2116000000 vertices") == 0);
  CHECK(error_of([] { generate::kronecker(31, 16, 1); }).find("exceeds 30") != std::string::npos);
  CHECK(generate::kronecker(4, 2, 1).vertices() == 16);  // small ones still work
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

TEST_CASE("CSR binary header: written and read back by the one parser, refusals by size") {
  CsrBinaryHeader header;
  header.vertices = 5;
  header.arcs = 7;
  header.undirected = true;
  const std::string bytes = csr_binary_header_bytes(header);
  REQUIRE(bytes.size() == CsrBinaryHeader::kBytes);
  const std::uint64_t whole = header.columns_at() + 7 * 4;
  CHECK(whole == 64 + 6 * 8 + 7 * 4);
  const CsrBinaryHeader back = read_csr_binary_header(bytes, whole, "g.csr");
  CHECK(back.vertices == 5);
  CHECK(back.arcs == 7);
  CHECK(back.undirected);
  CHECK_THROWS_WITH_AS(read_csr_binary_header(bytes, whole - 1, "g.csr"),
                       doctest::Contains("g.csr: the header promises 5 vertices and 7 arcs"),
                       InputError);
  CHECK_THROWS_WITH_AS(read_csr_binary_header(bytes.substr(0, 40), 40, "g.csr"),
                       doctest::Contains("not a treefix CSR binary"), InputError);
}
