#pragma once
// Every environment variable the library reads, parsed in this one place with one message style.
// Runtime reads them once, when it is constructed.
//
//   TREEFIX_DEVICE            device choice when none is given (Runtime's spec forms)
//   TREEFIX_CACHE             on | off: the disk cache of built program binaries (default on)
//   TREEFIX_CACHE_DIR         its folder (default $XDG_CACHE_HOME/treefix, else
//                             ~/.cache/treefix; created when missing; a path to a file is
//                             refused). A cache that cannot be written costs only build time,
//                             with one warning on standard error.
//   TREEFIX_BUILD_OPTIONS     appended to every OpenCL build
//   TREEFIX_THREADS           host threads of the host loops (treefix/core/parallel.hpp; read
//                             where they run, checked here too so a bad value stops a run early)
//   TREEFIX_MPI_SHARED        on | off: ranks of one host exchange the distributed BFS's
//                             frontier bitmap in one shared-memory block (default on); off
//                             takes MPI's all-gather, the path of ranks on several hosts
//   TREEFIX_*                 the tuning rows' overrides (treefix/core/tuning.hpp; `treefix
//                             devices --tuning` lists each with what it takes)
// A malformed value is an InputError: "environment variable TREEFIX_WG_SIZE='-64': expected a
// positive integer of at most 65536".
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace treefix {

struct Environment {
  std::string device;
  std::string cache_dir;  // "" when the disk cache is off
  std::string build_options;
  bool mpi_shared_memory = true;
  // One entry per tuning row (tuning_rows() order): its override, or nothing when unset.
  std::vector<std::optional<std::size_t>> tuning_overrides;

  // The override of the row of that name (InputError for an unknown name).
  std::optional<std::size_t> tuning(std::string_view name) const;

  static Environment read();
};

}  // namespace treefix
