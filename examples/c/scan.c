/* Scans a file (or standard input) with the C API and prints the Report
 * JSON; the exit status follows the verdict like the scamcheck CLI does
 * (0 safe, 1 suspicious, 2 danger; 65 bad input, 66 no such file, 70 other).
 *
 *   example_c_scan [--kind text|email|url|image|document] [FILE]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scamcheck_c.h"

static char* read_all(FILE* in, size_t* len) {
  size_t cap = 65536, n = 0;
  char* buf = malloc(cap);
  while (buf != NULL) {
    n += fread(buf + n, 1, cap - n, in);
    if (n < cap) break;
    char* bigger = realloc(buf, cap * 2);
    if (bigger == NULL) free(buf);
    buf = bigger;
    cap *= 2;
  }
  *len = n;
  return buf;
}

int main(int argc, char** argv) {
  const char *kind = "text", *path = NULL;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--kind") == 0 && i + 1 < argc) {
      kind = argv[++i];
    } else if (path == NULL) {
      path = argv[i];
    } else {
      fprintf(stderr, "usage: %s [--kind KIND] [FILE]\n", argv[0]);
      return 64;
    }
  }
  FILE* in = path != NULL ? fopen(path, "rb") : stdin;
  if (in == NULL) {
    perror(path);
    return 66;
  }
  size_t len = 0;
  char* content = read_all(in, &len);
  if (in != stdin) fclose(in);
  if (content == NULL) return 70;

  scamcheck_analyzer* analyzer = NULL;
  char* json = NULL;
  if (scamcheck_analyzer_create(NULL, &analyzer, &json) != SCAMCHECK_OK) {
    fprintf(stderr, "%s\n", json != NULL ? json : "out of memory");
    scamcheck_free(json);
    free(content);
    return 70;
  }
  scamcheck_code code = scamcheck_analyze(analyzer, content, len, kind, "en", &json);
  int status = 70;
  if (code == SCAMCHECK_OK) {
    puts(json);
    /* A real program would parse the JSON; the verdict is enough here. */
    status = strstr(json, "\"verdict\":\"danger\"") != NULL       ? 2
             : strstr(json, "\"verdict\":\"suspicious\"") != NULL ? 1
                                                                  : 0;
  } else {
    fprintf(stderr, "%s\n", json != NULL ? json : "out of memory");
    status = code == SCAMCHECK_INVALID_ARGUMENT || code == SCAMCHECK_OUT_OF_RANGE ? 65 : 70;
  }
  scamcheck_free(json);
  scamcheck_analyzer_free(analyzer);
  free(content);
  return status;
}
