// A traversal written by a user, run by the rope-stack engine (treefix/spatial/ropes.hpp): the
// example of docs/points.md ("Your own traversal"), word for word, checked against brute force
// in every variant. It needs no kernel of the library: only the pieces and the tree's arrays.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "fixture.hpp"
#include "treefix/spatial/device_build.hpp"
#include "treefix/spatial/ropes.hpp"

using namespace treefix;

namespace {

// For every query point, the sum of the weights of the data points within distance r: a
// "weighted ball count" that the library does not offer. Unguided (one call set), binary.
const char* kWeightedBall = R"CL(
#pragma OPENCL FP_CONTRACT OFF  // distances as the host computes them: no fused multiply-add
#define ROPE_ARITY 2
#define ROPE_CALL_SETS 1
#define ROPE_PARAMS                                                                         \
  const uint n_nodes, global const int* child, global const int* first,                     \
      global const int* count, global const float* box_lo, global const float* box_hi,      \
      const uint n_data, global const float* data, global const int* point_index,           \
      global const float* weight, const uint n_query, global const float* query,            \
      const float radius2, global float* result
#define ROPE_ARGS                                                                            \
  n_nodes, child, first, count, box_lo, box_hi, n_data, data, point_index, weight, n_query, \
      query, radius2, result

typedef struct {
  float q[DIM];
  float sum;
} rope_state;

void rope_init(rope_state* s, uint item, ROPE_PARAMS) {
  for (int k = 0; k < DIM; ++k) s->q[k] = query[k * n_query + item];
  s->sum = 0.0f;
}

// Skip a node whose bounding box lies farther than r.
bool rope_truncate(rope_state* s, int node, ROPE_PARAMS) {
  float d2 = 0.0f;
  for (int k = 0; k < DIM; ++k) {
    const float lo = box_lo[k * n_nodes + node], hi = box_hi[k * n_nodes + node];
    const float d = s->q[k] < lo ? lo - s->q[k] : (s->q[k] > hi ? s->q[k] - hi : 0.0f);
    d2 += d * d;
  }
  return d2 > radius2;
}

// A leaf's points (an inner node has none): add the weights of those within r.
void rope_visit(rope_state* s, int node, ROPE_PARAMS) {
  for (int j = first[node]; j < first[node] + count[node]; ++j) {
    float d2 = 0.0f;
    for (int k = 0; k < DIM; ++k) {
      const float d = s->q[k] - data[k * n_data + j];
      d2 += d * d;
    }
    if (d2 <= radius2) s->sum += weight[point_index[j]];
  }
}

int rope_call_set(rope_state* s, int node, ROPE_PARAMS) { return 0; }
int rope_child(int node, int call_set, int i, ROPE_PARAMS) { return child[2 * node + i]; }
void rope_finish(rope_state* s, uint item, ROPE_PARAMS) { result[item] = s->sum; }
)CL";

PointSet uniform(std::size_t n, std::uint64_t seed) {
  PointSet p(n, 3);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(0, 1);
  for (auto& c : p.coord) c = u(rng);
  return p;
}

}  // namespace

TEST_CASE("ropes: a user-written traversal runs through run_traversal in every variant") {
  auto& rt = test::runtime();
  const PointSet points = uniform(3001, 1), queries = uniform(997, 2);
  std::vector<float> weight(points.n);
  for (std::size_t i = 0; i < points.n; ++i) weight[i] = float(i % 7) - 3.0f;
  const float radius = 0.15f;

  // The tree on the device, the user's weights and queries beside it.
  const DeviceKdTree tree = build_kd_tree(rt, DevicePoints::upload(rt, points));
  const auto device_weight = DeviceArray<float>::upload(rt, weight);
  const auto device_query = DeviceArray<float>::upload(rt, queries.coord);
  DeviceArray<float> result(rt, queries.n);
  const TraversalPieces pieces{"weighted-ball", kWeightedBall, "-DDIM=3"};
  auto run = [&](Variant variant) {
    run_traversal(rt, pieces, variant, tree.shape, queries.n, [&](KernelArgs& args) {
      args(cl_uint(tree.shape.nodes), tree.child, tree.first, tree.count, tree.box_lo,
           tree.box_hi, cl_uint(tree.points), tree.data, tree.point_index, device_weight,
           cl_uint(queries.n), device_query, radius * radius, result);
    });
    return result.download(rt);
  };

  // Brute force in double: every query's ball.
  std::vector<double> expected(queries.n, 0.0);
  for (std::size_t q = 0; q < queries.n; ++q)
    for (std::size_t j = 0; j < points.n; ++j)
      if (squared_distance(queries, q, points, j) <= radius * radius) expected[q] += weight[j];
  const auto independent = run(Variant::independent);
  for (std::size_t q = 0; q < queries.n; ++q) {
    CAPTURE(q);
    CHECK(independent[q] == doctest::Approx(expected[q]).epsilon(1e-5));
  }
  // Every variant visits an item's nodes in the same order: the same sums, bit for bit.
  CHECK(run(Variant::lockstep) == independent);
  CHECK(run(Variant::recursive) == independent);
  CHECK_THROWS_AS(run(Variant::automatic), Error);  // resolve it with choose_variant first
}
