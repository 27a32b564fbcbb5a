/* rot-cc (Nexus++ paper, from Starbench): rotates an RGB image by an angle
 * (nearest-neighbour sampling of the source) and converts the result to
 * YCbCr. Per block of --bs output lines, a task pair: the rotation task
 * writes the block (out), the conversion task reads it (in) and writes the
 * block of the converted image (out). The pairs are independent of each
 * other within a frame; frame f + 1 (rotated by (f + 2) x angle) reuses the
 * buffers, so its pairs wait for frame f's on the same block (WAR / WAW).
 *
 *   --width W --height H   image size (pixels)
 *   --bs L                 lines per block (the paper: 1)
 *   --angle D              rotation angle in degrees (per frame)
 *   --frames F             frames (the last one is checked)
 */
#include <math.h>

#include "app_common.h"

typedef struct image {
  long w, h;
  uint8_t *px; /* w * h * 3, RGB or YCbCr */
} image;

/* Output lines [y0, y1) of src rotated by rad about the centre, into out
 * (line y0 first). */
static void rotate_lines(const image *src, uint8_t *out, double rad, long y0,
                         long y1) {
  double c = cos(rad), s = sin(rad);
  double cx = (double)src->w / 2, cy = (double)src->h / 2;
  for (long y = y0; y < y1; y++)
    for (long x = 0; x < src->w; x++) {
      double dx = (double)x - cx, dy = (double)y - cy;
      long sx = lround(c * dx + s * dy + cx),
           sy = lround(-s * dx + c * dy + cy);
      uint8_t *d = &out[((y - y0) * src->w + x) * 3];
      if (sx < 0 || sy < 0 || sx >= src->w || sy >= src->h) {
        d[0] = d[1] = d[2] = 0;
      } else {
        const uint8_t *p = &src->px[(sy * src->w + sx) * 3];
        d[0] = p[0];
        d[1] = p[1];
        d[2] = p[2];
      }
    }
}

static uint8_t clamp8(double v) {
  return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v + 0.5);
}

/* RGB -> YCbCr (ITU-R BT.601, full range) of n pixels. */
static void convert_pixels(const uint8_t *rgb, uint8_t *ycc, long n) {
  for (long i = 0; i < n; i++) {
    const uint8_t *p = &rgb[i * 3];
    double r = p[0], g = p[1], b = p[2];
    uint8_t *q = &ycc[i * 3];
    q[0] = clamp8(0.299 * r + 0.587 * g + 0.114 * b);
    q[1] = clamp8(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
    q[2] = clamp8(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
  }
}

static image new_image(const app_ctx *a, long w, long h) {
  image im = {w, h, (uint8_t *)app_alloc(a, (size_t)(w * h * 3))};
  return im;
}

int main(int argc, char **argv) {
  app_opt opts[] = {
      {"width", 2048, 1, 1 << 16, "image width (pixels)", NULL},
      {"height", 2048, 1, 1 << 16, "image height (pixels)", NULL},
      {"bs", 4, 1, 1 << 16, "lines per block (one task pair each)", NULL},
      {"angle", 30, -360, 360, "rotation angle per frame (degrees)", NULL},
      {"frames", 8, 1, 1 << 20, "frames", NULL},
  };
  app_ctx a = {.name = "rot-cc", .opts = opts, .nopts = 5};
  app_parse(&a, argc, argv);
  long w = opts[0].value, h = opts[1].value, bs = opts[2].value;
  double step = (double)opts[3].value * 3.14159265358979323846 / 180;
  long frames = opts[4].value;

  image src = new_image(&a, w, h);
  uint64_t seed = 7;
  for (long i = 0; i < w * h * 3; i++)
    src.px[i] = (uint8_t)((i / 3 % w) * 255 / w + (app_rand(&seed) & 31));
  image want_rot = new_image(&a, w, h), want = new_image(&a, w, h);
  image rot = new_image(&a, w, h), got = new_image(&a, w, h);

  double t0 = omp_get_wtime();
  for (long f = 0; f < frames; f++)
    for (long y = 0; y < h; y += bs) {
      double rad = step * (double)(f + 1);
      long y1 = y + bs < h ? y + bs : h;
      rotate_lines(&src, &want_rot.px[y * w * 3], rad, y, y1);
      convert_pixels(&want_rot.px[y * w * 3], &want.px[y * w * 3],
                     (y1 - y) * w);
    }
  a.serial_s = omp_get_wtime() - t0;

  app_warm_up(&a);
  long nblk = (h + bs - 1) / bs;
  app_task_times_open(&a, 2 * frames * nblk);
  long tasks = 0;
  t0 = omp_get_wtime();
#pragma omp parallel num_threads(a.threads)
#pragma omp single
  {
    for (long f = 0; f < frames; f++)
      for (long y = 0; y < h; y += bs) {
        double rad = step * (double)(f + 1);
        long y1 = y + bs < h ? y + bs : h;
        uint8_t *blk = &rot.px[y * w * 3], *out = &got.px[y * w * 3];
        long rank = tasks;
        /* clang-format off */
#pragma omp task depend(out : blk[0]) firstprivate(blk, rad, y, y1, rank) \
    shared(src)
        /* clang-format on */
        {
          double ts = app_task_begin();
          rotate_lines(&src, blk, rad, y, y1);
          app_task_end(rank, ts);
        }
        /* clang-format off */
#pragma omp task depend(in : blk[0]) depend(out : out[0]) \
    firstprivate(blk, out, y, y1, rank)
        /* clang-format on */
        {
          double ts = app_task_begin();
          convert_pixels(blk, out, (y1 - y) * w);
          app_task_end(rank + 1, ts);
        }
        tasks += 2;
      }
#pragma omp taskwait
  }
  double t1 = omp_get_wtime();
  a.time_s = t1 - t0;
  app_task_times_write(&a, t0, t1);
  a.tasks = tasks;
  app_check_ints(&a, "rotated", rot.px, want_rot.px, (size_t)(w * h * 3), 1);
  app_check_ints(&a, "ycbcr", got.px, want.px, (size_t)(w * h * 3), 1);
  app_report(
      &a, app_runtime(&a, (const char *const[]){"GOMP_taskwait@GOMP_2.0"}, 1));
  return 0;
}
