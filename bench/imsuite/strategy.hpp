// How an IMSuite kernel's data-carrying at() moves its graph (issue 13 items
// 5 and 7; the paper's 5.4.3), chosen per run by --strategy, and the paper's
// timers T_at and T_com:
//
//  weft  weft::at: the graph is copied by weft (measured, copied into the
//        intermediate buffer, one put) and f runs on the copy.
//  mp    message passing with Boost.Serialization: the caller serialises the
//        graph through its root pointer (a binary archive, object tracking on,
//        so sharing and cycles survive) with the serialize functions the
//        kernel writes for its types; weft's at() carries the archive as one
//        byte array; the target deserialises it into objects of its own
//        (new, array stores new[]), runs f on them and deletes them.
//  pegasus  the target walks the source graph in software (the Pegasus-style
//        baseline): the call carries only the root's address; the target
//        reads the graph object by object from the caller's place (one
//        places_mpi_get, an MPI_Get, per object and per array store across
//        ranks; memcpy in one process), builds its copy with new and a
//        std::unordered_map copy map (sharing and cycles kept), runs f and
//        deletes the copy. The walk and the archive's serialize are one
//        template each over the type's registered layout
//        (weft::detail::type_layout): data runs as bytes, array stores of
//        data as one block, transient words zero; the kernels write no
//        per-type code. Pointer members are not walked by the layout (the
//        pointee's static type is not in it): a type with them brings its
//        own pull(puller &, const T *), found by ADL, and Boost serialize
//        (bench/places_dist.cpp's list); without them the walk aborts
//        naming itself.
//
// send(p, root, f) is the kernel's at(p, root, f) for f returning void. Each
// send adds its wall time on the calling place to T_at, and f's own time on
// the target to T_func; T_com = T_at - T_func, the time an at() spends on
// anything but f (copy or serialisation, transport, scheduling).
#pragma once

#include <weft/dist.hpp>
#include <weft/places.hpp>

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/binary_object.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <unordered_map>
#include <vector>

namespace imsuite {

enum class strategy { weft, mp, pegasus };

// The archive of the mp strategy: one byte array.
struct wire {
  weft::array<char> bytes;
};

} // namespace imsuite

WEFT_TYPE(imsuite::wire, &imsuite::wire::bytes);

namespace imsuite {

// The timers of each place (a place per rank, or several in one process).
struct timers {
  std::atomic<std::int64_t> at_ns{0}, func_ns{0}, calls{0}, wire_bytes{0};
};
inline constexpr int kMaxTimedPlaces = 64;
inline timers g_timers[kMaxTimedPlaces];
inline strategy g_strategy = strategy::weft;

inline std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Array stores the mp strategy's loading made on this thread (freed after f).
inline thread_local std::vector<void *> tl_loaded_stores;

// T's registered layout, read once.
template <class T> const std::vector<weft::detail::member_desc> &layout_of() {
  static const std::vector<weft::detail::member_desc> l =
      weft::detail::type_layout(weft::type_registration<T>::id);
  return l;
}

// The three words of an array descriptor (any element type).
struct descriptor {
  void *data;
  std::uint64_t length, bytes;
};
static_assert(sizeof(descriptor) == sizeof(weft::array<char>));

[[noreturn]] inline void pointers_not_walked(const char *who,
                                             const char *type) {
  std::fprintf(stderr,
               "%s: %s has a pointer member or an array of pointers; the "
               "baselines' generic walk copies flat messages only\n",
               who, type);
  std::abort();
}

// The pegasus strategy's reader of a graph in place `from` (see above).
class puller {
public:
  explicit puller(int from) : from_(from) {}
  puller(const puller &) = delete;
  puller &operator=(const puller &) = delete;
  ~puller() {
    for (void *o : objects_)
      ::operator delete(o);
    for (void *q : stores_)
      ::operator delete[](q);
  }
  // The copy of the object at `remote` (read once; nullptr stays nullptr).
  template <class T> T *object(const T *remote) {
    if (!remote)
      return nullptr;
    auto it = map_.find(remote);
    if (it != map_.end())
      return static_cast<T *>(it->second);
    void *c = ::operator new(sizeof(T));
    objects_.push_back(c);
    read(remote, c, sizeof(T));
    map_.emplace(remote, c);
    return static_cast<T *>(c);
  }
  // The copy of the message at `remote` with its array stores, walked by
  // T's registered layout (transient words zeroed).
  template <class T> T *message(const T *remote) {
    if (!remote || seen(remote))
      return object(remote);
    T *c = object(remote);
    char *o = reinterpret_cast<char *>(c);
    for (const weft::detail::member_desc &m : layout_of<T>()) {
      if (m.kind == weft::detail::kWordTransient)
        std::memset(o + m.offset, 0, std::min(m.size, sizeof(T) - m.offset));
      else if (m.kind == weft::detail::kWordPointer ||
               (m.kind == weft::detail::kWordArray &&
                m.elem == weft::detail::kWordPointer))
        pointers_not_walked("imsuite::puller::message", typeid(T).name());
      else if (m.kind == weft::detail::kWordArray)
        store(o + m.offset, m.elem_size);
    }
    return c;
  }
  // Whether the object at `remote` was read already.
  bool seen(const void *remote) const { return map_.count(remote) != 0; }

private:
  // Replaces the store of the descriptor at `at` (still the source's
  // address) by a copy of it.
  void store(char *at, std::size_t elem_size) {
    descriptor d;
    std::memcpy(&d, at, sizeof d);
    if (!d.length) {
      d.data = nullptr;
    } else {
      std::size_t n = std::size_t(d.length) * elem_size;
      void *q = ::operator new[](n);
      stores_.push_back(q);
      read(d.data, q, n);
      d.data = q;
    }
    std::memcpy(at, &d, sizeof d);
  }
  void read(const void *remote, void *dst, std::size_t n) {
    if (weft::detail::dist() && from_ != weft::here().id)
      weft::places_mpi_get(from_, remote, dst, n);
    else
      std::memcpy(dst, remote, n);
  }
  int from_;
  std::unordered_map<const void *, void *> map_;
  std::vector<void *> objects_, stores_;
};

// The pegasus strategy's copy of root: the type's own pull when it has one
// (pointer members), else the walk by its registered layout.
template <class T> T *walk(puller &pl, const T *root) {
  if constexpr (requires { pull(pl, root); })
    return pull(pl, root);
  else
    return pl.message(root);
}

// The mp strategy's archive object of this thread in this place, its store
// grown to at least n bytes (objects made with make are never freed: it is
// reused, and a store too small is left behind). at() has sent the graph when
// it returns from the call, so the next send may overwrite it.
inline wire *archive_buffer(std::size_t n) {
  struct buffer {
    wire *w = nullptr;
    std::size_t capacity = 0;
  };
  thread_local buffer per_place[kMaxTimedPlaces]; // one in each place
  buffer &b = per_place[weft::here().id];
  if (!b.w || n > b.capacity) {
    b.capacity = std::max<std::size_t>(n, 2 * b.capacity);
    b.w = weft::make<wire>(weft::here());
    b.w->bytes = weft::make_array<char>(weft::here(), b.capacity);
  }
  b.w->bytes.length = n;
  b.w->bytes.bytes = n;
  return b.w;
}

template <class T, class F> void send(weft::place p, T *root, F f) {
  timers &mine = g_timers[weft::here().id];
  std::int64_t t0 = now_ns();
  if (g_strategy == strategy::pegasus) {
    weft::at(p, static_cast<wire *>(nullptr),
             [f, root, from = weft::here().id](wire *) mutable {
               std::int64_t s1, s2;
               {
                 puller pl(from);
                 T *r = walk(pl, static_cast<const T *>(root));
                 s1 = now_ns();
                 f(r);
                 s2 = now_ns();
               }
               g_timers[weft::here().id].func_ns.fetch_add(
                   s2 - s1, std::memory_order_relaxed);
             });
  } else if (g_strategy == strategy::weft) {
    weft::at(p, root, [f](T *c) mutable {
      std::int64_t s = now_ns();
      f(c);
      g_timers[weft::here().id].func_ns.fetch_add(now_ns() - s,
                                                  std::memory_order_relaxed);
    });
  } else {
    std::ostringstream os;
    {
      boost::archive::binary_oarchive oa(os, boost::archive::no_header);
      oa << root;
    }
    std::string s = os.str();
    wire *w = archive_buffer(s.size());
    std::memcpy(w->bytes.data, s.data(), s.size());
    mine.wire_bytes.fetch_add(std::int64_t(s.size()),
                              std::memory_order_relaxed);
    weft::at(p, w, [f](wire *c) mutable {
      T *r = nullptr;
      {
        std::istringstream is(std::string(c->bytes.data, c->bytes.size()));
        boost::archive::binary_iarchive ia(is, boost::archive::no_header);
        ia >> r;
      }
      std::int64_t s1 = now_ns();
      f(r);
      std::int64_t s2 = now_ns();
      delete r;
      for (void *q : tl_loaded_stores)
        ::operator delete[](q);
      tl_loaded_stores.clear();
      g_timers[weft::here().id].func_ns.fetch_add(s2 - s1,
                                                  std::memory_order_relaxed);
    });
  }
  mine.at_ns.fetch_add(now_ns() - t0, std::memory_order_relaxed);
  mine.calls.fetch_add(1, std::memory_order_relaxed);
}

} // namespace imsuite

namespace imsuite {
// The mp strategy's archive of a registered message, by its layout: data
// runs as bytes, each array store of data as its length and one binary block
// (loading allocates the store with new[], freed after f), transient words
// zero. Object tracking is Boost's default for a class saved through a
// pointer.
template <class A, class T> void serialize_layout(A &a, T &t) {
  char *o = reinterpret_cast<char *>(&t);
  for (const weft::detail::member_desc &m : layout_of<T>()) {
    std::size_t len = std::min(m.size, sizeof(T) - m.offset);
    if (m.kind == weft::detail::kWordData) {
      a &boost::serialization::make_binary_object(o + m.offset, len);
    } else if (m.kind == weft::detail::kWordTransient) {
      if constexpr (A::is_loading::value)
        std::memset(o + m.offset, 0, len);
    } else if (m.kind == weft::detail::kWordPointer ||
               m.elem == weft::detail::kWordPointer) {
      pointers_not_walked("imsuite::serialize_layout", typeid(T).name());
    } else {
      descriptor d;
      std::memcpy(&d, o + m.offset, sizeof d);
      a &d.length;
      std::size_t n = std::size_t(d.length) * m.elem_size;
      if constexpr (A::is_loading::value) {
        d.bytes = n;
        d.data = nullptr;
        if (n) {
          d.data = ::operator new[](n);
          tl_loaded_stores.push_back(d.data);
        }
        std::memcpy(o + m.offset, &d, sizeof d);
      }
      if (n)
        a &boost::serialization::make_binary_object(d.data, n);
    }
  }
}
} // namespace imsuite

// Every registered type but the archive's own wire is archived by its layout
// (more constrained than Boost's default serialize, so it is chosen).
namespace boost::serialization {
template <class Archive, class T>
requires weft::registered<T> &&
    (!std::is_same_v<T, imsuite::wire>)inline void serialize(
        Archive &a, T &t, const unsigned int) {
  imsuite::serialize_layout(a, t);
}
} // namespace boost::serialization
