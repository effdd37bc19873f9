// The distributed layer linked from an install: a world of one (not started by an MPI launcher).
#include <cstdio>

#include <treefix/distributed/world.hpp>

int main() {
  treefix::World world;
  std::printf("world_sample: rank %d of %d\n", world.rank(), world.size());
  return world.size() == 1 && world.rank() == 0 ? 0 : 1;
}
