#pragma once
// What every fuzz target of the readers shares (tests/fuzz/README.md):
//   as_file(data, size)    the input as a file the path-taking readers open: one memfd per
//                          process, rewritten for every input, named by its /proc/self/fd path
//                          (no disk, nothing to clean up, no extension: formats are chosen by
//                          calling the format's own reader)
//   expect_refusal(read)   runs a reader; InputError (malformed bytes) and CapacityError (a claim
//                          larger than memory) are the answers bad input may get, anything else
//                          (another exception, a crash, a sanitizer report) reaches libFuzzer
//   require(ok, what)      a property every accepted input must have; aborts with `what`
//   graph_options()        graph readers limited to 16 MiB of host memory: a claim beyond it is
//                          refused by the reader's own capacity check (CapacityError), within the
//                          fuzzers' -rss_limit_mb; readers without such a limit must not allocate
//                          far more than their input can justify
//   read_graph_with(read, data, size)   a graph reader on the input, its Csr checked
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "treefix/core/error.hpp"
#include "treefix/graph/csr.hpp"
#include "treefix/graph/graph_io.hpp"

namespace treefix::fuzz {

inline const std::string& as_file(const std::uint8_t* data, std::size_t size) {
  static const int fd = memfd_create("treefix-fuzz", MFD_CLOEXEC);
  static const std::string path = "/proc/self/fd/" + std::to_string(fd);
  if (fd < 0 || ftruncate(fd, 0) != 0) std::abort();
  for (std::size_t done = 0; done < size;) {
    const ssize_t written = pwrite(fd, data + done, size - done, static_cast<off_t>(done));
    if (written <= 0) std::abort();
    done += static_cast<std::size_t>(written);
  }
  return path;
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

inline GraphReadOptions graph_options() {
  GraphReadOptions options;
  options.limits.host_bytes = std::uint64_t(16) << 20;
  return options;
}

// Returns whether the reader accepted the input.
template <class Read>
bool expect_refusal(Read&& read) {
  try {
    read();
    return true;
  } catch (const InputError&) {
  } catch (const CapacityError&) {
  }
  return false;
}

inline void require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz: property violated: %s\n", what);
  std::abort();
}

// Every Csr a reader returns: offsets from 0 to the arc count, never decreasing; each row sorted,
// without duplicates or self loops; every column a vertex (graph/csr.hpp).
inline void require_library_form(const Csr& graph) {
  const std::size_t n = graph.vertices();
  require(graph.row_offset.empty() || graph.row_offset.front() == 0, "row offsets start at 0");
  require(graph.row_offset.empty()
              ? graph.column.empty()
              : static_cast<std::size_t>(graph.row_offset.back()) == graph.column.size(),
          "row offsets end at the arc count");
  for (std::size_t v = 0; v < n; ++v) {
    const std::int64_t begin = graph.row_offset[v], end = graph.row_offset[v + 1];
    require(begin <= end, "row offsets never decrease");
    for (std::int64_t a = begin; a < end; ++a) {
      const auto u = graph.column[static_cast<std::size_t>(a)];
      require(u >= 0 && static_cast<std::size_t>(u) < n, "columns are vertices");
      require(static_cast<std::size_t>(u) != v, "no self loops");
      require(a == begin || graph.column[static_cast<std::size_t>(a) - 1] < u,
              "rows sorted, without duplicates");
    }
  }
}

// One graph reader (read_matrix_market, read_metis, read_npz_csr, ...) on the input: refused, or
// accepted in the library's form.
inline void read_graph_with(Csr (*read)(const std::string&, const GraphReadOptions&),
                            const std::uint8_t* data, std::size_t size) {
  Csr graph;
  if (expect_refusal([&] { graph = read(as_file(data, size), graph_options()); }))
    require_library_form(graph);
}

}  // namespace treefix::fuzz
