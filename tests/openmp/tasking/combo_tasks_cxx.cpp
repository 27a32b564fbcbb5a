// Checks C++ code in tasks: lambdas and std::function invoked from tasks, exceptions thrown and caught inside a task, std::vector/std::string results, class members captured via this, and balanced object lifetimes.
#include <omp.h>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define NAME "combo_tasks_cxx.cpp"

#include "omp_check.h"

#include <functional>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

static long live;

struct Node {
  int value;
  std::vector<int> data;
  explicit Node(int v) : value(v), data(16, v) { __atomic_fetch_add(&live, 1, __ATOMIC_RELAXED); }
  Node(const Node &o) : value(o.value), data(o.data) { __atomic_fetch_add(&live, 1, __ATOMIC_RELAXED); }
  ~Node() { __atomic_fetch_sub(&live, 1, __ATOMIC_RELAXED); }
};

class Summer {
public:
  explicit Summer(int n) : parts_(n, 0) {}
  void run()
  {
    for (size_t i = 0; i < parts_.size(); i++) {
#pragma omp task firstprivate(i) // 'this' is captured for member access
      parts_[i] = compute(int(i));
    }
#pragma omp taskwait
  }
  long total() const { return std::accumulate(parts_.begin(), parts_.end(), 0L); }

private:
  long compute(int i) const { return long(i) * i; }
  std::vector<long> parts_;
};

static int checked_div(int a, int b)
{
  if (b == 0)
    throw std::runtime_error("division by zero");
  return a / b;
}

int main()
{
  int caught = 0, divided = 0;
  long lambda_sum = 0, node_sum = 0, member_total = 0;
  std::vector<std::string> names(50);
  {
#pragma omp parallel shared(caught, divided, lambda_sum, node_sum, member_total, names)
#pragma omp single
    {
      std::function<long(int)> sq = [](int x) { return long(x) * x; };
      auto add = [&lambda_sum](long v) {
#pragma omp atomic
        lambda_sum += v;
      };
      for (int i = 0; i < 100; i++) {
#pragma omp task firstprivate(i, sq, add)
        add(sq(i));
      }
      for (int i = 0; i < 40; i++) {
#pragma omp task firstprivate(i) shared(caught, divided)
        {
          try {
            int q = checked_div(100, i % 4); // throws for i % 4 == 0
            (void)q;
#pragma omp atomic
            divided++;
          } catch (const std::runtime_error &) {
#pragma omp atomic
            caught++;
          }
        }
      }
      for (int i = 0; i < 50; i++) {
        Node n(i);
#pragma omp task firstprivate(n, i) shared(node_sum, names)
        {
          long s = std::accumulate(n.data.begin(), n.data.end(), 0L);
#pragma omp atomic
          node_sum += s;
          names[i] = "task-" + std::to_string(n.value);
        }
      }
      Summer summer(64);
#pragma omp task shared(summer, member_total)
      {
        summer.run();
        member_total = summer.total();
      }
#pragma omp taskwait
    }
  }
  EXPECT(328350, lambda_sum, "sum of squares through std::function in tasks");
  EXPECT(10, caught, "exceptions caught inside tasks");
  EXPECT(30, divided, "tasks that did not throw");
  EXPECT(16L * 1225, node_sum, "firstprivate Node data");
  int bad_names = 0;
  for (int i = 0; i < 50; i++)
    bad_names += names[i] != "task-" + std::to_string(i);
  EXPECT(0, bad_names, "strings written by tasks");
  EXPECT(63L * 64 * 127 / 6, member_total, "member function tasks");
  EXPECT(0, live, "Node objects alive at the end");
  return failures != 0;
}
