#include "app.h"

#include "http/openapi.h"

namespace scamcheck::server {

App::App(const Analyzer& analyzer, Store& store, std::shared_ptr<const Catalog> catalog,
         AppOptions options)
    : analyzer_(analyzer),
      store_(store),
      catalog_(std::move(catalog)),
      quota_(store),
      options_(options),
      openapi_json_(generate_openapi(route_table())) {
  api_minutes_.set_shared(store.shared_counters());
}

}  // namespace scamcheck::server
