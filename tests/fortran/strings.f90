! The CHARACTER arguments of the Fortran omp_lib (address plus hidden
! length): omp_set_affinity_format / omp_get_affinity_format round trips
! (blank padding, truncation, the full length returned), omp_capture_affinity
! in every thread of a region (explicit and default formats, a short
! buffer), then omp_display_affinity and omp_display_env, whose stderr the
! test's registration checks (argument "verbose": omp_display_env(.true.)).
program strings
  use omp_lib
  implicit none
  integer :: failures = 0
  character(len=32) :: buf, arg
  character(len=3) :: b3
  integer :: k, bad

  call omp_set_affinity_format('T%n/%N')
  k = omp_get_affinity_format(buf)
  call check(k == 6 .and. buf == 'T%n/%N', &
             'omp_get_affinity_format: the format, blank-padded')
  k = omp_get_affinity_format(b3)
  call check(k == 6 .and. b3 == 'T%n', &
             'omp_get_affinity_format: truncated to the buffer, full length')
  call omp_set_affinity_format('ab  ')
  k = omp_get_affinity_format(buf)
  call check(k == 4, 'omp_set_affinity_format keeps trailing blanks')
  call omp_set_affinity_format('T%n/%N')

  bad = 0
  !$omp parallel private(buf, b3, k) shared(bad)
  block
    character(len=32) :: want
    write (want, '(a,i0)') 'x', omp_get_thread_num()
    k = omp_capture_affinity(buf, 'x%n')
    if (k /= len_trim(want) .or. buf /= want) then
      !$omp atomic
      bad = bad + 1
    end if
    write (want, '(a,i0,a,i0)') 'T', omp_get_thread_num(), '/', &
      omp_get_num_threads()
    k = omp_capture_affinity(buf, '')
    if (k /= len_trim(want) .or. buf /= want) then
      !$omp atomic
      bad = bad + 1
    end if
    k = omp_capture_affinity(b3, 'abcdef')
    if (k /= 6 .or. b3 /= 'abc') then
      !$omp atomic
      bad = bad + 1
    end if
  end block
  !$omp end parallel
  call check(bad == 0, 'omp_capture_affinity in every thread')

  ! Checked by the registration on stderr.
  call omp_display_affinity('marker %n of %N')
  call omp_display_affinity('')
  call get_command_argument(1, arg)
  call omp_display_env(trim(arg) == 'verbose')

  call finish('strings')
contains
  include 'checks.inc'
end program strings
