#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <iostream>

#include "fixture.hpp"

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  try {
    std::cout << "test device: " << treefix::test::runtime().description().summary() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "cannot open an OpenCL device for the tests: " << e.what() << "\n";
    return 1;
  }
  return context.run();
}
