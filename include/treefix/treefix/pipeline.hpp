#pragma once
// From files to files: the path of `treefix rootfix` / `leaffix`, shared by the command and by
// `treefix-bench pipeline`, which times it in-process. Each phase's wall time goes to a
// PhaseTimes: read (tree and weights), device setup (waiting for the Runtime), upload, validate,
// prepare (tour, layout, levels), compute, download, write; on the CPU path validate is the
// breadth-first order (which is the check) and compute the pass over it.
#include <functional>
#include <string>

#include "treefix/core/phase_times.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/treefix/tree_io.hpp"
#include "treefix/treefix/treefix.hpp"

namespace treefix {

struct FileTreefix {
  std::string tree, weights, output;  // weights "": a Newick tree's lengths, else all 1
  TreeFormat tree_format = TreeFormat::automatic;
  bool leaffix = false;
  bool named_output = false;  // output as TSV "name<TAB>value" with the tree's (Newick) names
  TreefixOptions options;  // Algorithm::sequential runs on the host; options.phases is ignored
  // Called once the device's part is over (the result is on the host), before the output is
  // written: the CLI tears the OpenCL runtime down there, beside the writing.
  std::function<void()> device_done;
};

// Reads, computes with T, writes. `device` is called once the files are read, for every
// algorithm but sequential, and gives the Runtime (the CLI's waits for a setup started earlier).
template <class T>
void treefix_files(const FileTreefix& request, const std::function<Runtime&()>& device,
                   PhaseTimes& phases);

}  // namespace treefix
