// jemalloc's settings for scamcheckd, read by jemalloc at start-up (linked
// only with jemalloc, see CMakeLists.txt). background_thread: freed memory
// goes back to the system after jemalloc's decay time even while the server
// is idle (without it, pages are purged only on later allocations), so the
// RSS drops once idle OCR engines are ended.
extern "C" {
// NOLINTNEXTLINE: the name and type are jemalloc's interface.
__attribute__((visibility("default"))) const char* malloc_conf = "background_thread:true";
}
