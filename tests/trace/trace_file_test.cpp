// The trace file: what the writer writes the reader returns, merged in time
// order, and every kind of damage is an error naming the file and offset.
#include "trace/read/trace_reader.hpp"
#include "trace/record/trace_writer.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace wt = weft::trace;

namespace {

std::string temp_path(const char *name) {
  return std::string(::testing::TempDir()) + "weft_trace_" + name + "_" +
         std::to_string(getpid()) + ".wtr";
}

wt::record rec(wt::kind k, uint16_t thread, uint64_t time, uint64_t task,
               uint64_t arg = 0, uint32_t count = 0, uint8_t sub = 0) {
  wt::record r{};
  r.type = k;
  r.sub = sub;
  r.thread = thread;
  r.count = count;
  r.time = time;
  r.task = task;
  r.arg = arg;
  return r;
}

std::string read_error(const std::string &path) {
  try {
    wt::read(path);
  } catch (const wt::error &e) {
    return e.what();
  }
  return "";
}

std::vector<char> bytes_of(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void write_bytes(const std::string &path, const std::vector<char> &b) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(b.data(), static_cast<std::streamsize>(b.size()));
}

} // namespace

TEST(TraceFile, RoundTripMergesThreadsInTimeOrder) {
  std::string path = temp_path("roundtrip");
  {
    wt::writer w(path, wt::make_header("picos", "prog", 2, 1234));
    std::vector<wt::record> a = {
        rec(wt::kind::task_create, 0, 10, 2, 1, 2),
        rec(wt::kind::dep, 0, 10, 2, 0x1000, 0, uint8_t(wt::dep_mode::in)),
        rec(wt::kind::dep, 0, 10, 2, 0x2000, 0, uint8_t(wt::dep_mode::out)),
        rec(wt::kind::task_begin, 0, 40, 2),
    };
    std::vector<wt::record> b = {rec(wt::kind::task_begin, 1, 10, 3),
                                 rec(wt::kind::task_end, 1, 30, 3),
                                 rec(wt::kind::task_end, 1, 50, 2)};
    w.write_chunk(1, b.data(), 1);
    w.write_chunk(0, a.data(), a.size());
    w.write_chunk(1, b.data() + 1, 2);
    w.close();
  }
  wt::trace_data t = wt::read(path);
  EXPECT_STREQ(t.header.engine, "picos");
  EXPECT_STREQ(t.header.program, "prog");
  EXPECT_EQ(t.header.threads, 2u);
  EXPECT_EQ(t.header.start_unix_ns, 1234u);
  ASSERT_EQ(t.records.size(), 7u);
  // Equal times keep file order: thread 1's begin (first chunk), then the
  // create with its deps right after it.
  std::vector<std::pair<wt::kind, uint64_t>> want = {
      {wt::kind::task_begin, 3}, {wt::kind::task_create, 2},
      {wt::kind::dep, 2},        {wt::kind::dep, 2},
      {wt::kind::task_end, 3},   {wt::kind::task_begin, 2},
      {wt::kind::task_end, 2}};
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(t.records[i].type, want[i].first) << "record " << i;
    EXPECT_EQ(t.records[i].task, want[i].second) << "record " << i;
  }
  EXPECT_EQ(t.records[2].arg, 0x1000u);
  EXPECT_EQ(t.records[3].sub, uint8_t(wt::dep_mode::out));
  std::remove(path.c_str());
}

// In a file of fixed-size records (version 8; compact_test has version 9's
// damage).
TEST(TraceFile, DamageIsAnErrorNamingFileAndOffset) {
  std::string path = temp_path("damage");
  {
    wt::writer w(path, wt::make_header("sw", "p", 1, 0, 0, 1.0, 8));
    std::vector<wt::record> a = {rec(wt::kind::task_create, 0, 1, 2, 1, 1),
                                 rec(wt::kind::dep, 0, 1, 2, 8, 0, 3)};
    w.write_chunk(0, a.data(), a.size());
  }
  std::vector<char> good = bytes_of(path);
  ASSERT_EQ(good.size(), sizeof(wt::file_header) + sizeof(wt::chunk_header) +
                             2 * sizeof(wt::record));
  EXPECT_EQ(read_error(path), "");

  std::vector<char> b = good;
  b[0] = 'X';
  write_bytes(path, b);
  EXPECT_NE(read_error(path).find("bad magic"), std::string::npos);
  EXPECT_NE(read_error(path).find(path), std::string::npos);

  b = good;
  b[8] = 12; // version: one this weft does not know
  write_bytes(path, b);
  EXPECT_NE(read_error(path).find("version 12"), std::string::npos);

  b = good;
  b.resize(b.size() - 5);
  write_bytes(path, b);
  EXPECT_NE(read_error(path).find("truncated chunk"), std::string::npos);

  std::size_t first = sizeof(wt::file_header) + sizeof(wt::chunk_header);
  b = good;
  b[first + sizeof(wt::record)] = 99; // second record's kind
  write_bytes(path, b);
  EXPECT_NE(read_error(path).find("unknown record kind 99"), std::string::npos);
  EXPECT_NE(read_error(path).find("at byte " +
                                  std::to_string(first + sizeof(wt::record))),
            std::string::npos);

  b = good;
  b[first + sizeof(wt::record)] = char(wt::kind::task_begin); // dep missing
  write_bytes(path, b);
  EXPECT_NE(read_error(path).find("more dep records"), std::string::npos);

  b = good;
  b[first + sizeof(wt::record) + 8] = 7; // the dep's time differs
  write_bytes(path, b);
  EXPECT_NE(read_error(path).find("time differs"), std::string::npos);

  EXPECT_NE(read_error(path + ".missing").find("cannot open"),
            std::string::npos);
  std::remove(path.c_str());
}

TEST(TraceFile, WriterReportsUnwritablePathAndUseAfterClose) {
  EXPECT_THROW(
      wt::writer("/nonexistent-dir/x.wtr", wt::make_header("", "", 1, 0)),
      wt::error);
  std::string path = temp_path("closed");
  wt::writer w(path, wt::make_header("sw", "p", 1, 0));
  w.close();
  w.close();
  wt::record r = rec(wt::kind::task_begin, 0, 1, 1);
  EXPECT_THROW(w.write_chunk(0, &r, 1), wt::error);
  std::remove(path.c_str());
}

TEST(TraceFile, NamesCoverEveryValue) {
  for (int k = 1; k <= 10; ++k)
    EXPECT_STRNE(wt::name(static_cast<wt::kind>(k)), "unknown") << k;
  for (int m = 1; m <= 5; ++m)
    EXPECT_STRNE(wt::name(static_cast<wt::dep_mode>(m)), "unknown") << m;
  for (int w = 1; w <= 4; ++w)
    EXPECT_STRNE(wt::name(static_cast<wt::wait_kind>(w)), "unknown") << w;
  EXPECT_STREQ(wt::name(static_cast<wt::kind>(0)), "unknown");
}
