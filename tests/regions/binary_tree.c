/* The Myrmics paper's Fig. 1 as a working program: a binary tree whose left
 * and right subtrees of each node live in sub-regions lreg and rreg of the
 * node's region. One task processes the tree (inout on the top region) and
 * recursively spawns one task per subtree (inout on n->lreg / n->rreg); a
 * print task reads the whole tree (in on top) and so runs only after every
 * process task has finished. Exits 0 when the printed traversal has every
 * node processed, 1 otherwise.
 *
 * usage: region_binary_tree [depth]   (default 10) */
#include <weft/regions.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct tree_node {
  weft_rid lreg, rreg;
  struct tree_node *left, *right;
  long key;
  long value; /* set by process */
} tree_node;

static void *rid_arg(weft_rid r) { return (void *)(uintptr_t)r; }

static tree_node *build(weft_rid reg, int depth, long *next_key) {
  tree_node *n = weft_alloc(sizeof *n, reg);
  if (!n) {
    fprintf(stderr, "weft_alloc: %s\n", weft_last_error());
    exit(2);
  }
  n->left = n->right = NULL;
  n->lreg = n->rreg = 0;
  n->value = -1;
  if (depth > 1) {
    n->lreg = weft_ralloc(reg, depth);
    n->left = build(n->lreg, depth - 1, next_key);
  }
  n->key = (*next_key)++;
  if (depth > 1) {
    n->rreg = weft_ralloc(reg, depth);
    n->right = build(n->rreg, depth - 1, next_key);
  }
  return n;
}

static long expected(long key) { return key * key % 1009 + 1; }

/* process(n): inout on the region holding n's subtree. */
static void process(void **args) {
  tree_node *n = args[1]; /* args[0] is the region */
  if (n->left) {
    void *a[] = {rid_arg(n->lreg), n->left};
    int t[] = {WEFT_ARG_INOUT | WEFT_ARG_REGION, WEFT_ARG_SAFE};
    if (weft_rspawn(process, 2, a, t) != WEFT_OK)
      abort();
  }
  if (n->right) {
    void *a[] = {rid_arg(n->rreg), n->right};
    int t[] = {WEFT_ARG_INOUT | WEFT_ARG_REGION, WEFT_ARG_SAFE};
    if (weft_rspawn(process, 2, a, t) != WEFT_OK)
      abort();
  }
  n->value = expected(n->key);
}

static long printed, wrong;

static void print_tree(tree_node *n) {
  if (!n)
    return;
  print_tree(n->left);
  if (n->value != expected(n->key))
    ++wrong;
  ++printed;
  print_tree(n->right);
}

/* print(root): in on the top region, after every process task. */
static void print_task(void **args) { print_tree(args[1]); }

int main(int argc, char **argv) {
  int depth = argc > 1 ? atoi(argv[1]) : 10;
  if (depth < 1 || depth > 24) {
    fprintf(stderr, "usage: %s [depth 1..24]\n", argv[0]);
    return 2;
  }
  weft_rid top = weft_ralloc(WEFT_ROOT_REGION, 0);
  long next_key = 0;
  tree_node *root = build(top, depth, &next_key);

  void *a[] = {rid_arg(top), root};
  int tw[] = {WEFT_ARG_INOUT | WEFT_ARG_REGION, WEFT_ARG_SAFE};
  int tr[] = {WEFT_ARG_IN | WEFT_ARG_REGION, WEFT_ARG_SAFE};
  if (weft_rspawn(process, 2, a, tw) != WEFT_OK ||
      weft_rspawn(print_task, 2, a, tr) != WEFT_OK) {
    fprintf(stderr, "weft_rspawn: %s\n", weft_last_error());
    return 2;
  }
  if (weft_wait(a, tw, 1) != WEFT_OK) { /* inout: after the reader too */
    fprintf(stderr, "weft_wait: %s\n", weft_last_error());
    return 2;
  }
  printf("binary tree of depth %d: %ld nodes printed, %ld unprocessed "
         "(%d threads)\n",
         depth, printed, wrong, weft_num_threads());
  if (weft_rfree(top) != WEFT_OK) {
    fprintf(stderr, "weft_rfree: %s\n", weft_last_error());
    return 2;
  }
  weft_shutdown();
  return printed == (1L << depth) - 1 && wrong == 0 ? 0 : 1;
}
