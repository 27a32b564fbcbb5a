// weft regions — the C++ API over weft/regions.h.
//
//   weft::region top = weft::region::root().sub();
//   auto *n = top.make<Node>();
//   weft::spawn(weft::inout(top), [=] { process(n); });   // a region task
//   weft::spawn(weft::in(top), [=] { print(n); });         // runs after it
//   weft::wait(weft::inout(top));
//
// How a spawn is told apart from a plain (address-dependence) spawn: by the
// types of its arguments, at compile time. weft::in/out/inout of a
// weft::region (a class, never an integer) is a region argument; of
// weft::object(p) an object argument. A weft::spawn with at least one such
// argument is a region task (weft_rspawn); its plain weft::in(x)-style
// arguments then name region objects too: x must be the start of a live
// weft_alloc object (checked; a clear error otherwise). A weft::spawn with
// none is the core's plain task with address dependences (weft.hpp).
// Errors throw std::invalid_argument / std::logic_error naming the call and
// the value.
#ifndef WEFT_REGIONS_HPP
#define WEFT_REGIONS_HPP

#include <weft/regions.h>
#include <weft/weft.hpp>

#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace weft {

class region {
public:
  // The root region.
  constexpr region() = default;
  constexpr explicit region(weft_rid id) : id_(id) {}
  static constexpr region root() { return region(); }
  constexpr weft_rid id() const { return id_; }
  friend constexpr bool operator==(region a, region b) {
    return a.id_ == b.id_;
  }

  // A new child region (weft_ralloc).
  region sub(int level_hint = 0) const {
    weft_rid r = weft_ralloc(id_, level_hint);
    if (r == 0)
      detail::raise(WEFT_EINVAL);
    return region(r);
  }
  // Frees this region, its objects and sub-regions (weft_rfree).
  void free() const { detail::check(weft_rfree(id_)); }
  // Raw storage for n bytes in this region (weft_alloc).
  void *alloc(std::size_t n) const {
    void *p = weft_alloc(n, id_);
    if (!p)
      detail::raise(WEFT_EINVAL);
    return p;
  }
  // A T constructed in this region. Destroy with weft::destroy.
  template <class T, class... A> T *make(A &&...a) const {
    static_assert(alignof(T) <= 16, "weft::region::make: over-aligned type");
    return ::new (alloc(sizeof(T))) T(std::forward<A>(a)...);
  }

private:
  weft_rid id_ = WEFT_ROOT_REGION;
};

// Runs ~T and frees the object (weft_free).
template <class T> void destroy(T *p) {
  p->~T();
  detail::check(weft_free(p));
}

// The region holding the object at p.
inline region region_of(const void *p) {
  weft_rid r;
  detail::check(weft_region_of(p, &r));
  return region(r);
}

// An object argument of a region task: the start address of a weft_alloc
// object.
struct object_ref {
  const void *p;
};
inline object_ref object(const void *p) { return {p}; }

// A region-task argument: what weft_rspawn takes.
struct region_arg {
  void *value;
  int type;
};

inline region_arg in(region r) {
  return {reinterpret_cast<void *>(uintptr_t(r.id())),
          WEFT_ARG_IN | WEFT_ARG_REGION};
}
inline region_arg out(region r) {
  return {reinterpret_cast<void *>(uintptr_t(r.id())),
          WEFT_ARG_OUT | WEFT_ARG_REGION};
}
inline region_arg inout(region r) {
  return {reinterpret_cast<void *>(uintptr_t(r.id())),
          WEFT_ARG_INOUT | WEFT_ARG_REGION};
}
inline region_arg in(object_ref o) {
  return {const_cast<void *>(o.p), WEFT_ARG_IN};
}
inline region_arg out(object_ref o) {
  return {const_cast<void *>(o.p), WEFT_ARG_OUT};
}
inline region_arg inout(object_ref o) {
  return {const_cast<void *>(o.p), WEFT_ARG_INOUT};
}
// NOTRANSFER: analysed as usual; the task will not read the data.
inline region_arg notransfer(region_arg a) {
  return {a.value, a.type | WEFT_ARG_NOTRANSFER};
}

namespace detail {
template <class A>
inline constexpr bool is_region_arg_v =
    std::is_same_v<std::decay_t<A>, region_arg>;

template <class... Args>
inline constexpr bool has_region_arg_v = (is_region_arg_v<Args> || ...);

inline void collect_region(void **v, int *t, int &n, region_arg a) {
  v[n] = a.value;
  t[n++] = a.type;
}
inline void collect_region(void **v, int *t, int &n, dep d) {
  if (d.mode != WEFT_IN && d.mode != WEFT_OUT && d.mode != WEFT_INOUT)
    throw std::invalid_argument(
        "weft::spawn: a region task's object arguments are in, out or "
        "inout");
  v[n] = const_cast<void *>(d.addr);
  t[n++] = int(d.mode); // WEFT_IN/OUT/INOUT have WEFT_ARG_*'s values
}

template <class F> void run_region_closure(void **args) {
  std::unique_ptr<F> f(static_cast<F *>(args[0]));
  (*f)();
}
} // namespace detail

/// spawn(arg..., f) with at least one region or object argument: a region
/// task. The last argument is the callable; it is moved into the task.
template <class... Args>
requires detail::has_region_arg_v<Args...>
void spawn(Args &&...args) {
  auto all = std::forward_as_tuple(std::forward<Args>(args)...);
  constexpr std::size_t last = sizeof...(Args) - 1;
  using F = std::decay_t<std::tuple_element_t<last, std::tuple<Args...>>>;
  static_assert(std::is_invocable_v<F &>,
                "weft::spawn: the last argument must be callable with no "
                "arguments");
  void *values[sizeof...(Args)];
  int types[sizeof...(Args)];
  int n = 1; // [0]: the closure, passed through
  types[0] = WEFT_ARG_SAFE;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (detail::collect_region(values, types, n, std::get<I>(all)), ...);
  }
  (std::make_index_sequence<last>{});
  auto *f = new F(std::forward<std::tuple_element_t<last, std::tuple<Args...>>>(
      std::get<last>(all)));
  values[0] = f;
  int rc = weft_rspawn(&detail::run_region_closure<F>, n, values, types);
  if (rc != WEFT_OK) {
    delete f;
    detail::raise(rc);
  }
}

/// Suspends the calling task until the arguments it delegated are back
/// (weft_wait).
template <class... Args> void wait(Args &&...args) {
  void *values[sizeof...(Args) + 1];
  int types[sizeof...(Args) + 1];
  int n = 0;
  (detail::collect_region(values, types, n, std::forward<Args>(args)), ...);
  detail::check(weft_wait(values, types, n));
}

} // namespace weft

#endif // WEFT_REGIONS_HPP
