// weft places — PGAS partitions and the at() remote call with object-graph
// copy (the NEMESYS paper's object model, graph copy and copy map).
//
//   struct node { long value; node *next; weft::array<double> xs; };
//   WEFT_TYPE(node, &node::next, &node::xs);        // once, at namespace scope
//
//   node *n = weft::make<node>(weft::place{0}, 1, nullptr);
//   long v = weft::at(weft::place{1}, n, [](node *c) { return c->value; });
//
// A place is a memory partition: its own arena (WEFT_PLACES places, each
// reserving WEFT_PLACE_BYTES of address space). Objects live in arenas and
// carry a header (their type and the four words of transition structure the
// copy uses). A type is registered once with its layout: every member that
// holds a pointer to an object, an array descriptor (weft::array) or a
// transient word (weft::transient) is listed; every other word is data.
//
// at(p, root, f) copies the graph reachable from root into p's arena (sharing
// and cycles kept, transient words zeroed), runs f on the copy as a task with
// here() == p, and returns f's result: a value as is, a pointer to a
// registered object as a weft::graph copied back into the caller's place.
// The closure copy is released when f returns: f keeps nothing of it past its
// return (objects it makes with make<T>(here()) stay).
//
// A place has its own workers: in one process WEFT_PLACES=N splits the
// team of T workers into N contiguous blocks (place p: workers [p*T/N,
// (p+1)*T/N); with fewer workers than places, place p has worker p*T/N
// alone). An at() task of place p is mailed to one of them
// (runtime::spawn_to): it runs there unless they stay busy past the mail
// patience (200 us), when another worker may take it. Across ranks every
// worker of a rank is its place's (docs/places.md).
//
// Errors (bad input) throw std::invalid_argument naming the call and the
// value; a graph larger than the destination's free space throws
// std::length_error. The source graph is never written.
#ifndef WEFT_PLACES_HPP
#define WEFT_PLACES_HPP

#include <weft/weft.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

namespace weft {

/// A memory partition, 0 <= id < num_places().
struct place {
  int id = 0;
  friend bool operator==(place, place) = default;
};

/// Number of places: WEFT_PLACES (default 1), or as places_init set it, or
/// the MPI world size after places_mpi_init (weft/dist.hpp).
WEFT_API int num_places();
/// The place the calling at() task runs at; outside any at(), place 0 (in
/// one process) or this process's rank (after places_mpi_init).
WEFT_API place here();
/// Creates the places explicitly (otherwise the first use does, from
/// WEFT_PLACES and WEFT_PLACE_BYTES). Throws std::logic_error when they exist
/// with another configuration, std::invalid_argument for n < 1 or a capacity
/// below one page.
WEFT_API void places_init(int n, std::size_t bytes_per_place);
/// Unmaps every arena: all objects and graphs become invalid. For tests.
WEFT_API void places_shutdown();
/// The place whose arena holds ptr, or -1.
WEFT_API int place_of(const void *ptr);
/// The workers of a place: weft_thread_id() in [first, first + count).
struct worker_range {
  int first = 0;
  int count = 0;
};
/// Place p's workers (see the top of this header); {0, 0} before weft runs.
/// Throws std::invalid_argument for a place that does not exist.
WEFT_API worker_range place_workers(place p);
/// Bytes live in place p's arena: objects and stores made and not released,
/// copied graphs not released (blocks of their own rounded up to 64
/// bytes). Released blocks kept for reuse are not counted: releasing what
/// was made since a moment brings it back to its value then.
WEFT_API std::size_t place_bytes_used(place p);

/// An array descriptor (3 words): the backing store, the element count and
/// the store's size in bytes (NEMESYS 4.3.1). E is data (trivially
/// copyable, no pointers) or a pointer to registered objects.
template <class E> struct array {
  E *data = nullptr;
  std::uint64_t length = 0;
  std::uint64_t bytes = 0;
  E &operator[](std::size_t i) const { return data[i]; }
  std::size_t size() const { return static_cast<std::size_t>(length); }
  E *begin() const { return data; }
  E *end() const { return data + length; }
};

/// A word the copy does not carry: it is zero in every copy (a cache the
/// receiver recomputes).
template <class X> struct alignas(8) transient { X value{}; };

/// Which copy map a graph copy uses (NEMESYS 4.5): linear search, an H3 hash
/// with linear probing of 2^(ceil(log2 o)+1) slots, or chosen by object count
/// (linear up to kLinearMapMaxObjects objects).
enum class copy_map { automatic, linear, hash };
inline constexpr std::size_t kLinearMapMaxObjects = 64;

struct copy_options {
  copy_map map = copy_map::automatic;
  /// Copy into an intermediate buffer in the source's partition whose
  /// pointers are pre-adjusted to the final destination, then move it with
  /// one bulk copy (NEMESYS 4.2, distant memories).
  bool intermediate = false;
};

/// What the measure pass found: objects, and bytes with headers and array
/// stores (the size of the destination buffer).
struct graph_size {
  std::size_t objects = 0;
  std::size_t bytes = 0;
};

namespace detail {
enum word_kind : std::uint8_t {
  kWordData = 0,
  kWordPointer = 1,
  kWordTransient = 2,
  kWordArray = 3
};
inline constexpr std::size_t kObjectHeaderBytes = 40; // type + 4 transition
inline constexpr std::size_t kStoreHeaderBytes = 8;   // tag | bytes

template <class M> struct member_kind {
  static constexpr word_kind kind =
      std::is_pointer_v<M> ? kWordPointer : kWordData;
  static constexpr bool listed_ok = std::is_pointer_v<M>;
  static constexpr std::size_t elem_size = 0;
};
template <class E> struct member_kind<array<E>> {
  static constexpr word_kind kind = kWordArray;
  static constexpr bool listed_ok = true;
  static constexpr std::size_t elem_size = sizeof(E);
  static constexpr word_kind elem =
      std::is_pointer_v<E> ? kWordPointer : kWordData;
  static_assert(std::is_trivially_copyable_v<E> && alignof(E) <= 8,
                "weft::array<E>: E must be trivially copyable, align <= 8");
};
template <class X> struct member_kind<transient<X>> {
  static constexpr word_kind kind = kWordTransient;
  static constexpr bool listed_ok = true;
  static constexpr std::size_t elem_size = 0;
};

struct member_desc {
  std::size_t offset;
  std::size_t size;
  word_kind kind;
  word_kind elem;        // arrays: kWordData or kWordPointer
  std::size_t elem_size; // arrays: bytes per element
};

// Registers a layout (one 2-bit kind per word, the paper's pointer mask) and
// returns the type's id. Validates the mask; throws std::invalid_argument
// naming `call`, the type and the word.
WEFT_API std::uint32_t
register_type(const char *call, const char *name, std::size_t size,
              const std::vector<std::uint8_t> &kinds,
              const std::vector<std::size_t> &elem_sizes);
WEFT_API std::uint32_t register_members(const char *name, std::size_t size,
                                        const member_desc *m, std::size_t n);

// The registered layout of type `id`, one entry per segment of its mask in
// word order: a run of data or transient words (size: the run's bytes), a
// pointer (8 bytes) or an array descriptor (24 bytes; elem and elem_size say
// what its store holds). Throws std::invalid_argument naming the id when it
// is not registered. For code generic over registered types (the IMSuite
// baselines' walk and archive).
WEFT_API std::vector<member_desc> type_layout(std::uint32_t id);

template <class T, class M> member_desc describe(M T::*pm) {
  using K = member_kind<M>;
  static_assert(K::listed_ok,
                "WEFT_TYPE lists members holding pointers, weft::array or "
                "weft::transient; data members are not listed");
  alignas(T) static unsigned char probe[sizeof(T)];
  const T *t = reinterpret_cast<const T *>(probe);
  auto off = static_cast<std::size_t>(
      reinterpret_cast<const unsigned char *>(&(t->*pm)) - probe);
  member_desc d{off, sizeof(M), K::kind, kWordData, K::elem_size};
  if constexpr (K::kind == kWordArray)
    d.elem = K::elem;
  return d;
}

template <class T, class... M>
std::uint32_t register_layout(const char *name, M... pms) {
  static_assert(std::is_trivially_copyable_v<T> && std::is_standard_layout_v<T>,
                "WEFT_TYPE: the type must be trivially copyable and standard "
                "layout (its words are copied as the mask says)");
  static_assert(alignof(T) <= 8, "WEFT_TYPE: alignment above 8 bytes");
  member_desc d[sizeof...(M) + 1] = {describe<T>(pms)...};
  return register_members(name, sizeof(T), d, sizeof...(M));
}

// Memory of place p for an object of type id (size payload bytes), its
// header written; the payload is uninitialised.
WEFT_API void *alloc_object(int place, std::uint32_t type, std::size_t size);
// A zeroed backing store of `bytes` in place p.
WEFT_API void *alloc_store(int place, std::size_t bytes);
// Gives a made object (of type id) or array store back to its arena; throws
// std::invalid_argument naming `call` and the pointer when it is not a live
// block made by make / make_array.
WEFT_API void free_object(const char *call, void *obj, std::uint32_t type);
WEFT_API void free_store(const char *call, void *data);

// A copied graph's buffer (released by graph<T>). remote: it arrived by a
// remote put into this rank's incoming heap (src/dist), not an extent.
struct graph_buffer {
  int place = -1;
  void *base = nullptr;
  std::size_t bytes = 0;
  std::size_t objects = 0;
  bool remote = false;
};
// Measures and copies the graph from root into place p; returns the buffer
// and the copy of root. Throws as documented at the top of this header.
WEFT_API void *copy_graph(const char *call, int place, const void *root,
                          const copy_options &opt, graph_buffer *out);
WEFT_API void release_graph(graph_buffer *b);

// Future state: completion and the waiting worker (its id; -3 when workers
// of more than one id wait, place_set.cpp).
struct async_state {
  std::atomic<bool> done{false};
  std::atomic<int> waiter{-1};
  std::exception_ptr error;
  void *finish_task = nullptr; // add_finish_task
};
// Sets done and wakes a waiter (any thread).
WEFT_API void async_complete(async_state *s);
// Submits a task made by task_create (no dependences) to place p's workers.
// Returns a weft error code.
WEFT_API int task_submit_at(void *handle, int place);
// weft::spawn(f) whose task runs on place p's workers.
template <class F> void spawn_at(place p, F &&f) {
  using G = std::decay_t<F>;
  static_assert(alignof(G) <= 16, "weft::async_at: closure over-aligned");
  void *handle = nullptr, *mem = nullptr;
  check(task_create("weft::async_at", &run_closure<G>, sizeof(G), nullptr, 0, 0,
                    &handle, &mem));
  if (!handle) {
    G g(std::forward<F>(f));
    run_here(&call_closure<G>, &g);
    return;
  }
  try {
    ::new (mem) G(std::forward<F>(f));
  } catch (...) {
    task_discard(handle);
    throw;
  }
  check(task_submit_at(handle, p.id));
}
// Runs other tasks (a weft thread) or yields until s is done.
WEFT_API void async_wait(async_state *s);
// A task in the caller's taskgroup that completes when s does (a detached
// task with an empty body, fulfilled by async_complete), so that finish()
// waits for a remote async_at's reply without a task that waits for it
// (docs/places.md, nested waits). Stored in s; none off a weft thread.
WEFT_API void add_finish_task(async_state *s);
// The place of the calling at() task (thread-local), set and restored.
WEFT_API int swap_here(int place);
WEFT_API void check_place(const char *call, place p);

// The seam to the distributed places (src/dist, library weft_dist): set by
// places_mpi_init, nullptr in one process. See docs/places.md.
struct remote_reply {
  bool error = false;
  const void *value = nullptr; // a value result, or the error's text
  std::size_t value_bytes = 0;
  void *root = nullptr; // a pointer result: its graph in this rank
  graph_buffer graph;
};
using remote_done_fn = void (*)(void *ctx, const remote_reply &);
using remote_serve_fn = void (*)(int from, std::uint64_t seq, void *root,
                                 graph_buffer closure, const void *captures,
                                 std::size_t n);
struct dist_ops {
  int rank;
  int world;
  // Copies root's graph into `target`'s heap, then sends the call; done(ctx,
  // reply) runs on the progress thread when the reply arrives.
  void (*call)(const char *call, int target, std::uint64_t handler,
               const void *root, const copy_options &opt, const void *captures,
               std::size_t n, void *ctx, remote_done_fn done);
  void (*reply_value)(int to, std::uint64_t seq, const void *v, std::size_t n);
  void (*reply_graph)(int to, std::uint64_t seq, const void *root);
  void (*reply_error)(int to, std::uint64_t seq, const char *what);
  void (*release)(graph_buffer *b);
  // With MPI_THREAD_MULTIPLE (else null): receives and handles what arrived
  // on the calling thread unless another thread does; whether it handled a
  // message. polling(true) before a thread polls, polling(false,
  // then_sleeps) after.
  bool (*poll)();
  void (*polling)(bool on, bool then_sleeps);
};
WEFT_API const dist_ops *dist();
WEFT_API void set_dist(const dist_ops *ops);
// The handler table of remote calls: one entry per (root type, closure type)
// instantiation, keyed by a hash of the type's name (identical in every
// rank running the same binary).
WEFT_API std::uint64_t register_remote(const char *key, remote_serve_fn fn);
WEFT_API remote_serve_fn find_remote(std::uint64_t id);
// A plain function pointer as a closure across ranks: its bytes are this
// process's address, so it travels as (loaded object, its GNU build-id,
// offset) and the target translates it back (docs/places.md). encode throws
// std::invalid_argument naming the call and the value for a null pointer or
// one outside every loaded object's code; decode, for an object not loaded
// on this rank, another build of it (the build-ids differ, or one side has
// none) or an offset outside its code.
WEFT_API std::string encode_remote_function(const char *call, int target,
                                            std::uintptr_t fn);
WEFT_API std::uintptr_t decode_remote_function(const char *call, int from,
                                               const void *bytes,
                                               std::size_t n);
template <class F>
inline constexpr bool is_function_pointer_v =
    std::conjunction_v<std::is_pointer<F>,
                       std::is_function<std::remove_pointer_t<F>>>;
} // namespace detail

template <class T> struct type_registration; // specialised by WEFT_TYPE

/// Registers T's layout: WEFT_TYPE(T, &T::ptr_member, &T::array_member...).
/// Use once per type, at global namespace scope.
#define WEFT_TYPE(T, ...)                                                      \
  template <> struct weft::type_registration<T> {                              \
    static inline const std::uint32_t id =                                     \
        weft::detail::register_layout<T>(#T __VA_OPT__(, ) __VA_ARGS__);       \
  }

template <class T>
concept registered = requires {
  type_registration<T>::id;
};

/// A new T in p's arena, constructed from args (braces: aggregates work).
/// Objects made this way live until weft::release(obj) or places_shutdown.
/// Members not given are value-initialised (zero).
template <registered T, class... A> T *make(place p, A &&...args) {
  void *mem = detail::alloc_object(p.id, type_registration<T>::id, sizeof(T));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
  return ::new (mem) T{std::forward<A>(args)...};
#pragma GCC diagnostic pop
}

/// Frees an object made by make<T>: its place's arena reuses the space for
/// the next make of the same size. Nothing may point to it any more (the
/// objects it points to are not freed). Throws std::invalid_argument naming
/// the pointer when obj is not a live object made by make (null, released
/// already, outside every arena, another type, inside a copied graph: a
/// graph copied by weft::copy or at() is released whole, by
/// weft::release(graph), or by at() when f returns for its closure copy).
template <registered T> void release(T *obj) {
  detail::free_object("weft::release", obj, type_registration<T>::id);
}

/// Frees the store of an array made by make_array (a is emptied); as
/// release(T *) for a store. An empty array is left as it is.
template <class E> void release(array<E> &a) {
  if (a.data)
    detail::free_store("weft::release", a.data);
  a = {};
}

/// A zero-filled array of n elements with its store in p's arena.
template <class E> array<E> make_array(place p, std::size_t n) {
  (void)detail::member_kind<array<E>>::kind;
  array<E> a;
  if (n == 0)
    return a;
  a.data = static_cast<E *>(detail::alloc_store(p.id, n * sizeof(E)));
  a.length = n;
  a.bytes = n * sizeof(E);
  return a;
}

// GCC 12 under -fsanitize=thread reports the moves of a graph out of a
// future's state (at()'s local path, inlined) as writing past an
// atomic<bool> of that state (-Wstringop-overflow): a false positive of
// that warning (the state is a whole object of its type); silenced for the
// ThreadSanitizer build only.
#if defined(__SANITIZE_THREAD__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#define WEFT_GRAPH_TSAN_PRAGMA 1
#endif
/// A graph copy in some place's arena; owns its buffer (move-only).
template <class T> class graph {
public:
  graph() = default;
  graph(T *root, detail::graph_buffer b) : root_(root), buf_(b) {}
  graph(graph &&o) noexcept : root_(o.root_), buf_(o.buf_) {
    o.root_ = nullptr;
    o.buf_ = {};
  }
  graph &operator=(graph &&o) noexcept {
    if (this != &o) {
      reset();
      root_ = o.root_;
      buf_ = o.buf_;
      o.root_ = nullptr;
      o.buf_ = {};
    }
    return *this;
  }
  ~graph() { reset(); }
  T *get() const { return root_; }
  T *operator->() const { return root_; }
  T &operator*() const { return *root_; }
  explicit operator bool() const { return root_ != nullptr; }
  place where() const { return place{buf_.place}; }
  /// Objects and bytes of the copy (headers and stores included).
  graph_size size() const { return {buf_.objects, buf_.bytes}; }
  void reset() {
    if (buf_.base)
      detail::release_graph(&buf_);
    buf_ = {};
    root_ = nullptr;
  }

private:
  T *root_ = nullptr;
  detail::graph_buffer buf_;
};

#if defined(WEFT_GRAPH_TSAN_PRAGMA)
#pragma GCC diagnostic pop
#undef WEFT_GRAPH_TSAN_PRAGMA
#endif

/// Frees a graph copy now (graph::reset): its buffer goes back to its
/// place's arena, or, for a graph that arrived from another rank, its range
/// of the incoming ring is released.
template <class T> void release(graph<T> &g) { g.reset(); }

/// Copies the graph reachable from root into p (null root: empty graph).
template <registered T>
graph<T> copy(place p, const T *root, copy_options opt = {}) {
  if (!root)
    return {};
  detail::graph_buffer b;
  void *r = detail::copy_graph("weft::copy", p.id, root, opt, &b);
  return graph<T>(static_cast<T *>(r), b);
}

/// Objects and bytes reachable from root (validating every object).
WEFT_API graph_size measure(const void *root);

namespace detail {
template <class R> struct at_result { using type = R; };
template <class U>
requires registered<U>
struct at_result<U *> {
  using type = graph<U>;
};
template <class R> using at_result_t = typename at_result<R>::type;

template <class R> struct result_slot { std::optional<at_result_t<R>> value; };
template <> struct result_slot<void> {};
} // namespace detail

/// The result of async_at. get() waits (running other tasks on a weft
/// thread) and returns the value or rethrows f's exception; once.
template <class R> class future {
public:
  using value_type = detail::at_result_t<R>;
  struct state : detail::async_state, detail::result_slot<R> {
    // Across ranks (async_at): the state's own reference, held until the
    // reply (so the state and the reply's context are one allocation).
    std::shared_ptr<state> self;
  };
  explicit future(std::shared_ptr<state> s) : s_(std::move(s)) {}
  bool ready() const { return s_->done.load(std::memory_order_acquire); }
  /// Waits until ready (running other tasks on a weft thread).
  void wait() { detail::async_wait(s_.get()); }
  value_type get() {
    detail::async_wait(s_.get());
    if (s_->error)
      std::rethrow_exception(s_->error);
    if constexpr (!std::is_void_v<R>)
      return std::move(*s_->value);
  }

private:
  std::shared_ptr<state> s_;
};

namespace detail {
template <class T, class F>
inline constexpr bool remote_ok = [] {
  using R = std::invoke_result_t<F &, T *>;
  return std::is_trivially_copyable_v<F> &&
         (std::is_void_v<R> || std::is_trivially_copyable_v<R>);
}();

// Runs on the target rank, on the worker that started the arrived call (a
// task of its own, core/inbox.hpp): rebuilds f from its captured bytes and
// runs f(copy) there and then (no task spawned for it: the call is one
// already); the result goes back to `from`.
template <class F>
F remote_closure(int from, const void *captures, std::size_t n) {
  if constexpr (is_function_pointer_v<F>) {
    return reinterpret_cast<F>(
        decode_remote_function("weft::at", from, captures, n));
  } else {
    alignas(F) unsigned char raw[sizeof(F)];
    std::memcpy(raw, captures, sizeof(F));
    return *std::launder(reinterpret_cast<F *>(raw));
  }
}

template <class T, class F>
void serve_remote(int from, std::uint64_t seq, void *root, graph_buffer b,
                  const void *captures, std::size_t n) {
  using R = std::invoke_result_t<F &, T *>;
  graph<T> c(static_cast<T *>(root), b);
  const dist_ops *d = dist();
  int prev = swap_here(d->rank);
  try {
    F f = remote_closure<F>(from, captures, n);
    if constexpr (std::is_void_v<R>) {
      f(c.get());
      c.reset();
      d->reply_value(from, seq, nullptr, 0);
    } else if constexpr (std::is_pointer_v<R>) {
      R r = f(c.get());
      d->reply_graph(from, seq, r); // copies r's graph before it returns
      c.reset();
    } else {
      R v = f(c.get());
      c.reset();
      d->reply_value(from, seq, &v, sizeof v);
    }
  } catch (const std::exception &e) {
    d->reply_error(from, seq, e.what());
  } catch (...) {
    d->reply_error(from, seq, "an exception not derived from std::exception");
  }
  swap_here(prev);
}

template <class T, class F> struct remote_entry {
  static inline const std::uint64_t id =
      register_remote(typeid(remote_entry<T, F>).name(), &serve_remote<T, F>);
};

// Fills s from the reply (any thread).
template <class R, class S>
void fill_remote_result(S &s, const remote_reply &r) {
  if (r.error) {
    s.error = std::make_exception_ptr(std::runtime_error(
        std::string(static_cast<const char *>(r.value), r.value_bytes)));
  } else if constexpr (std::is_pointer_v<R>) {
    if (r.root)
      s.value.emplace(graph<std::remove_pointer_t<R>>(
          static_cast<std::remove_pointer_t<R> *>(r.root), r.graph));
    else
      s.value.emplace();
  } else if constexpr (!std::is_void_v<R>) {
    alignas(R) unsigned char raw[sizeof(R)];
    std::memcpy(raw, r.value, sizeof(R));
    s.value.emplace(*std::launder(reinterpret_cast<R *>(raw)));
  }
}

template <class R> void on_remote_reply(void *ctx, const remote_reply &r) {
  auto *s = static_cast<typename future<R>::state *>(ctx);
  std::shared_ptr<typename future<R>::state> keep = std::move(s->self);
  fill_remote_result<R>(*s, r);
  async_complete(s);
}

// An at()'s state across ranks lives on the caller's stack: it waits for
// the reply before returning (async_wait returns only once async_complete
// no longer touches the state).
template <class R> void on_remote_reply_here(void *ctx, const remote_reply &r) {
  auto *s = static_cast<typename future<R>::state *>(ctx);
  fill_remote_result<R>(*s, r);
  async_complete(s);
}

// Sends the call: f's bytes, or a function pointer as (object, offset).
template <class T, class F>
void send_remote_call(place p, const T *root, F &f, const copy_options &opt,
                      void *ctx, remote_done_fn done) {
  if constexpr (is_function_pointer_v<F>) {
    const std::string ref = encode_remote_function(
        "weft::at", p.id, reinterpret_cast<std::uintptr_t>(f));
    dist()->call("weft::at", p.id, remote_entry<T, F>::id, root, opt,
                 ref.data(), ref.size(), ctx, done);
  } else {
    dist()->call("weft::at", p.id, remote_entry<T, F>::id, root, opt, &f,
                 sizeof(F), ctx, done);
  }
}

[[noreturn]] inline void throw_not_remote_ok(place p, const char *closure) {
  throw std::invalid_argument(
      std::string("weft::at: place ") + std::to_string(p.id) +
      " is on another rank: the closure must be trivially copyable and "
      "return void, a trivially copyable value or a registered pointer (" +
      closure + ")");
}
} // namespace detail

namespace detail {
// The call to a place on another rank (two messages: the call and its
// reply; docs/places.md, the wire protocol).
template <class R, class T, class F>
future<R> remote_async(place p, const T *root, F &f, const copy_options &opt,
                       bool in_finish = false) {
  if constexpr (remote_ok<T, F>) {
    auto s = std::make_shared<typename future<R>::state>();
    s->self = s;
    if (in_finish)
      add_finish_task(s.get());
    try {
      send_remote_call(p, root, f, opt, s.get(), &on_remote_reply<R>);
    } catch (...) {
      s->self.reset();
      async_complete(s.get()); // the finish task ends (the call threw)
      throw;
    }
    return future<R>(std::move(s));
  } else {
    throw_not_remote_ok(p, typeid(F).name());
  }
}

// The result of a remote_call's state (out of line: the rethrow and the
// move stay out of every at() call site).
template <class R>
[[gnu::noinline]] at_result_t<R> remote_result(typename future<R>::state &s) {
  if (s.error)
    std::rethrow_exception(s.error);
  if constexpr (!std::is_void_v<R>)
    return std::move(*s.value);
}

// at() to a place on another rank: as remote_async(...).get(), with the
// state on this stack (no allocation: the call waits for its reply).
template <class R, class T, class F>
at_result_t<R> remote_call(place p, const T *root, F &f,
                           const copy_options &opt) {
  if constexpr (remote_ok<T, F>) {
    typename future<R>::state s;
    send_remote_call(p, root, f, opt, &s, &on_remote_reply_here<R>);
    async_wait(&s);
    return remote_result<R>(s);
  } else {
    throw_not_remote_ok(p, typeid(F).name());
  }
}
} // namespace detail

/// Copies the graph from root into p now, and runs f(copy) there as a task;
/// the result comes back through the future (see at()).
///
/// Across ranks (p on another rank after places_mpi_init): f's captures are
/// copied byte for byte (f must be trivially copyable: capture values, not
/// pointers into this process; a captured pointer arrives unchanged and is
/// not checked) and its result must be void, trivially copyable or a
/// pointer to a registered type; otherwise std::invalid_argument. A plain
/// function pointer travels as (loaded object, offset): refused when null,
/// outside every loaded object's code, or (an error from the target) in an
/// object the target has not loaded. Every rank runs the same binary.
template <registered T, class F>
auto async_at(place p, const T *root, F f, copy_options opt = {})
    -> future<std::invoke_result_t<F &, T *>> {
  using R = std::invoke_result_t<F &, T *>;
  static_assert(!std::is_pointer_v<R> || registered<std::remove_pointer_t<R>>,
                "weft::at: f returns a pointer to an unregistered type");
  detail::check_place("weft::async_at", p);
  if (const detail::dist_ops *d = detail::dist(); d && p.id != d->rank) {
    return detail::remote_async<R>(p, root, f, opt, true);
  }
  int caller = here().id;
  auto s = std::make_shared<typename future<R>::state>();
  graph<T> closure;
  if (root) {
    detail::graph_buffer b;
    void *r = detail::copy_graph("weft::async_at", p.id, root, opt, &b);
    closure = graph<T>(static_cast<T *>(r), b);
  }
  detail::spawn_at(p, [s, p, caller, f = std::move(f), c = std::move(closure),
                       opt]() mutable {
    int prev = detail::swap_here(p.id);
    try {
      if constexpr (std::is_void_v<R>) {
        f(c.get());
      } else if constexpr (std::is_pointer_v<R>) {
        R r = f(c.get());
        s->value.emplace(copy(place{caller}, r, opt));
      } else {
        s->value.emplace(f(c.get()));
      }
    } catch (...) {
      s->error = std::current_exception();
    }
    c.reset();
    detail::swap_here(prev);
    detail::async_complete(s.get());
  });
  return future<R>(std::move(s));
}

/// at(p, root, f): async_at(p, root, f).get().
template <registered T, class F>
auto at(place p, const T *root, F f, copy_options opt = {}) {
  using R = std::invoke_result_t<F &, T *>;
  if (const detail::dist_ops *d = detail::dist(); d && p.id != d->rank) {
    detail::check_place("weft::at", p);
    return detail::remote_call<R>(p, root, f, opt);
  }
  return async_at(p, root, std::move(f), opt).get();
}

/// Runs f() and waits for every task (every async_at) spawned within it and
/// their descendants; rethrows the first exception of one of those tasks.
template <class F> void finish(F &&f) { taskgroup(std::forward<F>(f)); }

} // namespace weft

#endif // WEFT_PLACES_HPP
