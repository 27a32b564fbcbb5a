/* Barnes-Hut n-body steps, shared by barnes_regions.c and barnes_mpi.c (the
 * Myrmics paper's application, section VI-B, after Myrmics'
 * bench/barnes_*.c without its load balancing): the bodies are split into
 * `regions` partitions of consecutive bodies. Each step builds one octree
 * per partition (a leaf per body, a cell's mass and centre of mass from its
 * children), then moves every body by the force of all partitions' trees
 * (partition 0 first, each tree depth first, children in order; a cell
 * whose side over its distance is below theta counts as one body), then
 * frees the trees. Both programs build the trees with bh_build and sum the
 * forces with bh_force, so the positions agree bit for bit; the checksum
 * adds the bit patterns of the coordinates as integers, so it does not
 * depend on the order of its own sum. */
#ifndef WEFT_BENCH_BARNES_COMMON_H
#define WEFT_BENCH_BARNES_COMMON_H

#include "twins_common.h"

#include <math.h>

typedef struct barnes_opts {
  long bodies;
  long regions; /* partitions (one octree each per step) */
  long steps;
  long verify; /* 1: compare with the serial steps */
  long per;    /* bodies per partition */
} barnes_opts;

static inline barnes_opts barnes_parse(const char *prog, int argc,
                                       char **argv) {
  barnes_opts o = {8192, 4, 3, 0, 0};
  twin_opt opts[] = {{"--bodies", &o.bodies},
                     {"--regions", &o.regions},
                     {"--steps", &o.steps},
                     {"--verify", &o.verify}};
  twin_parse(prog, argc, argv, opts, 4);
  twin_require(o.bodies % o.regions == 0, prog, "--bodies", o.bodies,
               "is not a multiple of --regions");
  o.per = o.bodies / o.regions;
  return o;
}

typedef struct bh_body {
  double pos[3], vel[3], mass;
} bh_body;

/* An octree node: a leaf holds one body (or, at the depth limit, several
 * merged), a cell up to eight children. */
typedef struct bh_node {
  double mid[3], half; /* the cube */
  double com[3], mass; /* centre of mass, mass */
  long body;           /* a leaf's body, -1 for a cell or merged leaf */
  int leaf;
  struct bh_node *child[8];
} bh_node;

/* Where bh_build gets its nodes: alloc(ctx) returns a new zeroed node. */
typedef bh_node *(*bh_alloc_fn)(void *ctx);

static inline void bh_init_body(bh_body *b, long i) {
  for (int c = 0; c < 3; ++c) {
    b->pos[c] =
        (double)(twin_hash((uint64_t)i * 4 + (uint64_t)c) % 1000000) / 1000.0;
    b->vel[c] = 0;
  }
  b->mass = 1.0 + (double)(twin_hash((uint64_t)i * 4 + 3) % 100) / 100.0;
}

static inline int bh_octant(const bh_node *n, const double *p) {
  return (p[0] >= n->mid[0]) | (p[1] >= n->mid[1]) << 1 |
         (p[2] >= n->mid[2]) << 2;
}

static inline bh_node *bh_child_cube(bh_node *parent, int o, bh_alloc_fn al,
                                     void *ctx) {
  bh_node *c = al(ctx);
  c->half = parent->half / 2;
  for (int d = 0; d < 3; ++d)
    c->mid[d] = parent->mid[d] + ((o >> d) & 1 ? c->half : -c->half);
  return c;
}

/* Inserts body k of part (its id id0 + k). */
static void bh_insert(bh_node *n, const bh_body *part, long k, long id0,
                      bh_alloc_fn al, void *ctx) {
  const bh_body *bs = part;
  long i = k;
  int depth = 0;
  for (;;) {
    if (!n->leaf) {
      int o = bh_octant(n, bs[i].pos);
      if (!n->child[o]) {
        bh_node *c = bh_child_cube(n, o, al, ctx);
        c->leaf = 1;
        c->body = id0 + i;
        for (int d = 0; d < 3; ++d)
          c->com[d] = bs[i].pos[d];
        c->mass = bs[i].mass;
        n->child[o] = c;
        return;
      }
      n = n->child[o];
      ++depth;
      continue;
    }
    if (depth >= 40 || n->body < 0) { /* merge into a heavy leaf */
      double m = n->mass + bs[i].mass;
      for (int d = 0; d < 3; ++d)
        n->com[d] = (n->com[d] * n->mass + bs[i].pos[d] * bs[i].mass) / m;
      n->mass = m;
      n->body = -1;
      return;
    }
    /* split the leaf: its body moves one level down */
    long old = n->body - id0;
    n->leaf = 0;
    n->body = -1;
    int o = bh_octant(n, bs[old].pos);
    bh_node *c = bh_child_cube(n, o, al, ctx);
    c->leaf = 1;
    c->body = id0 + old;
    for (int d = 0; d < 3; ++d)
      c->com[d] = bs[old].pos[d];
    c->mass = bs[old].mass;
    n->child[o] = c;
  }
}

static void bh_mass(bh_node *n) {
  if (n->leaf)
    return;
  double m = 0, c[3] = {0, 0, 0};
  for (int o = 0; o < 8; ++o)
    if (n->child[o]) {
      bh_mass(n->child[o]);
      m += n->child[o]->mass;
      for (int d = 0; d < 3; ++d)
        c[d] += n->child[o]->com[d] * n->child[o]->mass;
    }
  n->mass = m;
  for (int d = 0; d < 3; ++d)
    n->com[d] = c[d] / m;
}

/* The octree of the count bodies of part (ids id0, id0 + 1, ...). */
TWIN_KERNEL bh_node *bh_build(const bh_body *part, long count, long id0,
                              bh_alloc_fn al, void *ctx) {
  const bh_body *bs = part;
  double lo[3], hi[3];
  for (int d = 0; d < 3; ++d)
    lo[d] = hi[d] = bs[0].pos[d];
  for (long i = 0; i < count; ++i)
    for (int d = 0; d < 3; ++d) {
      lo[d] = bs[i].pos[d] < lo[d] ? bs[i].pos[d] : lo[d];
      hi[d] = bs[i].pos[d] > hi[d] ? bs[i].pos[d] : hi[d];
    }
  bh_node *root = al(ctx);
  double side = 0;
  for (int d = 0; d < 3; ++d) {
    root->mid[d] = (lo[d] + hi[d]) / 2;
    side = hi[d] - lo[d] > side ? hi[d] - lo[d] : side;
  }
  root->half = side / 2 + 1e-9;
  root->leaf = 0;
  root->body = -1;
  for (long i = 0; i < count; ++i)
    bh_insert(root, part, i, id0, al, ctx);
  bh_mass(root);
  return root;
}

/* Adds to acc the pull of tree n on body b (at p; its own leaf skipped). */
static void bh_force(const bh_node *n, long b, const double *p, double *acc) {
  double d[3], r2 = 1e-2; /* softening */
  for (int c = 0; c < 3; ++c) {
    d[c] = n->com[c] - p[c];
    r2 += d[c] * d[c];
  }
  if (n->leaf || (2 * n->half) * (2 * n->half) < r2) { /* theta 1 */
    if (n->leaf && n->body == b)
      return;
    double f = n->mass / (r2 * sqrt(r2));
    for (int c = 0; c < 3; ++c)
      acc[c] += f * d[c];
    return;
  }
  for (int o = 0; o < 8; ++o)
    if (n->child[o])
      bh_force(n->child[o], b, p, acc);
}

/* Moves the count bodies of part (ids id0, ...) by the pull of the trees
 * (dt 1e-3); writes the new bodies to out. */
TWIN_KERNEL void bh_move(const bh_body *part, long count, long id0,
                         bh_node *const *trees, long ntrees, bh_body *out) {
  const double dt = 1e-3;
  for (long i = 0; i < count; ++i) {
    double acc[3] = {0, 0, 0};
    for (long t = 0; t < ntrees; ++t)
      bh_force(trees[t], id0 + i, part[i].pos, acc);
    bh_body nb = part[i];
    for (int c = 0; c < 3; ++c) {
      nb.vel[c] += acc[c] * dt;
      nb.pos[c] += nb.vel[c] * dt;
    }
    out[i] = nb;
  }
}

static inline uint64_t bh_checksum(const bh_body *bs, long count) {
  uint64_t s = 0;
  for (long i = 0; i < count; ++i)
    for (int c = 0; c < 3; ++c) {
      uint64_t u;
      memcpy(&u, &bs[i].pos[c], sizeof u);
      s += u;
    }
  return s;
}

/* A bump allocator of nodes (MPI version, serial check). */
typedef struct bh_pool {
  bh_node *nodes;
  long used, cap;
} bh_pool;

static inline bh_node *bh_pool_alloc(void *ctx) {
  bh_pool *p = ctx;
  if (p->used == p->cap) {
    fprintf(stderr, "barnes: node pool of %ld full\n", p->cap);
    exit(1);
  }
  bh_node *n = &p->nodes[p->used++];
  memset(n, 0, sizeof *n);
  return n;
}

/* The serial steps on all bodies (returned); trees from a pool. */
static inline bh_body *bh_serial(const char *prog, const barnes_opts *o) {
  bh_body *bs = twin_malloc(prog, sizeof(bh_body) * (size_t)o->bodies);
  bh_body *nx = twin_malloc(prog, sizeof(bh_body) * (size_t)o->bodies);
  bh_node **trees = twin_malloc(prog, sizeof(bh_node *) * (size_t)o->regions);
  bh_pool pool = {twin_malloc(prog, sizeof(bh_node) * (size_t)(4 * o->bodies)),
                  0, 4 * o->bodies};
  for (long i = 0; i < o->bodies; ++i)
    bh_init_body(&bs[i], i);
  for (long s = 0; s < o->steps; ++s) {
    pool.used = 0;
    for (long t = 0; t < o->regions; ++t)
      trees[t] =
          bh_build(bs + t * o->per, o->per, t * o->per, bh_pool_alloc, &pool);
    bh_move(bs, o->bodies, 0, trees, o->regions, nx);
    bh_body *tmp = bs;
    bs = nx;
    nx = tmp;
  }
  free(nx);
  free(trees);
  free(pool.nodes);
  return bs;
}

/* 0 when count bodies from first equal the serial ones, else 1. */
static inline int bh_check(const char *prog, const bh_body *bs,
                           const bh_body *serial, long first, long count) {
  for (long i = 0; i < count; ++i)
    if (memcmp(bs[i].pos, serial[first + i].pos, sizeof bs[i].pos)) {
      fprintf(stderr,
              "%s: body %ld at (%.17g, %.17g, %.17g), serially "
              "(%.17g, %.17g, %.17g)\n",
              prog, first + i, bs[i].pos[0], bs[i].pos[1], bs[i].pos[2],
              serial[first + i].pos[0], serial[first + i].pos[1],
              serial[first + i].pos[2]);
      return 1;
    }
  return 0;
}

#endif
