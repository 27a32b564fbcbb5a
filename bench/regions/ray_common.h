/* Raytracing of a fixed scene, shared by ray_regions.c and ray_mpi.c (the
 * Myrmics paper's benchmark, section VI-B, after Myrmics' bench/cray_*.c,
 * itself after John Tsiombikas' c-ray): four spheres, two lights, shadows
 * and reflections up to depth 5, one ray per pixel. The frame of
 * width x height pixels is cut into regions x tiles tiles of consecutive
 * lines; every program renders each line with the same code, so the
 * pixels (packed 0xRRGGBB) and their integer checksum are the same in
 * all. */
#ifndef WEFT_BENCH_RAY_COMMON_H
#define WEFT_BENCH_RAY_COMMON_H

#include "twins_common.h"

#include <math.h>

typedef struct ray_opts {
  long width, height;
  long regions; /* groups of tiles */
  long tiles;   /* tiles per region */
  long verify;  /* 1: compare with the serial rendering */
  long lines;   /* lines per tile */
} ray_opts;

static inline ray_opts ray_parse(const char *prog, int argc, char **argv) {
  ray_opts o = {1024, 768, 4, 8, 0, 0};
  twin_opt opts[] = {{"--width", &o.width},
                     {"--height", &o.height},
                     {"--regions", &o.regions},
                     {"--tiles", &o.tiles},
                     {"--verify", &o.verify}};
  twin_parse(prog, argc, argv, opts, 5);
  twin_require(o.height % (o.regions * o.tiles) == 0, prog, "--height",
               o.height, "is not a multiple of regions x tiles");
  o.lines = o.height / (o.regions * o.tiles);
  return o;
}

typedef struct ray_vec {
  double x, y, z;
} ray_vec;

typedef struct ray_sphere {
  ray_vec pos, col;
  double rad, refl;
} ray_sphere;

/* The scene: what every task reading it receives (an object of its own in
 * each region of the region version, as Myrmics copies it per region). */
typedef struct ray_scene {
  ray_sphere obj[4];
  ray_vec light[2];
  ray_vec cam_pos, cam_targ;
  int nobj, nlight;
} ray_scene;

static inline void ray_load_scene(ray_scene *s) {
  static const ray_sphere obj[4] = {
      {{-1.5, -0.3, -1.0}, {1.0, 0.2, 0.05}, 0.7, 0.3},
      {{1.5, -0.4, 0.0}, {0.1, 0.85, 1.0}, 0.6, 0.4},
      {{0.0, -1000.0, 2.0}, {0.1, 0.2, 0.6}, 999.0, 0.8},
      {{0.0, 0.0, 2.0}, {1.0, 0.5, 0.1}, 1.0, 0.7}};
  memcpy(s->obj, obj, sizeof obj);
  s->nobj = 4;
  s->light[0] = (ray_vec){-50.0, 100.0, -50.0};
  s->light[1] = (ray_vec){40.0, 40.0, 150.0};
  s->nlight = 2;
  s->cam_pos = (ray_vec){0.0, 6.0, -17.0};
  s->cam_targ = (ray_vec){0.0, -1.0, 0.0};
}

static inline double ray_dot(ray_vec a, ray_vec b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
static inline ray_vec ray_norm(ray_vec a) {
  double l = sqrt(ray_dot(a, a));
  return (ray_vec){a.x / l, a.y / l, a.z / l};
}
static inline ray_vec ray_cross(ray_vec a, ray_vec b) {
  return (ray_vec){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z,
                   a.x * b.y - a.y * b.x};
}

/* The nearest hit of the ray orig + t dir (t in [1e-3, 1]) on sphere s:
 * 1 and *t, or 0. */
static inline int ray_hit(const ray_sphere *s, ray_vec orig, ray_vec dir,
                          double *t) {
  ray_vec oc = {orig.x - s->pos.x, orig.y - s->pos.y, orig.z - s->pos.z};
  double a = ray_dot(dir, dir), b = 2.0 * ray_dot(dir, oc),
         c = ray_dot(oc, oc) - s->rad * s->rad;
  double d = b * b - 4.0 * a * c;
  if (d < 0.0)
    return 0;
  double sq = sqrt(d), t1 = (-b + sq) / (2.0 * a), t2 = (-b - sq) / (2.0 * a);
  const double eps = 1e-3;
  if ((t1 < eps && t2 < eps) || (t1 > 1.0 && t2 > 1.0))
    return 0;
  if (t1 < eps)
    t1 = t2;
  if (t2 < eps)
    t2 = t1;
  *t = t1 < t2 ? t1 : t2;
  return 1;
}

static ray_vec ray_trace(const ray_scene *sc, ray_vec orig, ray_vec dir,
                         int depth) {
  ray_vec col = {0, 0, 0};
  if (depth >= 5)
    return col;
  int near = -1;
  double tn = 0, t;
  for (int i = 0; i < sc->nobj; ++i)
    if (ray_hit(&sc->obj[i], orig, dir, &t) && (near < 0 || t < tn)) {
      near = i;
      tn = t;
    }
  if (near < 0)
    return col;
  const ray_sphere *o = &sc->obj[near];
  ray_vec pos = {orig.x + dir.x * tn, orig.y + dir.y * tn, orig.z + dir.z * tn};
  ray_vec n = {(pos.x - o->pos.x) / o->rad, (pos.y - o->pos.y) / o->rad,
               (pos.z - o->pos.z) / o->rad};
  for (int l = 0; l < sc->nlight; ++l) {
    ray_vec ld = {sc->light[l].x - pos.x, sc->light[l].y - pos.y,
                  sc->light[l].z - pos.z};
    int shadow = 0;
    for (int i = 0; i < sc->nobj && !shadow; ++i)
      shadow = ray_hit(&sc->obj[i], pos, ld, &t);
    if (!shadow) {
      double diff = ray_dot(n, ray_norm(ld));
      if (diff > 0) {
        col.x += diff * o->col.x;
        col.y += diff * o->col.y;
        col.z += diff * o->col.z;
      }
    }
  }
  if (o->refl > 0.0) {
    double k = 2.0 * ray_dot(dir, n);
    ray_vec r =
        ray_norm((ray_vec){dir.x - k * n.x, dir.y - k * n.y, dir.z - k * n.z});
    ray_vec rc =
        ray_trace(sc, pos, (ray_vec){r.x * 1000.0, r.y * 1000.0, r.z * 1000.0},
                  depth + 1);
    col.x += rc.x * o->refl;
    col.y += rc.y * o->refl;
    col.z += rc.z * o->refl;
  }
  return col;
}

static inline uint32_t ray_pack(double v, int shift) {
  return (uint32_t)((v < 1.0 ? v : 1.0) * 255.0) << shift;
}

/* Renders line y of the frame into px (width pixels). */
TWIN_KERNEL void ray_line(const ray_scene *sc, long width, long height, long y,
                          uint32_t *px) {
  ray_vec k = ray_norm((ray_vec){sc->cam_targ.x - sc->cam_pos.x,
                                 sc->cam_targ.y - sc->cam_pos.y,
                                 sc->cam_targ.z - sc->cam_pos.z});
  ray_vec i = ray_cross((ray_vec){0, 1, 0}, k), j = ray_cross(k, i);
  double aspect = (double)width / (double)height;
  for (long x = 0; x < width; ++x) {
    double sx = (double)x / (double)width - 0.5;
    double sy = -((double)y / (double)height - 0.65) / aspect;
    ray_vec d = {sx * 1000.0, sy * 1000.0, 1000.0 / 0.39269908};
    ray_vec dir = {d.x * i.x + d.y * j.x + d.z * k.x,
                   d.x * i.y + d.y * j.y + d.z * k.y,
                   d.x * i.z + d.y * j.z + d.z * k.z};
    ray_vec c = ray_trace(sc, sc->cam_pos, dir, 0);
    px[x] = ray_pack(c.x, 16) | ray_pack(c.y, 8) | ray_pack(c.z, 0);
  }
}

/* The checksum of `count` lines from line first. */
static inline uint64_t ray_checksum(const uint32_t *px, long width, long count,
                                    long first) {
  uint64_t s = 0;
  for (long y = 0; y < count; ++y)
    for (long x = 0; x < width; ++x)
      s += (uint64_t)px[y * width + x] *
           (uint64_t)(1 + ((first + y) * 7 + x) % 13);
  return s;
}

/* 0 when `count` lines from line first equal a serial rendering, else 1
 * with a message naming the first differing pixel. */
static inline int ray_check(const char *prog, const ray_scene *sc,
                            const uint32_t *px, long width, long height,
                            long first, long count) {
  uint32_t *line = twin_malloc(prog, sizeof(uint32_t) * (size_t)width);
  for (long y = 0; y < count; ++y) {
    ray_line(sc, width, height, first + y, line);
    for (long x = 0; x < width; ++x)
      if (px[y * width + x] != line[x]) {
        fprintf(stderr, "%s: pixel (%ld, %ld) is %06x, serially %06x\n", prog,
                x, first + y, (unsigned)px[y * width + x], (unsigned)line[x]);
        free(line);
        return 1;
      }
  }
  free(line);
  return 0;
}

#endif
