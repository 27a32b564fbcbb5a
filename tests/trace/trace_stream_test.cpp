// record_stream against trace::read: random traces of several threads,
// each in many chunks interleaved in the file, with many equal times, give
// the same records in the same order; damage is an error naming the file.
#include "trace/read/trace_reader.hpp"
#include "trace/read/trace_stream.hpp"
#include "trace/record/trace_writer.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace weft;

std::string temp_path(const char *tag) {
  return testing::TempDir() + "weft_stream_" + tag + "_" +
         std::to_string(getpid()) + ".wtr";
}

// Threads' records in time order (times from a small range, so that many
// are equal across threads), some task_create records with dep records,
// written in chunks of random length in a random thread order.
void write_random(const std::string &path, std::mt19937 &rng, int threads) {
  trace::writer w(path, trace::make_header("sw", "stream_test", 4, 0));
  std::vector<std::vector<trace::record>> per(threads);
  std::vector<uint64_t> now(threads, 0);
  uint64_t id = 1;
  for (int i = 0; i < 4000; ++i) {
    int t = static_cast<int>(rng() % threads);
    now[t] += rng() % 3;
    trace::record r{};
    r.thread = static_cast<uint16_t>(t);
    r.time = now[t];
    r.task = id++;
    if (rng() % 4 == 0) {
      r.type = trace::kind::task_create;
      r.count = rng() % 3;
      per[t].push_back(r);
      for (uint32_t k = 0; k < r.count; ++k) {
        trace::record d = r;
        d.type = trace::kind::dep;
        d.count = 0;
        d.sub = uint8_t(trace::dep_mode::in);
        d.arg = 0x1000 + k;
        per[t].push_back(d);
      }
    } else {
      r.type = trace::kind::counter;
      r.sub = uint8_t(trace::counter_id::ready);
      per[t].push_back(r);
    }
  }
  std::vector<std::size_t> at(threads, 0);
  for (;;) {
    std::vector<int> left;
    for (int t = 0; t < threads; ++t)
      if (at[t] < per[t].size())
        left.push_back(t);
    if (left.empty())
      break;
    int t = left[rng() % left.size()];
    std::size_t n = 1 + rng() % 50;
    std::size_t end = std::min(per[t].size(), at[t] + n);
    // A record's dep records stay in its chunk.
    while (end < per[t].size() && per[t][end].type == trace::kind::dep)
      ++end;
    w.write_chunk(static_cast<uint16_t>(t), per[t].data() + at[t], end - at[t]);
    at[t] = end;
  }
  w.close();
}

TEST(TraceStream, SameRecordsInTheSameOrderAsRead) {
  std::mt19937 rng(7);
  for (int threads : {1, 2, 5}) {
    std::string path = temp_path("order");
    write_random(path, rng, threads);
    trace::trace_data all = trace::read(path);
    trace::record_stream s(path);
    EXPECT_EQ(s.total(), all.records.size());
    EXPECT_STREQ(s.header().program, "stream_test");
    trace::record r;
    std::size_t i = 0;
    while (s.next(r)) {
      ASSERT_LT(i, all.records.size());
      ASSERT_EQ(std::memcmp(&r, &all.records[i], sizeof r), 0)
          << "record " << i << " of " << threads << " threads";
      ++i;
    }
    EXPECT_EQ(i, all.records.size());
    EXPECT_EQ(s.done(), all.records.size());
    std::remove(path.c_str());
  }
}

TEST(TraceStream, DamageIsAnErrorNamingTheFile) {
  std::mt19937 rng(11);
  std::string path = temp_path("damage");
  write_random(path, rng, 2);
  long size = 0;
  {
    std::ifstream f(path, std::ios::binary | std::ios::ate);
    size = static_cast<long>(f.tellg());
  }
  ASSERT_EQ(truncate(path.c_str(), size - 5), 0);
  try {
    trace::record_stream s(path);
    FAIL() << "a truncated trace was accepted";
  } catch (const trace::error &e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  std::remove(path.c_str());
  EXPECT_THROW(trace::record_stream(temp_path("missing")), trace::error);
}

} // namespace
