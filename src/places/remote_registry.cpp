// The handler table of remote at() calls (detail::register_remote): filled
// during static initialisation, read by the progress thread of src/dist.
#include "fnv1a.hpp"

#include <weft/places.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

namespace weft::detail {

namespace {
struct entry {
  std::string key;
  remote_serve_fn fn;
};
struct table {
  std::mutex lock;
  std::unordered_map<std::uint64_t, entry> map;
};
table &handlers() {
  static table t;
  return t;
}
std::uint64_t handler_id(const char *key) {
  std::uint64_t h = kFnv1aStart;
  fnv1a_mix(h, key, std::strlen(key));
  return h | 1; // never 0
}
} // namespace

std::uint64_t register_remote(const char *key, remote_serve_fn fn) {
  std::uint64_t id = handler_id(key);
  table &t = handlers();
  std::lock_guard<std::mutex> lk(t.lock);
  auto [it, fresh] = t.map.try_emplace(id, entry{key, fn});
  if (!fresh && it->second.key != key) {
    std::fprintf(stderr,
                 "weft::at: remote handlers %s and %s hash to the same id "
                 "%llx\n",
                 it->second.key.c_str(), key,
                 static_cast<unsigned long long>(id));
    std::abort();
  }
  return id;
}

remote_serve_fn find_remote(std::uint64_t id) {
  table &t = handlers();
  std::lock_guard<std::mutex> lk(t.lock);
  auto it = t.map.find(id);
  return it == t.map.end() ? nullptr : it->second.fn;
}

} // namespace weft::detail
