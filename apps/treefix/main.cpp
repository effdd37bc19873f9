// `treefix`: command-line front end of libtreefix-cl. Subcommands register themselves
// (command.hpp).
#include "command.hpp"

int main(int argc, char** argv) {
  return treefix::cli::run_subcommands(
      "treefix: tree computations on OpenCL devices (libtreefix-cl)", "treefix",
      treefix::cli::Subcommands<treefix::cli::TreefixProgram>::all(), argc, argv);
}
