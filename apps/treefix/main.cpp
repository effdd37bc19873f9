// `treefix`: command-line front end of libtreefix-cl. Subcommands register themselves
// (command.hpp); the process ends without tearing down the OpenCL runtime (process_end.hpp).
#include "command.hpp"
#include "process_end.hpp"

int main(int argc, char** argv) {
  treefix::cli::end_process(treefix::cli::run_subcommands(
      "treefix: tree computations on OpenCL devices (libtreefix-cl)", "treefix",
      treefix::cli::Subcommands<treefix::cli::TreefixProgram>::all(), argc, argv));
}
