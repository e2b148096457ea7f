/* Tests of the C API (bindings/c/include/scamcheck_c.h), written in C so
 * that the header is checked as C. Each CHECK that fails prints its line;
 * the exit status is the number of failures. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scamcheck_c.h"

static int failures = 0;
#define CHECK(cond)                                                     \
  do {                                                                  \
    if (!(cond)) {                                                      \
      fprintf(stderr, "%s:%d: CHECK(%s)\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                       \
    }                                                                   \
  } while (0)

static const char kScam[] =
    "Your parcel is on hold at the depot. Pay the 1.99 EUR customs fee today at "
    "https://dhl-track.example.top/pay or it goes back to the sender.";

/* Analyzes `text` as `kind` and returns the code; *json gets the output. */
static scamcheck_code scan(const scamcheck_analyzer* a, const char* text, size_t len,
                           const char* kind, char** json) {
  return scamcheck_analyze(a, text, len, kind, "en", json);
}

static int contains(const char* json, const char* part) {
  return json != NULL && strstr(json, part) != NULL;
}

static void test_options(void) {
  scamcheck_analyzer* a = (scamcheck_analyzer*)1;
  char* err = NULL;
  CHECK(scamcheck_analyzer_create("{", &a, &err) == SCAMCHECK_INVALID_ARGUMENT);
  CHECK(a == NULL);
  CHECK(contains(err, "\"code\":\"invalid_argument\""));
  CHECK(contains(err, "not valid JSON"));
  scamcheck_free(err);

  CHECK(scamcheck_analyzer_create("{\"use_modle\": false}", &a, &err) ==
        SCAMCHECK_INVALID_ARGUMENT);
  CHECK(contains(err, "unknown option: use_modle"));
  scamcheck_free(err);

  CHECK(scamcheck_analyzer_create("{\"use_model\": 1}", &a, &err) == SCAMCHECK_INVALID_ARGUMENT);
  scamcheck_free(err);
  CHECK(scamcheck_analyzer_create("[]", &a, &err) == SCAMCHECK_INVALID_ARGUMENT);
  scamcheck_free(err);
  CHECK(scamcheck_analyzer_create("{\"ai_url\": \"http://127.0.0.1:9\"}", &a, &err) ==
        SCAMCHECK_INVALID_ARGUMENT); /* a provider needs its model too */
  scamcheck_free(err);
  CHECK(scamcheck_analyzer_create("{\"data_dir\": \"/nonexistent/scamcheck\"}", &a, &err) !=
        SCAMCHECK_OK);
  CHECK(a == NULL && err != NULL);
  scamcheck_free(err);
  CHECK(scamcheck_analyzer_create(NULL, NULL, &err) == SCAMCHECK_INVALID_ARGUMENT);
  scamcheck_free(err);

  /* The rules alone, and an error pointer that may be NULL. */
  CHECK(scamcheck_analyzer_create("{\"use_model\": false}", &a, NULL) == SCAMCHECK_OK);
  char* json = NULL;
  CHECK(scan(a, kScam, strlen(kScam), "text", &json) == SCAMCHECK_OK);
  CHECK(contains(json, "\"verdict\":\"danger\""));
  scamcheck_free(json);
  scamcheck_analyzer_free(a);
}

static void test_analyze(const scamcheck_analyzer* a) {
  char* json = NULL;
  CHECK(scan(a, kScam, strlen(kScam), "text", &json) == SCAMCHECK_OK);
  CHECK(contains(json, "\"kind\":\"text\""));
  CHECK(contains(json, "\"verdict\":\"danger\""));
  CHECK(contains(json, "\"evidence\":\"https://dhl-track.example.top/pay\""));
  scamcheck_free(json);

  const char hello[] = "See you at the station at 6, I'll bring the cake.";
  CHECK(scamcheck_analyze(a, hello, strlen(hello), NULL, NULL, &json) == SCAMCHECK_OK);
  CHECK(contains(json, "\"verdict\":\"safe\""));
  CHECK(contains(json, "\"locale\":\"en\""));
  scamcheck_free(json);

  CHECK(scamcheck_analyze(a, kScam, strlen(kScam), "text", "de-AT", &json) == SCAMCHECK_OK);
  CHECK(contains(json, "\"locale\":\"de\""));
  scamcheck_free(json);

  const char url[] = "http://paypa1-login.example.xyz/verify";
  CHECK(scan(a, url, strlen(url), "url", &json) == SCAMCHECK_OK);
  CHECK(contains(json, "\"kind\":\"url\""));
  scamcheck_free(json);

  /* An e-mail in Latin-1 (not UTF-8) is fine: mail is any bytes. */
  const char mail[] =
      "From: Bank <service@bank-secure.example.top>\r\nTo: user@example.org\r\n"
      "Subject: Konto gesperrt\r\nContent-Type: text/plain; charset=iso-8859-1\r\n\r\n"
      "Ihr Konto wurde gesperrt. Best\xe4tigen Sie Ihre Daten: https://bank-secure.example.top\r\n";
  CHECK(scan(a, mail, sizeof mail - 1, "email", &json) == SCAMCHECK_OK);
  CHECK(contains(json, "\"kind\":\"email\""));
  scamcheck_free(json);

  /* A NUL byte inside the content is content, not its end. */
  const char nul[] = "call me\0 now";
  CHECK(scan(a, nul, sizeof nul - 1, "text", &json) == SCAMCHECK_OK);
  scamcheck_free(json);
}

static void test_errors(const scamcheck_analyzer* a) {
  char* json = NULL;
  CHECK(scan(a, "", 0, "text", &json) == SCAMCHECK_INVALID_ARGUMENT);
  CHECK(contains(json, "\"error\":{\"code\":\"invalid_argument\""));
  scamcheck_free(json);
  CHECK(scan(a, NULL, 0, "text", &json) == SCAMCHECK_INVALID_ARGUMENT);
  scamcheck_free(json);
  CHECK(scan(a, NULL, 5, "text", &json) == SCAMCHECK_INVALID_ARGUMENT);
  scamcheck_free(json);
  CHECK(scan(a, "\xff\xfe bad", 6, "text", &json) == SCAMCHECK_INVALID_ARGUMENT);
  scamcheck_free(json);
  CHECK(scan(a, "hello", 5, "video", &json) == SCAMCHECK_INVALID_ARGUMENT);
  scamcheck_free(json);

  size_t big = 65537;
  char* text = malloc(big);
  memset(text, 'a', big);
  CHECK(scan(a, text, big, "text", &json) == SCAMCHECK_OUT_OF_RANGE);
  CHECK(contains(json, "\"code\":\"out_of_range\""));
  scamcheck_free(json);
  free(text);

  CHECK(scan(a, "not an image", 12, "image", &json) != SCAMCHECK_OK);
  CHECK(contains(json, "\"error\""));
  scamcheck_free(json);

  CHECK(scan(NULL, "hello", 5, "text", &json) == SCAMCHECK_INVALID_ARGUMENT);
  scamcheck_free(json);
  CHECK(scan(a, "hello", 5, "text", NULL) == SCAMCHECK_INVALID_ARGUMENT);
  scamcheck_free(NULL);
  scamcheck_analyzer_free(NULL);
}

/* One analyzer, several threads at once: every answer is the same. */
static void* scan_many(void* arg) {
  const scamcheck_analyzer* a = arg;
  long wrong = 0;
  for (int i = 0; i < 40; ++i) {
    char* json = NULL;
    if (scan(a, kScam, strlen(kScam), "text", &json) != SCAMCHECK_OK ||
        !contains(json, "\"verdict\":\"danger\"")) {
      ++wrong;
    }
    scamcheck_free(json);
  }
  return (void*)wrong;
}

static void test_threads(const scamcheck_analyzer* a) {
  pthread_t threads[4];
  for (int i = 0; i < 4; ++i) {
    CHECK(pthread_create(&threads[i], NULL, scan_many, (void*)a) == 0);
  }
  for (int i = 0; i < 4; ++i) {
    void* wrong = NULL;
    pthread_join(threads[i], &wrong);
    CHECK(wrong == NULL);
  }
}

int main(void) {
  CHECK(strlen(scamcheck_version()) >= 5);
  test_options();
  scamcheck_analyzer* a = NULL;
  char* err = NULL;
  if (scamcheck_analyzer_create(NULL, &a, &err) != SCAMCHECK_OK) {
    fprintf(stderr, "cannot create an analyzer: %s\n", err);
    return 1;
  }
  CHECK(err == NULL);
  test_analyze(a);
  test_errors(a);
  test_threads(a);
  scamcheck_analyzer_free(a);
  if (failures == 0) puts("c_api_test: all checks passed");
  return failures;
}
