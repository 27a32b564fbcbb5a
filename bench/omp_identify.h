/* Which OpenMP runtime serves this process: "libgomp", "libomp" or "weft".
 * Shared by micro_omp.c and epcc_omp.c (both built by gcc -fopenmp, linked to
 * libgomp only, and run as built, under LLVM libomp through LD_PRELOAD, or
 * under `weft run`, which brings weft's GOMP ABI library in front of libgomp).
 *
 * The program does not trust the environment: each entry point it calls is
 * looked up as the dynamic linker binds the program's own calls to it, with
 * the symbol version the binary references (GOMP_parallel@GOMP_4.0, as
 * `nm -D` shows it): the first object in the search order (a preloaded
 * library comes first) that defines the name with that version or
 * unversioned (dlvsym, and dlsym for the unversioned case); a definition
 * under another version does not count. dladdr() names the shared object
 * that defines it. That object is
 *   weft     if its file name, or the name of the file a symlink points to,
 *            contains "weft", or it (or a library it depends on) defines
 *            weft_init: weft's GOMP library, whatever it is called (`weft
 *            run` puts <build>/lib/gomp, whose libgomp.so.1 is a symlink to
 *            libweft, first in LD_LIBRARY_PATH);
 *   libgomp  if its file name starts with "libgomp";
 *   libomp   if its file name starts with "libomp".
 * All the entry points named must come from the same runtime: a runtime that
 * lacks one of them leaves that call to libgomp, and a benchmark run on such
 * a mix would measure (or crash on) the wrong thing, so it is an error that
 * names the entry point and both libraries.
 */
#ifndef WEFT_BENCH_OMP_IDENTIFY_H
#define WEFT_BENCH_OMP_IDENTIFY_H

#ifndef _GNU_SOURCE
#error "define _GNU_SOURCE before any #include (dlvsym, dladdr)"
#endif
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The runtime one shared object belongs to, or NULL. */
static const char *omp_identify_object(const char *fname) {
  const char *base = strrchr(fname, '/');
  base = base ? base + 1 : fname;
  char real[4096];
  const char *rbase = NULL;
  if (realpath(fname, real)) { /* through symlinks (libgomp.so.1 -> ...) */
    rbase = strrchr(real, '/');
    rbase = rbase ? rbase + 1 : real;
  }
  if (strstr(base, "weft") || (rbase && strstr(rbase, "weft")))
    return "weft";
  /* dlsym on a handle searches that object and its dependencies only. */
  void *h = dlopen(fname, RTLD_LAZY | RTLD_NOLOAD);
  if (h) {
    int has_weft = dlsym(h, "weft_init") != NULL;
    dlclose(h);
    if (has_weft)
      return "weft";
  }
  if (strncmp(base, "libgomp", 7) == 0)
    return "libgomp";
  if (strncmp(base, "libomp", 6) == 0)
    return "libomp";
  return NULL;
}

/* Whether the definition at addr is unversioned (or of the base version) in
 * the object that holds it: such a definition satisfies a versioned
 * reference (GOMP_parallel@GOMP_4.0) as the dynamic linker binds the
 * program's calls, but dlvsym does not return it. */
static int omp_identify_unversioned(void *addr) {
  Dl_info info;
  const ElfW(Sym) *sym = NULL;
  struct link_map *map = NULL;
  if (!dladdr1(addr, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym ||
      !dladdr1(addr, &info, (void **)&map, RTLD_DL_LINKMAP) || !map)
    return 0;
  ElfW(Addr) symtab = 0, versym = 0;
  for (const ElfW(Dyn) *d = map->l_ld; d->d_tag != DT_NULL; d++) {
    if (d->d_tag == DT_SYMTAB)
      symtab = d->d_un.d_ptr;
    else if (d->d_tag == DT_VERSYM)
      versym = d->d_un.d_ptr;
  }
  if (!versym)
    return 1; /* no version information at all */
  if (!symtab)
    return 0;
  /* ld.so relocates these entries in place on most targets; not on all. */
  if (symtab < map->l_addr)
    symtab += map->l_addr;
  if (versym < map->l_addr)
    versym += map->l_addr;
  size_t idx = (size_t)(sym - (const ElfW(Sym) *)symtab);
  return (((const ElfW(Half) *)versym)[idx] & 0x7fff) <= 1;
}

/* The address the program's calls to sym ("name@VERSION" or "name") go to:
 * the first definition of exactly that version (dlvsym), unless the first
 * definition found by name (dlsym) is an unversioned one in another object,
 * which the dynamic linker takes first (an interposer without a version
 * script, preloaded in front of libgomp). */
static void *omp_identify_lookup(const char *sym) {
  const char *at = strchr(sym, '@');
  char name[256];
  if (!at || (size_t)(at - sym) >= sizeof name)
    return dlsym(RTLD_DEFAULT, sym);
  memcpy(name, sym, (size_t)(at - sym));
  name[at - sym] = '\0';
  void *exact = dlvsym(RTLD_DEFAULT, name, at + 1);
  void *plain = dlsym(RTLD_DEFAULT, name);
  if (plain && plain != exact && omp_identify_unversioned(plain)) {
    Dl_info a, b;
    if (!exact || !dladdr(exact, &a) || !dladdr(plain, &b) ||
        a.dli_fbase != b.dli_fbase)
      return plain;
  }
  return exact;
}

/* The runtime that provides all of syms[0..n-1] ("name@VERSION" or "name");
 * *path: the shared object (of the last symbol). NULL on failure, with a
 * message in err. */
static const char *omp_identify(const char *const *syms, int n,
                                const char **path, char *err, size_t errlen) {
  const char *name = NULL, *first_sym = NULL, *first_path = NULL;
  for (int s = 0; s < n; s++) {
    void *addr = omp_identify_lookup(syms[s]);
    Dl_info info;
    if (!addr || !dladdr(addr, &info) || !info.dli_fname) {
      snprintf(err, errlen, "cannot find which library provides %s", syms[s]);
      return NULL;
    }
    const char *this_one = omp_identify_object(info.dli_fname);
    if (!this_one) {
      snprintf(err, errlen,
               "%s comes from %s, neither libgomp, libomp nor weft", syms[s],
               info.dli_fname);
      return NULL;
    }
    if (name && strcmp(name, this_one) != 0) {
      snprintf(err, errlen,
               "OpenMP entry points come from both %s and %s: %s from %s, %s "
               "from %s",
               name, this_one, first_sym, first_path, syms[s], info.dli_fname);
      return NULL;
    }
    if (!name) {
      first_sym = syms[s];
      first_path = info.dli_fname;
    }
    name = this_one;
    *path = info.dli_fname;
  }
  return name;
}

#endif /* WEFT_BENCH_OMP_IDENTIFY_H */
