// Barnes-Hut references: the Plummer generator, the direct sum and the tree traversal on host
// threads (treefix/spatial/nbody.hpp).
#include <cmath>
#include <random>

#include "treefix/core/parallel.hpp"
#include "treefix/spatial/nbody.hpp"

namespace treefix {

namespace generate {

Bodies plummer(std::size_t n, std::uint64_t seed) {
  Bodies b(n);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double pi = 3.14159265358979323846;
  const double length = 3 * pi / 16, speed = 1 / std::sqrt(length);  // to standard units
  auto isotropic = [&](double r, double out[3]) {
    double z = (2 * u(rng) - 1), phi = 2 * pi * u(rng), s = std::sqrt(1 - z * z);
    out[0] = r * s * std::cos(phi);
    out[1] = r * s * std::sin(phi);
    out[2] = r * z;
  };
  std::vector<double> p(3 * n), v(3 * n);
  double mean_p[3] = {0, 0, 0}, mean_v[3] = {0, 0, 0};
  for (std::size_t i = 0; i < n; ++i) {
    // radius from the cumulative mass M(r) = r^3 (1 + r^2)^(-3/2); cut the far tail at M = 0.999
    double m = 1e-10 + u(rng) * 0.999;
    double r = 1 / std::sqrt(std::pow(m, -2.0 / 3.0) - 1);
    isotropic(r, &p[3 * i]);
    // speed: q = v / v_escape with density g(q) = q^2 (1 - q^2)^3.5, by rejection (max < 0.1)
    double q = 0;
    for (;;) {
      q = u(rng);
      if (0.1 * u(rng) < q * q * std::pow(1 - q * q, 3.5)) break;
    }
    double ve = std::sqrt(2.0) * std::pow(1 + r * r, -0.25);
    isotropic(q * ve, &v[3 * i]);
    for (int k = 0; k < 3; ++k) {
      mean_p[k] += p[3 * i + k] / double(n);
      mean_v[k] += v[3 * i + k] / double(n);
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    b.mass[i] = float(1.0 / double(n));
    for (int k = 0; k < 3; ++k) {
      b.position.at(i, k) = float((p[3 * i + k] - mean_p[k]) * length);
      b.velocity.at(i, k) = float((v[3 * i + k] - mean_v[k]) * speed);
    }
  }
  return b;
}

}  // namespace generate

namespace reference {

std::vector<double> accelerations_direct(const Bodies& bodies, double eps, unsigned threads) {
  const std::size_t n = bodies.size();
  std::vector<double> acc(3 * n, 0.0);
  const double eps2 = eps * eps;
  const auto& x = bodies.position;
  parallel_for_ranges(n, kRopeItemsPerPiece, threads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      double a[3] = {0, 0, 0};
      for (std::size_t j = 0; j < n; ++j) {
        if (j == i) continue;
        double d[3] = {double(x.at(j, 0)) - x.at(i, 0), double(x.at(j, 1)) - x.at(i, 1),
                       double(x.at(j, 2)) - x.at(i, 2)};
        double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2;
        if (r2 <= 0) continue;
        double inv = bodies.mass[j] / (r2 * std::sqrt(r2));
        for (int k = 0; k < 3; ++k) a[k] += d[k] * inv;
      }
      for (int k = 0; k < 3; ++k) acc[3 * i + k] = a[k];
    }
  });
  return acc;
}

namespace {
struct GravityState {
  const Octree& t;
  std::int32_t self;
  float x, y, z, theta2, eps2;
  float ax = 0, ay = 0, az = 0;
  void add(float m, float dx, float dy, float dz) {
    float r2 = dx * dx + dy * dy + dz * dz + eps2;
    if (r2 > 0.0f) {
      float inv = 1.0f / (r2 * std::sqrt(r2));
      ax += m * (dx * inv);
      ay += m * (dy * inv);
      az += m * (dz * inv);
    }
  }
  bool truncate(std::int32_t node) {
    const float* cm = &t.centre_mass[4 * node];
    float dx = cm[0] - x, dy = cm[1] - y, dz = cm[2] - z;
    float d2 = dx * dx + dy * dy + dz * dz;
    float s = t.side[node];
    if (s * s < theta2 * d2) {
      add(cm[3], dx, dy, dz);
      return true;
    }
    return false;
  }
  void visit(std::int32_t node) {
    for (std::int32_t j = t.first[node]; j < t.first[node] + t.count[node]; ++j)
      if (j != self)
        add(t.mass[j], t.points.at(j, 0) - x, t.points.at(j, 1) - y, t.points.at(j, 2) - z);
  }
  int call_set(std::int32_t) const { return 0; }
  std::int32_t child(std::int32_t node, int, int i) const { return t.child[8 * node + i]; }
};
}  // namespace

std::vector<float> accelerations_tree(const Octree& tree, double theta, double eps,
                                      unsigned threads, std::vector<std::uint32_t>* visits) {
  const std::size_t n = tree.points.n;
  std::vector<float> acc(3 * n);
  if (visits) visits->assign(n, 0);
  const float theta2 = float(theta * theta), eps2 = float(eps * eps);
  parallel_for_ranges(n, kRopeItemsPerPiece, threads, [&](std::size_t begin, std::size_t end) {
    std::vector<std::int32_t> stack;
    for (std::size_t p = begin; p < end; ++p) {  // p: tree position
      GravityState s{tree,
                     std::int32_t(p),
                     tree.points.at(p, 0),
                     tree.points.at(p, 1),
                     tree.points.at(p, 2),
                     theta2,
                     eps2};
      std::uint32_t v = cpu_rope_traverse(s, tree, stack);
      std::size_t i = tree.point_index[p];
      acc[3 * i] = s.ax;
      acc[3 * i + 1] = s.ay;
      acc[3 * i + 2] = s.az;
      if (visits) (*visits)[i] = v;
    }
  });
  return acc;
}

}  // namespace reference
}  // namespace treefix
