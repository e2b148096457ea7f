// SqliteStore: the Store on one SQLite file in WAL mode with
// synchronous=NORMAL, so a committed transaction survives a crash of the
// process (CONTRACT §8).
//
// Threads: reads use a pool of connections (one per thread that reads at
// the same time, up to the pool size); all writes go to one writer thread
// that commits whatever has queued up as one transaction (group commit), so
// many concurrent scans cost one commit. Each queued write runs in its own
// savepoint: one failing write does not undo the others.
//
// Several processes may open the same file (the operator CLI next to a
// running server); SQLite serializes their writes (busy timeout 5 s). The
// daily allowance is counted in this process (quota.h), so one server
// process per SQLite file.
#ifndef SCAMCHECK_ADAPTERS_SERVER_STORAGE_SQLITE_SQLITE_STORE_H_
#define SCAMCHECK_ADAPTERS_SERVER_STORAGE_SQLITE_SQLITE_STORE_H_

#include <memory>
#include <string>

#include "storage/store.h"

namespace scamcheck::server {

// Opens (creating if missing) the SQLite database at `path`. Does not
// migrate; call migrate() before use.
Result<std::unique_ptr<Store>> open_sqlite_store(const std::string& path,
                                                 const StoreOptions& options = {});

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_STORAGE_SQLITE_SQLITE_STORE_H_
