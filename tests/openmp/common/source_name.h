/* omp_source_name(): the file name the FAIL messages carry: NAME when the
   program defines it (before including this header), otherwise the base name
   of the program's source file (__BASE_FILE__, so also when called from a
   shared header). Works as C (gnu11) and C++ (gnu++20). */
#ifndef WEFT_SOURCE_NAME_H
#define WEFT_SOURCE_NAME_H

__attribute__((unused)) static inline const char *omp_source_name(void)
{
#ifdef NAME
  return NAME;
#else
  const char *name = __BASE_FILE__;
  for (const char *p = name; *p; p++)
    if (*p == '/' || *p == '\\')
      name = p + 1;
  return name;
#endif
}

#endif
