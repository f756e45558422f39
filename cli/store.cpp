// `webgpu-bench serve` and `webgpu-bench submit`: the results store's server and its client
// (docs/store.md). `run --submit URL` uses store::submit_document the same way.
#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <thread>

#include "cli/common.hpp"
#include "cli/session.hpp"
#include "report/document.hpp"
#include "report/files.hpp"
#include "store/client.hpp"
#include "store/server.hpp"
#include "store/store.hpp"

namespace wgb::cli {

namespace {

// --token, else --token-file (first line), else $WEBGPU_BENCH_TOKEN. A file or the environment
// keeps the token out of the process list. An empty token given any of these ways is a usage
// error: it would otherwise mean "no authentication" without a word.
Expected<std::string> read_token(const std::string& token, bool token_given, const std::string& token_file) {
  if (token_given) {
    if (token.empty()) return make_error(ErrorKind::Usage, "--token: empty (leave it out to run without a token)");
    return token;
  }
  if (!token_file.empty()) {
    std::ifstream in(token_file);
    if (!in) {
      return make_error(ErrorKind::Io, fmt::format("--token-file {}: cannot read it: {}", token_file,
                                                   std::strerror(errno != 0 ? errno : ENOENT)));
    }
    std::string line;
    std::getline(in, line);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty()) return make_error(ErrorKind::Usage, fmt::format("--token-file {}: empty", token_file));
    return line;
  }
  const char* env = std::getenv("WEBGPU_BENCH_TOKEN");
  if (env != nullptr && *env == '\0') {
    return make_error(ErrorKind::Usage, "$WEBGPU_BENCH_TOKEN is set but empty (unset it to run without a token)");
  }
  return std::string(env != nullptr ? env : "");
}

struct ServeFlags {
  std::string store = "results.db";
  std::string listen = "127.0.0.1:8080";
  std::string token, token_file;
  bool token_given = false;
  std::size_t max_body_mib = 8;
  int threads = 16;
  int request_timeout_s = 10;
  int max_connections_per_address = 32;
  int pg_connections = 4;
  bool open_submissions = false;
  int open_submissions_per_hour = 10;
  bool quiet = false;
};

int serve(const ServeFlags& f) {
  auto address = store::parse_listen(f.listen);
  if (!address) return fail(address.error());
  auto token = read_token(f.token, f.token_given, f.token_file);
  if (!token) return fail(token.error());
  if (f.max_body_mib == 0 || f.max_body_mib > 1024) return fail(ErrorKind::Usage, "--max-body-mib must be 1..1024");

  store::StoreOptions so;
  so.postgres_connections = f.pg_connections;
  auto db = store::Store::open(f.store, so);
  if (!db) return fail(db.error());

  store::ServerOptions o;
  o.host = address->host;
  o.port = address->port;
  o.token = *token;
  o.max_body_bytes = f.max_body_mib << 20;
  o.threads = f.threads;
  o.request_timeout = std::chrono::seconds(f.request_timeout_s);
  o.max_connections_per_address = f.max_connections_per_address;
  o.open_submissions = f.open_submissions;
  o.open_submissions_per_window = f.open_submissions_per_hour;
  o.open_submissions_window = std::chrono::hours(1);
  if (!f.quiet) o.log = [](const std::string& line) { std::cerr << line + "\n"; };
  if (!store::is_loopback(o.host)) {
    std::cerr << fmt::format("webgpu-bench: warning: listening on {}, reachable from other machines{}\n", o.host,
                             o.token.empty() ? " and without --token: anyone there can submit" : "");
  }

  const Interrupt stop(/*also_sigterm=*/true);  // the program's one handler: Ctrl-C or SIGTERM stops
  auto server = store::Server::start(**db, o);
  if (!server) return fail(server.error());
  // The first line on stdout is the URL (port 0 picks a free port: scripts read it from here).
  std::cout << (*server)->url() << std::endl;
  std::cerr << fmt::format("serving {} at {} (Ctrl-C stops); the suite in a browser: {}/run{}\n", (*db)->description(),
                           (*server)->url(), (*server)->url(),
                           o.open_submissions ? fmt::format(" (visitors may submit, {} an hour each)", o.open_submissions_per_window)
                                              : "");
  while (!stop.requested() && (*server)->running()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  (*server)->stop();
  return kExitOk;
}

struct SubmitFlags {
  std::vector<std::string> files;
  std::string to, token, token_file;
  bool token_given = false;
  int timeout_s = 30;
};

int submit(const SubmitFlags& f) {
  auto token = read_token(f.token, f.token_given, f.token_file);
  if (!token) return fail(token.error());
  if (auto u = store::parse_server_url(f.to); !u) return fail(u.error());
  int code = kExitOk;
  for (const auto& file : f.files) {
    auto doc = report::load_result_document(file);
    if (!doc) {
      const int c = fail(doc.error());
      if (code == kExitOk) code = c;
      continue;
    }
    auto receipt = store::post_document(*doc, f.to, *token, std::chrono::seconds(f.timeout_s));
    if (!receipt) {
      fail(Error{receipt.error().kind, fmt::format("{}: {}", file, receipt.error().message)});
      if (code == kExitOk) code = submit_exit_code(receipt.error());
      continue;
    }
    std::cout << fmt::format("{}: {} run {} ({}) {}\n", file, receipt->duplicate ? "already stored as" : "stored as",
                             receipt->id, receipt->class_key, receipt->url);
  }
  return code;
}

}  // namespace

void register_store(CLI::App& app, int& exit_code) {
  static ServeFlags sf;
  auto* s = app.add_subcommand(
      "serve",
      "Serve a results store: a JSON API to submit and query result documents, leaderboards grouped by device "
      "class, and The Stack (a run next to its class). Loopback only unless --listen says otherwise.");
  s->add_option("--store", sf.store,
                "Results database: a SQLite file (default results.db, created when missing) or "
                "postgresql://user@host:port/db")
      ->capture_default_str();
  s->add_option("--listen", sf.listen, "host:port to listen on (port 0: any free port, printed on stdout)")
      ->capture_default_str();
  auto* serve_token =
      s->add_option("--token", sf.token, "Require 'Authorization: Bearer TOKEN' to submit (also $WEBGPU_BENCH_TOKEN)");
  s->add_option("--token-file", sf.token_file, "Read the token from the first line of this file");
  s->add_option("--max-body-mib", sf.max_body_mib, "Largest accepted document, MiB")->capture_default_str();
  s->add_option("--threads", sf.threads, "Worker threads")->capture_default_str()->check(CLI::Range(2, 256));
  s->add_option("--pg-connections", sf.pg_connections, "PostgreSQL connection pool size")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  s->add_option("--request-timeout", sf.request_timeout_s,
                "Seconds a request may take to arrive whole (headers and body); 408 after")
      ->capture_default_str()
      ->check(CLI::Range(1, 600));
  s->add_option("--max-connections-per-address", sf.max_connections_per_address,
                "Open connections one client address may hold; 429 beyond")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000));
  s->add_flag("--open-submissions", sf.open_submissions,
              "Accept documents without the token (visitors' runs from the /run page), at most "
              "--open-submissions-per-hour per client address; 429 with Retry-After beyond");
  s->add_option("--open-submissions-per-hour", sf.open_submissions_per_hour,
                "Submissions one address (IPv6: one /64) may make per hour without the token")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  s->add_flag("-q,--quiet", sf.quiet, "No request log on stderr");
  s->callback([&exit_code, serve_token] {
    sf.token_given = serve_token->count() > 0;
    exit_code = serve(sf);
  });

  static SubmitFlags uf;
  auto* u = app.add_subcommand(
      "submit",
      "Send result documents (from run/memory/host --json) to a results server. Nothing is sent anywhere unless "
      "you run this (or run --submit).");
  u->add_option("files", uf.files, "Result documents (JSON)")->required()->type_name("FILE...");
  u->add_option("--to", uf.to, "Server URL, e.g. http://127.0.0.1:8080")->required();
  auto* submit_token =
      u->add_option("--token", uf.token, "Bearer token, when the server requires one (also $WEBGPU_BENCH_TOKEN)");
  u->add_option("--token-file", uf.token_file, "Read the token from the first line of this file");
  u->add_option("--timeout", uf.timeout_s, "Seconds to wait for the server")->capture_default_str()->check(
      CLI::Range(1, 600));
  u->callback([&exit_code, submit_token] {
    uf.token_given = submit_token->count() > 0;
    exit_code = submit(uf);
  });
}

}  // namespace wgb::cli
