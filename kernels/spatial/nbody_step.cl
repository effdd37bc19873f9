// nbody_step.cl: the kick and drift of leapfrog (kick-drift-kick) time steps on the device
// (include/treefix/spatial/nbody.hpp). Positions and velocities are structures of arrays
// (x[k*n + i]); accelerations come from the force traversal as rows (acc[3*i + k]).
//   kick        v += half_dt * a
//   kick_drift  v += half_dt * a; x += dt * v   (the second kick of a step and the drift of the
//               next are separate launches because snapshots fall between them)
// A value that stops being finite (float overflow) records the step in bad[0] (atomic_min), which
// the host reads once, at the end or at a snapshot. Traffic: 6 (kick) or 9 floats read and 3 or
// 6 written per body.

bool finite3(const float a, const float b, const float c) {
  return isfinite(a) && isfinite(b) && isfinite(c);
}

kernel void kick(const uint n, global float* restrict vel, global const float* restrict acc,
                 const float half_dt, const int step, global int* restrict bad) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    const float vx = vel[i] + half_dt * acc[3 * i];
    const float vy = vel[n + i] + half_dt * acc[3 * i + 1];
    const float vz = vel[2 * n + i] + half_dt * acc[3 * i + 2];
    vel[i] = vx;
    vel[n + i] = vy;
    vel[2 * n + i] = vz;
    if (!finite3(vx, vy, vz)) atomic_min(bad, step);
  }
}

kernel void kick_drift(const uint n, global float* restrict vel, global float* restrict pos,
                       global const float* restrict acc, const float half_dt, const float dt,
                       const int step, global int* restrict bad) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    bool ok = true;
    for (uint k = 0; k < 3; ++k) {
      const float v = vel[k * n + i] + half_dt * acc[3 * i + k];
      const float x = pos[k * n + i] + dt * v;
      vel[k * n + i] = v;
      pos[k * n + i] = x;
      ok = ok && isfinite(v) && isfinite(x);
    }
    if (!ok) atomic_min(bad, step);
  }
}
