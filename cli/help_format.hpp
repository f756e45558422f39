// Help text laid out for the terminal: CLI11 prints each option's and command's description on one
// line however long it is; this formatter wraps it at word boundaries to the width the command line
// lays its output out for (cli/terminal.hpp), continuation lines aligned under the description.
#pragma once

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstddef>
#include <string>

namespace wgb::cli {

class WrappingFormatter : public CLI::Formatter {
 public:
  explicit WrappingFormatter(std::size_t width) : width_(width) {}
  std::string make_option(const CLI::Option* opt, bool positional) const override {
    return entry(make_option_name(opt, positional) + make_option_opts(opt), make_option_desc(opt));
  }
  std::string make_subcommand(const CLI::App* sub) const override {
    return entry(sub->get_display_name(true), sub->get_description());
  }
  // The text above the usage line: each of its lines wrapped to the width.
  std::string make_description(const CLI::App* app) const override {
    const std::string desc = CLI::Formatter::make_description(app);
    std::string out;
    std::size_t start = 0;
    while (start < desc.size()) {
      const std::size_t end = std::min(desc.find('\n', start), desc.size());
      out += wrap(desc.substr(start, end - start), width_, 0) + "\n";
      start = end + 1;
    }
    return out;
  }

 private:
  std::string entry(const std::string& name, const std::string& desc) const {
    const std::size_t col = get_column_width();
    std::string out = "  " + name;
    if (desc.empty()) return out + "\n";
    if (out.size() >= col) {
      out += "\n" + std::string(col, ' ');
    } else {
      out += std::string(col - out.size(), ' ');
    }
    const std::size_t text = width_ > col + 30 ? width_ - col : 30;  // never narrower than 30 columns
    return out + wrap(desc, text, col) + "\n";
  }
  // `text` broken at spaces into lines of at most `width` characters (a longer word stands alone),
  // every line after the first indented by `indent`; an explicit newline starts a new line.
  static std::string wrap(const std::string& text, std::size_t width, std::size_t indent) {
    std::string out;
    std::size_t line = 0;
    std::string word;
    auto flush = [&] {
      if (word.empty()) return;
      if (line > 0 && line + 1 + word.size() > width) {
        out += "\n" + std::string(indent, ' ');
        line = 0;
      } else if (line > 0) {
        out += ' ';
        ++line;
      }
      out += word;
      line += word.size();
      word.clear();
    };
    for (char c : text) {
      if (c == ' ') {
        flush();
      } else if (c == '\n') {
        flush();
        out += "\n" + std::string(indent, ' ');
        line = 0;
      } else {
        word += c;
      }
    }
    flush();
    return out;
  }
  std::size_t width_;
};

}  // namespace wgb::cli
