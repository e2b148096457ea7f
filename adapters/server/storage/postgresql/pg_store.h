// PgStore: the Store on a PostgreSQL database shared by several scamcheckd
// processes (CONTRACT §8), through libpq.
//
// Threads: reads and synchronous writes run on a pool of connections
// (StoreOptions::pool_size), each on the calling thread; the asynchronous
// writes (reports, checks, token uses, reputation answers, unlimited users'
// usage counts) go to two writer threads, each with its connection, that
// commit what has queued up as one pipelined transaction (one round trip)
// and only then call back (a failed write makes its batch run again one
// write per transaction). Every statement is
// prepared once per connection and takes its values as parameters.
//
// Shared state lives in the database: the daily allowance and the minute
// windows (SharedCounters), check leases (FOR UPDATE SKIP LOCKED), and a
// listener connection (LISTEN scamcheck_auth, notified by triggers on users,
// tokens and plans) that empties the token cache of every process.
//
// A lost connection makes its call fail with kUnavailable (503); the next
// use connects again.
#ifndef SCAMCHECK_ADAPTERS_SERVER_STORAGE_POSTGRESQL_PG_STORE_H_
#define SCAMCHECK_ADAPTERS_SERVER_STORAGE_POSTGRESQL_PG_STORE_H_

#include <memory>
#include <string>

#include "storage/store.h"

namespace scamcheck::server {

// Connects to `url` (a libpq connection URI); kUnavailable when the database
// cannot be reached. Does not migrate; call migrate() before use.
Result<std::unique_ptr<Store>> open_postgresql_store(const std::string& url,
                                                     const StoreOptions& options);

}  // namespace scamcheck::server

#endif  // SCAMCHECK_ADAPTERS_SERVER_STORAGE_POSTGRESQL_PG_STORE_H_
