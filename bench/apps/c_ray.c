/* c-ray (Nexus++ paper, from Starbench): a small recursive ray tracer
 * (spheres, point lights, shadows, reflections) with one task per image line
 * (per --bs lines); the tasks are independent, each writes its own lines.
 * The paper's coarse-grained best case: long tasks, ample parallelism.
 *
 *   --width W --height H   image size (pixels)
 *   --bs L                 lines per task (the paper: 1)
 *   --spheres S            spheres in the scene (besides the floor)
 */
#include <math.h>

#include "app_common.h"

#define MAX_DEPTH 5

typedef struct vec3 {
  double x, y, z;
} vec3;

typedef struct sphere {
  vec3 centre, colour;
  double radius, reflect;
} sphere;

typedef struct scene {
  sphere *spheres;
  int nspheres;
  vec3 lights[2];
  long width, height;
} scene;

static vec3 v3(double x, double y, double z) { return (vec3){x, y, z}; }
static vec3 add(vec3 a, vec3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static vec3 sub(vec3 a, vec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static vec3 scale(vec3 a, double s) { return v3(a.x * s, a.y * s, a.z * s); }
static double dot(vec3 a, vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static vec3 norm(vec3 a) { return scale(a, 1.0 / sqrt(dot(a, a))); }

/* The distance along the ray to the nearest hit of s, or -1. */
static double hit(const sphere *s, vec3 orig, vec3 dir) {
  vec3 oc = sub(orig, s->centre);
  double b = dot(oc, dir), c = dot(oc, oc) - s->radius * s->radius;
  double disc = b * b - c;
  if (disc < 0)
    return -1;
  double sq = sqrt(disc), t = -b - sq;
  if (t > 1e-6)
    return t;
  t = -b + sq;
  return t > 1e-6 ? t : -1;
}

static int nearest(const scene *sc, vec3 orig, vec3 dir, double *dist) {
  int best = -1;
  *dist = 1e30;
  for (int i = 0; i < sc->nspheres; i++) {
    double t = hit(&sc->spheres[i], orig, dir);
    if (t > 0 && t < *dist) {
      *dist = t;
      best = i;
    }
  }
  return best;
}

static vec3 trace(const scene *sc, vec3 orig, vec3 dir, int depth) {
  double t;
  int i = nearest(sc, orig, dir, &t);
  if (i < 0)
    return v3(0.05, 0.05, 0.1);
  const sphere *s = &sc->spheres[i];
  vec3 p = add(orig, scale(dir, t));
  vec3 n = norm(sub(p, s->centre));
  vec3 colour = scale(s->colour, 0.1);
  for (int l = 0; l < 2; l++) {
    vec3 to_light = sub(sc->lights[l], p);
    double light_dist = sqrt(dot(to_light, to_light));
    vec3 ldir = scale(to_light, 1.0 / light_dist);
    double shadow_t;
    if (nearest(sc, p, ldir, &shadow_t) >= 0 && shadow_t < light_dist)
      continue;
    double diffuse = dot(n, ldir);
    if (diffuse <= 0)
      continue;
    vec3 refl = sub(ldir, scale(n, 2 * diffuse));
    double spec = pow(fmax(0.0, dot(refl, dir)), 40.0);
    colour =
        add(colour, add(scale(s->colour, 0.6 * diffuse), v3(spec, spec, spec)));
  }
  if (depth < MAX_DEPTH && s->reflect > 0) {
    vec3 rdir = sub(dir, scale(n, 2 * dot(dir, n)));
    colour = add(scale(colour, 1 - s->reflect),
                 scale(trace(sc, p, rdir, depth + 1), s->reflect));
  }
  return colour;
}

static uint32_t pack(vec3 c) {
  double ch[3] = {c.x, c.y, c.z};
  uint32_t px = 0;
  for (int k = 0; k < 3; k++)
    px = px << 8 | (uint32_t)(fmin(1.0, fmax(0.0, ch[k])) * 255.0);
  return px;
}

/* Renders lines [y0, y1) into img. */
static void render_lines(const scene *sc, uint32_t *img, long y0, long y1) {
  double aspect = (double)sc->width / (double)sc->height;
  for (long y = y0; y < y1; y++)
    for (long x = 0; x < sc->width; x++) {
      double px = (2.0 * ((double)x + 0.5) / (double)sc->width - 1) * aspect;
      double py = 1 - 2.0 * ((double)y + 0.5) / (double)sc->height;
      vec3 dir = norm(v3(px * 0.6, py * 0.6, 1));
      img[y * sc->width + x] = pack(trace(sc, v3(0, 1, -4), dir, 0));
    }
}

int main(int argc, char **argv) {
  app_opt opts[] = {
      {"width", 1280, 1, 1 << 16, "image width (pixels)", NULL},
      {"height", 960, 1, 1 << 16, "image height (pixels)", NULL},
      {"bs", 1, 1, 1 << 16, "lines per task", NULL},
      {"spheres", 48, 1, 4096, "spheres besides the floor", NULL},
  };
  app_ctx a = {.name = "c-ray", .opts = opts, .nopts = 4};
  app_parse(&a, argc, argv);
  long w = opts[0].value, h = opts[1].value, bs = opts[2].value;
  int ns = (int)opts[3].value;

  scene sc = {.nspheres = ns + 1, .width = w, .height = h};
  sc.spheres = (sphere *)app_alloc(&a, sizeof(sphere) * (size_t)(ns + 1));
  sc.spheres[0] = (sphere){v3(0, -1000, 5), v3(0.5, 0.5, 0.5), 999, 0.3};
  uint64_t seed = 42;
  for (int i = 1; i <= ns; i++) {
    double r = 0.2 + 0.4 * app_rand_unit(&seed);
    sc.spheres[i].centre =
        v3(8 * app_rand_unit(&seed) - 4, r - 1 + 2 * app_rand_unit(&seed),
           2 + 10 * app_rand_unit(&seed));
    sc.spheres[i].radius = r;
    sc.spheres[i].colour =
        v3(app_rand_unit(&seed), app_rand_unit(&seed), app_rand_unit(&seed));
    sc.spheres[i].reflect = 0.6 * app_rand_unit(&seed);
  }
  sc.lights[0] = v3(-10, 10, -5);
  sc.lights[1] = v3(10, 8, 0);

  uint32_t *want =
      (uint32_t *)app_alloc(&a, sizeof(uint32_t) * (size_t)(w * h));
  uint32_t *got = (uint32_t *)app_alloc(&a, sizeof(uint32_t) * (size_t)(w * h));
  double t0 = omp_get_wtime();
  render_lines(&sc, want, 0, h);
  a.serial_s = omp_get_wtime() - t0;

  app_warm_up(&a);
  app_task_times_open(&a, (h + bs - 1) / bs);
  long tasks = 0;
  t0 = omp_get_wtime();
#pragma omp parallel num_threads(a.threads)
#pragma omp single
  {
    for (long y = 0; y < h; y += bs) {
      long y1 = y + bs < h ? y + bs : h;
#pragma omp task firstprivate(y, y1) shared(sc, got)
      {
        double ts = app_task_begin();
        render_lines(&sc, got, y, y1);
        app_task_end(y / bs, ts);
      }
      tasks++;
    }
#pragma omp taskwait
  }
  double t1 = omp_get_wtime();
  a.time_s = t1 - t0;
  app_task_times_write(&a, t0, t1);
  a.tasks = tasks;
  app_check_ints(&a, "pixel", got, want, (size_t)(w * h), sizeof got[0]);
  app_report(
      &a, app_runtime(&a, (const char *const[]){"GOMP_taskwait@GOMP_2.0"}, 1));
  return 0;
}
