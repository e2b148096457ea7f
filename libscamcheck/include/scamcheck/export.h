// Symbol visibility for libscamcheck. The library builds with
// -fvisibility=hidden; only declarations marked SCAMCHECK_EXPORT are part of
// the shared library's interface.
#ifndef SCAMCHECK_EXPORT_H_
#define SCAMCHECK_EXPORT_H_

#if defined(SCAMCHECK_SHARED_LIBRARY)
#if defined(_WIN32)
#if defined(SCAMCHECK_COMPILE_LIBRARY)
#define SCAMCHECK_EXPORT __declspec(dllexport)
#else
#define SCAMCHECK_EXPORT __declspec(dllimport)
#endif
#else
#define SCAMCHECK_EXPORT [[gnu::visibility("default")]]
#endif
#else
#define SCAMCHECK_EXPORT
#endif

#endif  // SCAMCHECK_EXPORT_H_
