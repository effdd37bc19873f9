// morton.cl: the first steps of a device tree build (include/treefix/spatial/device_build.hpp):
//   frame_partial  per work-group minimum and maximum of every coordinate (grid-stride)
//   frame_finish   one work-group folds the partials into the frame (below)
//   morton_codes   per point the Morton code of its quantised coordinates
// Arguments dim (1 .. MAX_DIM coordinates) and bits (bits per coordinate, dim * bits <= 63).
// Options: -DREAL (spatial/real.clh), -DCUBE (one cube for every coordinate, the octree's cells;
// without it each coordinate spans its own extent), -DWG_SIZE.
// Traffic: the coordinates are read twice (frame, codes); 8 bytes a point are written.
//
// The frame (real[2 + 2 * dim]):
//   [0]  s, a power of two: 1, or small enough that every |x * s| < 2^40. Positions times s keep
//        squared differences and their 3/2 powers finite in float (Barnes-Hut), and the frame's
//        own arithmetic never overflows, whatever finite coordinates come in; s is exact.
//   [1]  the side of the root cube (CUBE), in units of s
//   [2 + k], [2 + dim + k]: origin and factor of coordinate k: q = (x * s - origin) * factor,
//        clamped to 0 .. 2^bits - 1. All equal points give factor 0 (without CUBE): code 0.
#include "primitives/workgroup.clh"
#include "spatial/morton_frame.clh"

#define WG_MIN(a, b) fmin(a, b)
#define WG_MAX(a, b) fmax(a, b)
WG_DEFINE_SCAN(wg_min_real, real, WG_MIN, INFINITY)
WG_DEFINE_SCAN(wg_max_real, real, WG_MAX, -INFINITY)

kernel void frame_partial(const uint n, const uint dim, global const real* restrict coord,
                          global real* restrict partial) {
  local real scratch[WG_SIZE];
  for (uint k = 0; k < dim; ++k) {
    real lo = INFINITY, hi = -INFINITY;
    for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
      const real x = coord[k * n + i];
      lo = fmin(lo, x);
      hi = fmax(hi, x);
    }
    lo = wg_min_real_reduce(lo, scratch);
    hi = wg_max_real_reduce(hi, scratch);
    if (get_local_id(0) == 0) {
      partial[(get_group_id(0) * dim + k) * 2] = lo;
      partial[(get_group_id(0) * dim + k) * 2 + 1] = hi;
    }
  }
}

kernel void frame_finish(const uint groups, const uint dim, const uint bits,
                         global const real* restrict partial, global real* restrict frame) {
  local real scratch[WG_SIZE];
  local real lo[MAX_DIM], hi[MAX_DIM];
  for (uint k = 0; k < dim; ++k) {
    real l = INFINITY, h = -INFINITY;
    for (uint g = get_local_id(0); g < groups; g += WG_SIZE) {
      l = fmin(l, partial[(g * dim + k) * 2]);
      h = fmax(h, partial[(g * dim + k) * 2 + 1]);
    }
    l = wg_min_real_reduce(l, scratch);
    h = wg_max_real_reduce(h, scratch);
    if (get_local_id(0) == 0) {
      lo[k] = l;
      hi[k] = h;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) != 0) return;
  real largest = 0;
  for (uint k = 0; k < dim; ++k) largest = fmax(largest, fmax(fabs(lo[k]), fabs(hi[k])));
  int e = 0;
  frexp(largest, &e);  // largest < 2^e
  const real s = e > 40 ? ldexp((real)1, 40 - e) : (real)1;
  const real cells = ldexp((real)1, (int)bits);
#ifdef CUBE
  real radius = 0;
  for (uint k = 0; k < dim; ++k) radius = fmax(radius, (real)0.5 * (hi[k] * s - lo[k] * s));
  radius = radius * (real)1.0001 + (real)1e-30;  // every point strictly inside the root cube
  frame[1] = 2 * radius;
  for (uint k = 0; k < dim; ++k) {
    frame[2 + k] = (real)0.5 * (lo[k] * s) + (real)0.5 * (hi[k] * s) - radius;
    frame[2 + dim + k] = cells / (2 * radius);
  }
#else
  frame[1] = 0;
  for (uint k = 0; k < dim; ++k) {
    const real extent = hi[k] * s - lo[k] * s;
    frame[2 + k] = lo[k] * s;
    frame[2 + dim + k] = extent > 0 ? cells / extent : (real)0;
  }
#endif
  frame[0] = s;
}

// Bits interleaved from the most significant down, coordinate 0 first: code bit dim*bits-1 is
// the top bit of q_0, so a prefix of length p splits coordinate p % dim at level p / dim.
kernel void morton_codes(const uint n, const uint dim, const uint bits,
                         global const real* restrict coord, global const real* restrict frame,
                         global ulong* restrict code) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    uint q[MAX_DIM];
    for (uint k = 0; k < dim; ++k) q[k] = morton_cell(coord[k * n + i], k, dim, bits, frame);
    ulong c = 0;
    for (int b = (int)bits - 1; b >= 0; --b)
      for (uint k = 0; k < dim; ++k) c = (c << 1) | (ulong)((q[k] >> b) & 1u);
    code[i] = c;
  }
}
