// "Did you mean ...?": the nearest valid word to a mistyped command or option.
#pragma once

#include <string>
#include <vector>

namespace wgb::cli {

// Levenshtein distance (insertions, deletions, substitutions; a swap of two neighbours counts one).
std::size_t edit_distance(const std::string& a, const std::string& b);
// The candidate nearest to `word`, or "" when none is near enough to be a typo (more than a third of
// the word, and at least 2, differs).
std::string nearest(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace wgb::cli
