// The template expander of the ALU kernels (see alu.hpp): `$NAME` substitutions, then nested
// `//#repeat var N` ... `//#end` blocks unrolled line by line.
#include <fmt/format.h>

#include <charconv>
#include <vector>

#include "catalog/compute/alu.hpp"

namespace wgb::catalog::alu {

namespace {

void replace_all(std::string& s, std::string_view from, std::string_view to) {
  if (from.empty()) return;
  for (std::size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size())) {
    s.replace(pos, from.size(), to);
  }
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) {
      if (begin < text.size()) lines.emplace_back(text.substr(begin));
      break;
    }
    lines.emplace_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return lines;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

constexpr std::string_view kRepeat = "//#repeat ";
constexpr std::string_view kEnd = "//#end";

// Expands lines[i..) up to the matching //#end (or the end when top level); appends to out and
// returns the index after the block's //#end.
Expected<std::size_t> expand_block(const std::vector<std::string>& lines, std::size_t i, bool top,
                                   std::vector<std::string>& out) {
  while (i < lines.size()) {
    const std::string_view line = trim(lines[i]);
    if (line.starts_with(kEnd)) {
      if (top) return make_error(ErrorKind::Compile, fmt::format("template line {}: //#end without //#repeat", i + 1));
      return i + 1;
    }
    if (!line.starts_with(kRepeat)) {
      out.push_back(lines[i]);
      ++i;
      continue;
    }
    // //#repeat var N
    const std::string_view rest = trim(line.substr(kRepeat.size()));
    const std::size_t space = rest.find(' ');
    if (space == std::string_view::npos) {
      return make_error(ErrorKind::Compile, fmt::format("template line {}: expected //#repeat var N", i + 1));
    }
    // (append, not operator+: g++ 12 raises a false -Wrestrict on "$" + std::string)
    std::string var(1, '$');
    var.append(rest.substr(0, space));
    const std::string_view count_text = trim(rest.substr(space + 1));
    unsigned count = 0;
    const auto [ptr, ec] = std::from_chars(count_text.data(), count_text.data() + count_text.size(), count);
    if (ec != std::errc() || ptr != count_text.data() + count_text.size() || count == 0 || count > 4096) {
      return make_error(ErrorKind::Compile, fmt::format("template line {}: bad repeat count '{}'", i + 1, count_text));
    }
    std::vector<std::string> body;
    auto next = expand_block(lines, i + 1, false, body);
    if (!next) return next;
    for (unsigned r = 0; r < count; ++r) {
      for (std::string copy : body) {
        replace_all(copy, var, std::to_string(r));
        out.push_back(std::move(copy));
      }
    }
    i = *next;
  }
  if (!top) return make_error(ErrorKind::Compile, "template: //#repeat without //#end");
  return i;
}

}  // namespace

Expected<std::string> expand(std::string_view tmpl, const Substitutions& subst) {
  std::string text(tmpl);
  for (const auto& [name, value] : subst) {
    std::string token(1, '$');
    token.append(name);
    replace_all(text, token, value);
  }
  std::vector<std::string> out;
  auto done = expand_block(split_lines(text), 0, true, out);
  if (!done) return std::move(done).error();
  std::string result;
  for (const auto& line : out) {
    result += line;
    result += '\n';
  }
  if (const auto pos = result.find('$'); pos != std::string::npos) {
    const auto eol = result.find('\n', pos);
    return make_error(ErrorKind::Compile,
                      fmt::format("template: unresolved '{}'", result.substr(pos, std::min<std::size_t>(eol - pos, 40))));
  }
  return result;
}

}  // namespace wgb::catalog::alu
