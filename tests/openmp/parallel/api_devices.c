/* Checks the device API on the host: omp_get_num_devices() >= 0, the default device is in [0, num_devices], omp_get_initial_device() == omp_get_num_devices(), omp_is_initial_device() is true and omp_get_device_num() is the host's number everywhere, and omp_set_default_device round trips. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

int main(void)
{
  int nd = omp_get_num_devices();
  check(1, nd >= 0, "omp_get_num_devices() >= 0 (got %d)", nd);
  int def = omp_get_default_device();
  check(1, def >= 0 && def <= nd, "omp_get_default_device() in [0, %d] (got %d)", nd, def);
  int host = omp_get_initial_device();
  check(nd, host, "omp_get_initial_device()");
  check(1, omp_is_initial_device(), "omp_is_initial_device() in sequential part");
  check(host, omp_get_device_num(), "omp_get_device_num() in sequential part");
  omp_set_default_device(host);
  check(host, omp_get_default_device(), "omp_get_default_device() after set(host)");
  int bad_init = 0, bad_num = 0, bad_def = 0;
#pragma omp parallel num_threads(3) reduction(+ : bad_init, bad_num, bad_def)
  {
    bad_init += omp_is_initial_device() != 1;
    bad_num += omp_get_device_num() != host;
    bad_def += omp_get_default_device() != host; /* default-device-var is inherited */
  }
  check(0, bad_init, "threads where omp_is_initial_device() is false");
  check(0, bad_num, "threads with a different omp_get_device_num()");
  check(0, bad_def, "threads with a different omp_get_default_device()");
  omp_set_default_device(def);
  check(def, omp_get_default_device(), "omp_get_default_device() after restoring");
  return failures != 0;
}
