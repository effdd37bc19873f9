#pragma once
// The process's MPI world, made once and shared by every case that needs one: a world of one when
// the test binary runs alone, the launcher's ranks when mpiexec starts it (tests/CMakeLists.txt
// runs the "ranks:*" cases so).
#include "treefix/distributed/world.hpp"

namespace treefix::test {

inline World& process_world() {
  static World world;
  return world;
}

}  // namespace treefix::test
