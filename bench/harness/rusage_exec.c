/* rusage_exec RESULT_FILE TIMEOUT_SECONDS PROGRAM [ARG...]
 *
 * Runs PROGRAM (standard streams inherited) and writes one line to RESULT_FILE:
 *   wall_seconds cpu_seconds max_rss_kib voluntary_switches exit_status
 * (exit_status negative: killed by that signal; -9 after TIMEOUT_SECONDS).
 *
 * Why not measure from Python directly: Linux keeps the larger of the old and new address
 * space's high-water mark across exec, and Python's subprocess forks with vfork, so a child's
 * ru_maxrss was never below the harness's own ~20 MiB. Forked from this small program, the
 * floor is about 1 MiB. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile pid_t child;

static void forward(int signal_number) {
  if (child > 0) kill(child, signal_number == SIGALRM ? SIGKILL : signal_number);
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: rusage_exec RESULT_FILE TIMEOUT_SECONDS PROGRAM [ARG...]\n");
    return 2;
  }
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  child = fork();
  if (child < 0) return perror("fork"), 2;
  if (child == 0) {
    execvp(argv[3], argv + 3);
    perror(argv[3]);
    _exit(127);
  }
  signal(SIGALRM, forward);
  signal(SIGTERM, forward);
  signal(SIGINT, forward);
  alarm((unsigned)atoi(argv[2]));
  int status;
  struct rusage usage;
  while (wait4(child, &status, 0, &usage) < 0) {}
  clock_gettime(CLOCK_MONOTONIC, &end);
  FILE *result = fopen(argv[1], "w");
  if (!result) return perror(argv[1]), 2;
  fprintf(result, "%.6f %.6f %ld %ld %d\n",
          (double)(end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9,
          usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
              (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6,
          usage.ru_maxrss, usage.ru_nvcsw,
          WIFSIGNALED(status) ? -WTERMSIG(status) : WEXITSTATUS(status));
  fclose(result);
  return 0;
}
