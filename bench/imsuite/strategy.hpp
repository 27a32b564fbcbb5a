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
//        deletes the copy. The kernel writes pull(puller &, const T *) for
//        its types (type-specific code, as Pegasus's walk is).
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
#include <boost/serialization/array_wrapper.hpp>
#include <boost/serialization/split_free.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>
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
  // Whether the object at `remote` was read already.
  bool seen(const void *remote) const { return map_.count(remote) != 0; }
  // Replaces a's store (still the source's address) by a copy of it.
  template <class E> void array(weft::array<E> &a) {
    if (!a.length) {
      a.data = nullptr;
      return;
    }
    void *d = ::operator new[](a.length * sizeof(E));
    stores_.push_back(d);
    read(a.data, d, a.length * sizeof(E));
    a.data = static_cast<E *>(d);
  }

private:
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
                 T *r = pull(pl, static_cast<const T *>(root));
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

// weft::array<E> of trivially copyable E in a Boost archive: the length, then
// the elements as one binary block (loading allocates the store with new[]).
namespace boost::serialization {
template <class A, class E> void save(A &a, const weft::array<E> &v, unsigned) {
  std::uint64_t n = v.length;
  a << n;
  if (n)
    a << boost::serialization::make_array(v.data, n);
}
template <class A, class E> void load(A &a, weft::array<E> &v, unsigned) {
  std::uint64_t n = 0;
  a >> n;
  v.length = n;
  v.bytes = n * sizeof(E);
  v.data = nullptr;
  if (n) {
    v.data = static_cast<E *>(::operator new[](n * sizeof(E)));
    imsuite::tl_loaded_stores.push_back(v.data);
    a >> boost::serialization::make_array(v.data, n);
  }
}
template <class A, class E>
void serialize(A &a, weft::array<E> &v, unsigned version) {
  split_free(a, v, version);
}
} // namespace boost::serialization
