// Routes of the leaderboard server. The API answers JSON ({"error": reason} on failure), pages
// answer HTML. Submitting: authorisation first, then the size cap, then the document checks
// (submission.hpp), then one transaction; any refusal stores nothing.
#include "store/server.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <httplib.h>
#include <openssl/crypto.h>

#include <charconv>
#include <thread>

#include "store/html.hpp"

namespace wgb::store {

namespace {

using httplib::Request;
using httplib::Response;

constexpr const char* kJson = "application/json";
constexpr const char* kHtml = "text/html; charset=utf-8";

// No script may run and nothing may be fetched from elsewhere: the pages need inline style only.
constexpr const char* kCsp =
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; "
    "frame-ancestors 'none'";

std::string dump(const nlohmann::json& j) {
  // Reasons can quote bytes of a malformed request: never let invalid UTF-8 throw here.
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void api_error(Response& res, int status, const std::string& reason) {
  res.status = status;
  res.set_content(dump({{"error", reason}}), kJson);
}

void page_error(Response& res, int status, const std::string& reason) {
  res.status = status;
  res.set_content(html::error_page(status, reason), kHtml);
}

std::string printable(std::string_view s) {
  std::string out;
  for (unsigned char c : s.substr(0, 200)) out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  return out;
}

bool parse_i64(const std::string& s, std::int64_t& out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc{} && p == s.data() + s.size();
}

// A query parameter limited to a sane length ("" when absent).
std::string param(const Request& req, const char* name) {
  std::string v = req.has_param(name) ? req.get_param_value(name) : std::string{};
  if (v.size() > 256) v.resize(256);
  return v;
}

bool read_filter(const Request& req, RunFilter& f, std::string& error) {
  f.device_class = param(req, "class");
  f.suite = param(req, "suite");
  f.benchmark = param(req, "benchmark");
  f.metric = param(req, "metric");
  f.since = param(req, "since");
  f.until = param(req, "until");
  for (auto [name, target, lo, hi] : {std::tuple{"limit", &f.limit, std::int64_t{1}, std::int64_t{1000}},
                                      std::tuple{"offset", &f.offset, std::int64_t{0}, std::int64_t{1} << 40}}) {
    const std::string v = param(req, name);
    if (v.empty()) continue;
    std::int64_t n = 0;
    if (!parse_i64(v, n) || n < lo || n > hi) {
      error = fmt::format("{} must be an integer in [{}, {}]", name, lo, hi);
      return false;
    }
    *target = n;
  }
  return true;
}

nlohmann::json class_json(const DeviceClass& c) {
  return {{"key", c.key},         {"label", c.label},     {"vendor", c.vendor},
          {"architecture", c.architecture}, {"device", c.device}, {"backend", c.backend},
          {"adapter_type", c.adapter_type}, {"variable", c.variable}};
}

nlohmann::json summary_json(const RunSummary& s) {
  return {{"id", s.id},
          {"url", fmt::format("/runs/{}", s.id)},
          {"submitted_at", s.submitted_at},
          {"started_at", s.started_at},
          {"suite", s.suite},
          {"state", s.state},
          {"rows", s.row_count},
          {"ranked", s.unranked_reason.empty()},
          {"unranked_reason", s.unranked_reason},
          {"class", class_json(s.device_class)}};
}

// The pages (src/store/html.cpp) show a run's state and, on the leaderboard, each run's suite and
// an "unranked" badge: a run unranked for its options carries the reason in those cells, and its
// rows carry parameters.unranked, so the existing unranked display shows it.
std::string with_reason(const std::string& text, const std::string& reason) {
  return reason.empty() ? text : text + " \u00b7 unranked: " + reason;
}

RunSummary shown(RunSummary s) {
  s.state = with_reason(s.state, s.unranked_reason);
  return s;
}

std::vector<RunSummary> shown(std::vector<RunSummary> runs) {
  for (auto& r : runs) r = shown(std::move(r));
  return runs;
}

StoredRun shown(StoredRun run) {
  if (!run.summary.unranked_reason.empty()) {
    if (auto rows = run.document.find("rows"); rows != run.document.end() && rows->is_array()) {
      for (auto& r : *rows) {
        if (r.is_object() && (!r.contains("parameters") || r["parameters"].is_object())) {
          r["parameters"]["unranked"] = true;
        }
      }
    }
  }
  run.summary = shown(std::move(run.summary));
  return run;
}

Leaderboard shown(Leaderboard board) {
  for (auto& c : board.classes) {
    for (auto& e : c.entries) e.suite = with_reason(e.suite, e.unranked_reason);
  }
  return board;
}

}  // namespace

struct Server::Impl {
  Store& store;
  ServerOptions options;
  httplib::Server http;
  std::thread thread;
  int port = 0;
  std::mutex stop_mutex;
  bool stopped = false;

  Impl(Store& s, ServerOptions o) : store(s), options(std::move(o)) {}

  bool authorised(const Request& req) const {
    if (options.token.empty()) return true;
    const std::string expected = "Bearer " + options.token;
    const std::string got = req.get_header_value("Authorization");
    return got.size() == expected.size() && CRYPTO_memcmp(got.data(), expected.data(), got.size()) == 0;
  }

  void submit(const Request& req, Response& res, const httplib::ContentReader& reader) {
    if (!authorised(req)) {
      res.set_header("WWW-Authenticate", "Bearer");
      return api_error(res, 401, "a valid bearer token is required to submit to this server");
    }
    std::string body;
    bool too_big = false;
    const bool complete = reader([&](const char* data, std::size_t n) {
      if (body.size() + n > options.max_body_bytes) {
        too_big = true;
        return false;  // stop reading: the rest is never buffered
      }
      body.append(data, n);
      return true;
    });
    if (too_big) {
      res.set_header("Connection", "close");
      return api_error(res, 413, fmt::format("the body exceeds {} bytes", options.max_body_bytes));
    }
    if (!complete) {
      res.set_header("Connection", "close");
      return api_error(res, 400, "the request body was not received completely");
    }
    auto sub = parse_submission(body);
    if (!sub) {
      // Malformed JSON is a bad request; a well-formed document the server will not take, 422.
      const bool malformed = sub.error().message.find("not valid JSON") != std::string::npos;
      return api_error(res, malformed ? 400 : 422, sub.error().message);
    }
    auto outcome = store.insert(*sub);
    if (!outcome) return api_error(res, 500, "the store failed: " + outcome.error().message);
    res.status = outcome->duplicate ? 200 : 201;
    res.set_header("Location", fmt::format("/api/v1/results/{}", outcome->id));
    res.set_content(dump({{"id", outcome->id},
                          {"url", fmt::format("/runs/{}", outcome->id)},
                          {"duplicate", outcome->duplicate},
                          {"ranked", sub->unranked_reason.empty()},
                          {"unranked_reason", sub->unranked_reason},
                          {"class", class_json(sub->device_class)}}),
                    kJson);
  }

  void routes() {
    auto& s = http;
    s.Get("/healthz", [](const Request&, Response& res) { res.set_content("ok\n", "text/plain"); });

    s.Post("/api/v1/results",
           [this](const Request& req, Response& res, const httplib::ContentReader& reader) { submit(req, res, reader); });

    s.Get("/api/v1/results", [this](const Request& req, Response& res) {
      RunFilter f;
      std::string error;
      if (!read_filter(req, f, error)) return api_error(res, 400, error);
      auto runs = store.list(f);
      auto total = store.count(f);
      if (!runs || !total) return api_error(res, 500, (!runs ? runs.error() : total.error()).message);
      nlohmann::json list = nlohmann::json::array();
      for (const auto& r : *runs) list.push_back(summary_json(r));
      res.set_content(dump({{"total", *total}, {"offset", f.offset}, {"limit", f.limit}, {"runs", list}}), kJson);
    });

    s.Get(R"(/api/v1/results/(\d{1,18}))", [this](const Request& req, Response& res) {
      std::int64_t id = 0;
      if (!parse_i64(req.matches[1].str(), id)) return api_error(res, 404, "no such run");
      auto run = store.get(id);
      if (!run) return api_error(res, 500, run.error().message);
      if (!*run) return api_error(res, 404, fmt::format("no run {}", id));
      auto j = summary_json((*run)->summary);
      j["document"] = (*run)->document;
      res.set_content(dump(j), kJson);
    });

    s.Get("/api/v1/leaderboard", [this](const Request& req, Response& res) {
      const std::string bench = param(req, "benchmark");
      if (bench.empty()) return api_error(res, 400, "benchmark= is required (a benchmark id or memory phase)");
      auto board = store.leaderboard(bench);
      if (!board) return api_error(res, 500, board.error().message);
      nlohmann::json classes = nlohmann::json::array();
      for (const auto& c : board->classes) {
        nlohmann::json runs = nlohmann::json::array();
        for (const auto& e : c.entries) {
          runs.push_back({{"id", e.run_id},
                          {"value", e.value},
                          {"status", e.status},
                          {"ranked", e.ranked},
                          {"unranked_reason", e.unranked_reason},
                          {"started_at", e.started_at},
                          {"suite", e.suite}});
        }
        nlohmann::json cj = {{"class", class_json(c.device_class)}, {"ranked_runs", c.ranked}, {"runs", runs}};
        cj["rank"] = c.rank > 0 ? nlohmann::json(c.rank) : nlohmann::json(nullptr);
        if (c.ranked > 0) {
          cj["median"] = c.median;
          cj["q1"] = c.q1;
          cj["q3"] = c.q3;
          cj["min"] = c.min;
          cj["max"] = c.max;
        }
        classes.push_back(std::move(cj));
      }
      res.set_content(dump({{"benchmark", board->benchmark},
                            {"unit", board->unit},
                            {"lower_is_better", board->lower_is_better},
                            {"classes", classes}}),
                      kJson);
    });

    s.Get("/api/v1/benchmarks", [this](const Request&, Response& res) {
      auto list = store.benchmarks();
      if (!list) return api_error(res, 500, list.error().message);
      nlohmann::json out = nlohmann::json::array();
      for (const auto& b : *list) out.push_back({{"id", b.id}, {"suite", b.suite}, {"unit", b.unit}, {"runs", b.runs}});
      res.set_content(dump(out), kJson);
    });

    s.Get("/api/v1/classes", [this](const Request&, Response& res) {
      auto list = store.classes();
      if (!list) return api_error(res, 500, list.error().message);
      nlohmann::json out = nlohmann::json::array();
      for (const auto& c : *list) {
        auto j = class_json(c.device_class);
        j["runs"] = c.runs;
        out.push_back(std::move(j));
      }
      res.set_content(dump(out), kJson);
    });

    // --- pages ---
    s.Get("/", [this](const Request&, Response& res) {
      auto benches = store.benchmarks();
      auto classes = store.classes();
      RunFilter recent;
      recent.limit = 20;
      auto runs = store.list(recent);
      auto totals = store.totals();
      if (!benches || !classes || !runs || !totals) return page_error(res, 500, "the store failed");
      std::vector<Leaderboard> boards;  // the top of each headline benchmark
      for (const auto& id : html::headline_benchmarks(*benches)) {
        auto board = store.leaderboard(id);
        if (!board) return page_error(res, 500, board.error().message);
        boards.push_back(std::move(*board));
      }
      res.set_content(html::index_page(*benches, *classes, shown(std::move(*runs)), totals->first, boards), kHtml);
    });

    s.Get("/leaderboard", [this](const Request& req, Response& res) {
      const std::string bench = param(req, "benchmark");
      if (bench.empty()) return page_error(res, 400, "choose a benchmark: /leaderboard?benchmark=<id>");
      auto board = store.leaderboard(bench);
      if (!board) return page_error(res, 500, board.error().message);
      res.set_content(html::leaderboard_page(shown(std::move(*board))), kHtml);
    });

    s.Get("/runs", [this](const Request& req, Response& res) {
      RunFilter f;
      std::string error;
      if (!read_filter(req, f, error)) return page_error(res, 400, error);
      auto runs = store.list(f);
      auto total = store.count(f);
      if (!runs || !total) return page_error(res, 500, "the store failed");
      res.set_content(html::runs_page(shown(std::move(*runs)), f, *total), kHtml);
    });

    s.Get(R"(/runs/(\d{1,18}))", [this](const Request& req, Response& res) {
      std::int64_t id = 0;
      if (!parse_i64(req.matches[1].str(), id)) return page_error(res, 404, "no such run");
      auto run = store.get(id);
      if (!run) return page_error(res, 500, run.error().message);
      if (!*run) return page_error(res, 404, fmt::format("no run {}", id));
      const auto& key = (*run)->summary.device_class.key;
      auto dist = store.class_distributions(key);
      RunFilter f;
      f.device_class = key;
      f.limit = 50;
      auto others = store.list(f);
      if (!dist || !others) return page_error(res, 500, "the store failed");
      res.set_content(html::run_page(shown(std::move(**run)), *dist, shown(std::move(*others))), kHtml);
    });

    s.Get("/compare", [this](const Request& req, Response& res) {
      std::int64_t a = 0, b = 0;
      if (!parse_i64(param(req, "a"), a) || !parse_i64(param(req, "b"), b)) {
        return page_error(res, 400, "compare needs two run numbers: /compare?a=<id>&b=<id>");
      }
      auto ra = store.get(a);
      auto rb = store.get(b);
      if (!ra || !rb) return page_error(res, 500, "the store failed");
      if (!*ra || !*rb) return page_error(res, 404, fmt::format("no run {}", !*ra ? a : b));
      res.set_content(html::compare_page(shown(std::move(**ra)), shown(std::move(**rb))), kHtml);
    });

    s.set_error_handler([](const Request& req, Response& res) {
      if (!res.body.empty()) return;  // a handler already explained itself
      const std::string reason = res.status == 404 ? "not found" : fmt::format("HTTP {}", res.status);
      if (req.path.rfind("/api/", 0) == 0) {
        res.set_content(dump({{"error", reason}}), kJson);
      } else {
        res.set_content(html::error_page(res.status, reason), kHtml);
      }
    });
    s.set_exception_handler([this](const Request& req, Response& res, std::exception_ptr ep) {
      std::string what = "unknown";
      try {
        if (ep) std::rethrow_exception(ep);
      } catch (const std::exception& e) {
        what = e.what();
      } catch (...) {
      }
      if (options.log) options.log(fmt::format("internal error on {} {}: {}", req.method, printable(req.path), what));
      api_error(res, 500, "internal error");
    });
    s.set_pre_routing_handler([this](const Request& req, Response& res) {
      // Compressed bodies could expand past the cap after it was checked: refuse them outright.
      const std::string enc = req.get_header_value("Content-Encoding");
      if (!enc.empty() && enc != "identity") {
        res.set_header("Connection", "close");
        api_error(res, 415, "Content-Encoding is not accepted; send the document uncompressed");
        return httplib::Server::HandlerResponse::Handled;
      }
      // A declared length over the cap is refused before a byte of the body is read.
      if (req.has_header("Content-Length")) {
        std::int64_t n = 0;
        if (!parse_i64(req.get_header_value("Content-Length"), n) || n < 0 ||
            static_cast<std::uint64_t>(n) > options.max_body_bytes) {
          res.set_header("Connection", "close");
          api_error(res, 413, fmt::format("the body exceeds {} bytes", options.max_body_bytes));
          return httplib::Server::HandlerResponse::Handled;
        }
      }
      return httplib::Server::HandlerResponse::Unhandled;
    });
    if (options.log) {
      s.set_logger([this](const Request& req, const Response& res) {
        options.log(fmt::format("{} {} {}", printable(req.method), printable(req.path), res.status));
      });
    }
  }
};

Expected<ListenAddress> parse_listen(const std::string& text) {
  ListenAddress a;
  std::string port;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ':') {
      return make_error(ErrorKind::Usage, fmt::format("--listen {}: expected [ipv6]:port", text));
    }
    a.host = text.substr(1, close - 1);
    port = text.substr(close + 2);
  } else {
    const auto colon = text.rfind(':');
    if (colon == std::string::npos) {
      return make_error(ErrorKind::Usage, fmt::format("--listen {}: expected host:port", text));
    }
    a.host = text.substr(0, colon);
    port = text.substr(colon + 1);
  }
  if (a.host.empty()) a.host = "127.0.0.1";
  std::int64_t p = -1;
  if (!parse_i64(port, p) || p < 0 || p > 65535) {
    return make_error(ErrorKind::Usage, fmt::format("--listen {}: the port must be 0..65535", text));
  }
  a.port = static_cast<int>(p);
  return a;
}

bool is_loopback(const std::string& host) {
  if (host == "localhost") return true;
  in_addr v4{};
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (inet_pton(AF_INET6, host.c_str(), &v6) == 1) return IN6_IS_ADDR_LOOPBACK(&v6);
  return false;
}

Server::Server(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Server::~Server() { stop(); }

Expected<std::unique_ptr<Server>> Server::start(Store& store, ServerOptions options) {
  if (options.max_body_bytes == 0) return make_error(ErrorKind::Usage, "the body limit must be positive");
  auto impl = std::make_unique<Impl>(store, std::move(options));
  auto& o = impl->options;
  auto& http = impl->http;
  const int threads = std::clamp(o.threads, 2, 256);
  http.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<std::size_t>(threads)); };
  http.set_payload_max_length(o.max_body_bytes);
  http.set_read_timeout(static_cast<time_t>(o.read_timeout.count()), 0);
  http.set_write_timeout(static_cast<time_t>(o.write_timeout.count()), 0);
  http.set_keep_alive_timeout(2);
  http.set_keep_alive_max_count(100);
  http.set_default_headers({{"Content-Security-Policy", kCsp},
                            {"X-Content-Type-Options", "nosniff"},
                            {"Referrer-Policy", "no-referrer"},
                            {"Cache-Control", "no-store"}});
  if (o.host.find(':') != std::string::npos) http.set_address_family(AF_INET6);
  impl->routes();
  if (o.port == 0) {
    impl->port = http.bind_to_any_port(o.host);
    if (impl->port < 0) impl->port = 0;
  } else {
    impl->port = http.bind_to_port(o.host, o.port) ? o.port : 0;
  }
  if (impl->port == 0) {
    return make_error(ErrorKind::Io, fmt::format("cannot listen on {}:{} (in use, or not an address of this "
                                                 "machine)",
                                                 o.host, o.port));
  }
  // The socket listens from here on: connections wait in the backlog until the loop accepts them.
  Impl* raw = impl.get();
  impl->thread = std::thread([raw] { raw->http.listen_after_bind(); });
  // httplib's stop() only acts on a running loop: wait (bounded) until it runs, so that a stop()
  // right after start() cannot leave the loop behind.
  for (int i = 0; i < 5000 && !raw->http.is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (!raw->http.is_running()) {
    raw->http.stop();
    raw->thread.join();
    return make_error(ErrorKind::Io, "the server loop did not start");
  }
  return std::unique_ptr<Server>(new Server(std::move(impl)));
}

int Server::port() const { return impl_->port; }

std::string Server::url() const {
  const auto& h = impl_->options.host;
  return h.find(':') != std::string::npos ? fmt::format("http://[{}]:{}", h, impl_->port)
                                          : fmt::format("http://{}:{}", h, impl_->port);
}

bool Server::running() const { return impl_->http.is_running(); }

void Server::stop() {
  if (!impl_) return;
  std::lock_guard lock(impl_->stop_mutex);
  if (impl_->stopped) return;
  impl_->stopped = true;
  impl_->http.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

}  // namespace wgb::store
