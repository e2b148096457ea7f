/*
 * scamcheck_c.h: the C API of ScamCheck (libscamcheck_c.so), for FFI users
 * such as browser-extension native hosts and other languages.
 *
 * Same analysis as the C++ library (scamcheck/scamcheck.h), with JSON out:
 * a successful scan gives the Report exactly as the CLI and the scan API
 * print it (CONTRACT §1), an error gives
 *   {"error": {"code": "invalid_argument", "message": "..."}}
 * with the same code as the return value. Every string this library returns
 * is UTF-8, NUL-terminated and owned by the caller: free it with
 * scamcheck_free().
 *
 *   scamcheck_analyzer *analyzer = NULL;
 *   char *json = NULL;
 *   if (scamcheck_analyzer_create(NULL, &analyzer, &json) != SCAMCHECK_OK) { ...json... }
 *   scamcheck_free(json);
 *   const char *sms = "Your parcel is on hold: pay 1.99 EUR at https://dhl.example.top";
 *   scamcheck_code code = scamcheck_analyze(analyzer, sms, strlen(sms), "text", "en", &json);
 *   ... json holds the Report (or the error) ...
 *   scamcheck_free(json);
 *   scamcheck_analyzer_free(analyzer);
 *
 * An analyzer is immutable once created: scamcheck_analyze() may be called
 * on one analyzer from many threads at once. Nothing here throws, aborts or
 * reads past the lengths given; bad input is an error code.
 *
 * ABI: only the functions and the enum below are exported; structures stay
 * opaque, and new options are new keys of the options JSON, so the ABI is
 * stable across versions with the same SCAMCHECK_C_ABI_VERSION (the
 * library's SONAME is libscamcheck_c.so.<that number>).
 */
#ifndef SCAMCHECK_C_H_
#define SCAMCHECK_C_H_

#include <stddef.h>

#if defined(_WIN32)
#define SCAMCHECK_C_API
#else
#define SCAMCHECK_C_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define SCAMCHECK_C_ABI_VERSION 1

/* Return codes; the "code" member of an error JSON is the name in lower case
 * without the prefix ("invalid_argument", ...). */
typedef enum scamcheck_code {
  SCAMCHECK_OK = 0,
  SCAMCHECK_INVALID_ARGUMENT = 1,   /* empty content, invalid UTF-8, unknown kind, bad options */
  SCAMCHECK_OUT_OF_RANGE = 2,       /* content over its size limit (64 KiB; 10 MiB for files) */
  SCAMCHECK_NOT_FOUND = 3,          /* a file named in the options does not exist */
  SCAMCHECK_RESOURCE_EXHAUSTED = 4, /* out of memory or an internal budget */
  SCAMCHECK_DEADLINE_EXCEEDED = 5,  /* an image or document took too long */
  SCAMCHECK_UNAVAILABLE = 6,        /* e.g. no OCR models for an image */
  SCAMCHECK_UNIMPLEMENTED = 7,      /* not available in this build */
  SCAMCHECK_INTERNAL = 8            /* a bug; please report it */
} scamcheck_code;

typedef struct scamcheck_analyzer scamcheck_analyzer;

/* The library version, e.g. "0.1.0" (static storage; do not free). */
SCAMCHECK_C_API const char* scamcheck_version(void);

/* Creates an analyzer. `options_json` may be NULL or a JSON object with any
 * of these members (all optional; unknown members are an error, so a typo
 * does not go unnoticed):
 *   "data_dir"          data pack directory ("" = the pack built in)
 *   "use_model"         false: score with the rules alone (default true)
 *   "model_file"        model weights to use instead of the pack's
 *   "tessdata_dir"      Tesseract models for images ("" = Debian's place)
 *   "ocr_languages"     e.g. "eng+deu"
 *   "ai_url", "ai_key", "ai_model"              an OpenAI-compatible AI provider
 *   "safe_browsing_key", "safe_browsing_url"   Google Safe Browsing v4
 *   "urlhaus_url", "urlhaus_key"               URLhaus
 * Loading the data pack takes tens of milliseconds: create one analyzer and
 * keep it. On success *out_analyzer is set and, if out_error is not NULL,
 * *out_error is NULL; on failure *out_analyzer is NULL and *out_error (if
 * not NULL) receives the error JSON. */
SCAMCHECK_C_API scamcheck_code scamcheck_analyzer_create(const char* options_json,
                                                         scamcheck_analyzer** out_analyzer,
                                                         char** out_error);

/* Frees an analyzer (NULL is fine). No call may be running on it. */
SCAMCHECK_C_API void scamcheck_analyzer_free(scamcheck_analyzer* analyzer);

/* Analyzes `content_len` bytes at `content`: kind "text" (default when
 * NULL), "email" (a raw RFC 822 message, any bytes), "url", "image" or
 * "document" (the file's bytes); `locale` is a BCP 47 tag for the
 * explanations (NULL: "en"). *out_json receives the Report JSON, or the
 * error JSON when the return value is not SCAMCHECK_OK. The Report is
 * bounded (CONTRACT §10): at most 64 KiB, 64 signals and 100 urls; a
 * repeated signal carries "occurrences" and "truncated": true says
 * something was left out. */
SCAMCHECK_C_API scamcheck_code scamcheck_analyze(const scamcheck_analyzer* analyzer,
                                                 const char* content, size_t content_len,
                                                 const char* kind, const char* locale,
                                                 char** out_json);

/* Frees a string returned by this library (NULL is fine). */
SCAMCHECK_C_API void scamcheck_free(char* string);

#ifdef __cplusplus
}
#endif

#endif /* SCAMCHECK_C_H_ */
