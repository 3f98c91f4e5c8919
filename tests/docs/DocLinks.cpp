// The Markdown reading of the documentation link test (see DocLinks.h). A
// small subset of CommonMark, enough for our pages: ATX headings, fenced code,
// inline code spans, HTML comments, inline links and reference definitions.
// Indented code blocks and setext headings are not recognised; the pages do
// not use them.
#include "tests/docs/DocLinks.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <map>
#include <utility>

namespace cclsim::docs {
namespace {

constexpr std::size_t npos = std::string::npos;

bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r';
}

/// Offsets at which each line starts; line n (1-based) starts at starts[n - 1].
std::vector<std::size_t> lineStarts(const std::string& text) {
    std::vector<std::size_t> starts{0};
    for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n') starts.push_back(i + 1);
    return starts;
}

int lineAt(const std::vector<std::size_t>& starts, std::size_t offset) {
    return static_cast<int>(std::upper_bound(starts.begin(), starts.end(), offset) - starts.begin());
}

std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == npos) end = text.size();
        out.push_back(text.substr(pos, end - pos));
        pos = end + 1;
    }
    return out;
}

std::string trim(const std::string& s) {
    std::size_t b = 0, e = s.size();
    while (b < e && isBlank(s[b])) ++b;
    while (e > b && isBlank(s[e - 1])) --e;
    return s.substr(b, e - b);
}

/// Replaces [from, to) of `s` by spaces, keeping newlines.
void blank(std::string& s, std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to && i < s.size(); ++i)
        if (s[i] != '\n') s[i] = ' ';
}

/// The fence a line opens or closes (``` or ~~~, three or more) and whether
/// only blanks follow it (a closing fence's condition); 0 when none.
std::size_t fenceRun(const std::string& line, char& fenceChar, bool& bare) {
    std::size_t i = 0;
    while (i < line.size() && isBlank(line[i])) ++i;
    if (i >= line.size() || (line[i] != '`' && line[i] != '~')) return 0;
    const char c = line[i];
    std::size_t n = 0;
    while (i + n < line.size() && line[i + n] == c) ++n;
    if (n < 3) return 0;
    fenceChar = c;
    bare = trim(line.substr(i + n)).empty();
    return n;
}

/// Blanks every fenced code block of `out` (read from the unmasked `text`).
void maskFences(const std::string& text, std::string& out) {
    bool inFence = false;
    char openChar = 0;
    std::size_t openLen = 0, pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == npos) end = text.size();
        const std::string line = text.substr(pos, end - pos);
        char c = 0;
        bool bare = false;
        const std::size_t n = fenceRun(line, c, bare);
        if (!inFence && n > 0) {
            inFence = true;
            openChar = c;
            openLen = n;
            blank(out, pos, end);
        } else if (inFence) {
            blank(out, pos, end);
            if (n >= openLen && c == openChar && bare) inFence = false;
        }
        pos = end + 1;
    }
}

/// Where a run of `n` backticks starting at or after `from` closes an inline
/// code span, or npos when a blank line (the paragraph's end) comes first.
std::size_t closingBackticks(const std::string& s, std::size_t from, std::size_t n) {
    for (std::size_t i = from; i < s.size();) {
        if (s[i] == '\n') {
            std::size_t j = i + 1;
            while (j < s.size() && isBlank(s[j])) ++j;
            if (j >= s.size() || s[j] == '\n') return npos;
            i = j;
            continue;
        }
        if (s[i] != '`') {
            ++i;
            continue;
        }
        std::size_t run = 0;
        while (i + run < s.size() && s[i + run] == '`') ++run;
        if (run == n) return i;
        i += run;
    }
    return npos;
}

/// Blanks inline code spans and HTML comments outside the fenced blocks.
void maskSpans(std::string& out) {
    for (std::size_t i = 0; i < out.size();) {
        if (out.compare(i, 4, "<!--") == 0) {
            std::size_t end = out.find("-->", i + 4);
            end = end == npos ? out.size() : end + 3;
            blank(out, i, end);
            i = end;
        } else if (out[i] == '\\') {
            i += 2;
        } else if (out[i] == '`') {
            std::size_t n = 0;
            while (i + n < out.size() && out[i + n] == '`') ++n;
            const std::size_t close = closingBackticks(out, i + n, n);
            if (close == npos) {
                i += n;
            } else {
                blank(out, i, close + n);
                i = close + n;
            }
        } else {
            ++i;
        }
    }
}

/// The text a reader sees of a heading: [text](url) and ![alt](url) reduced to
/// text and alt, HTML tags dropped.
std::string renderedText(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t open = s[i] == '!' && i + 1 < s.size() && s[i + 1] == '[' ? i + 1 : i;
        if (s[open] == '[') {
            const std::size_t close = s.find("](", open);
            const std::size_t end = close == npos ? npos : s.find(')', close);
            if (end != npos) {
                out += s.substr(open + 1, close - open - 1);
                i = end + 1;
                continue;
            }
        }
        if (s[i] == '<' && i + 1 < s.size() &&
            (std::isalpha(static_cast<unsigned char>(s[i + 1])) || s[i + 1] == '/')) {
            const std::size_t end = s.find('>', i);
            if (end != npos) {
                i = end + 1;
                continue;
            }
        }
        out += s[i++];
    }
    return out;
}

/// The text of an ATX heading line, or false when the line is not one.
bool headingText(const std::string& line, std::string& text) {
    std::size_t i = 0;
    while (i < line.size() && i < 3 && line[i] == ' ') ++i;
    std::size_t hashes = 0;
    while (i + hashes < line.size() && line[i + hashes] == '#') ++hashes;
    if (hashes == 0 || hashes > 6) return false;
    i += hashes;
    if (i < line.size() && !isBlank(line[i])) return false;
    std::string t = trim(line.substr(std::min(i, line.size())));
    // An optional closing sequence of '#'s, after a space (or alone).
    std::size_t e = t.size();
    while (e > 0 && t[e - 1] == '#') --e;
    if (e == 0 || isBlank(t[e - 1])) t = trim(t.substr(0, e));
    text = t;
    return true;
}

/// The quoted value of attribute `name` in the tag that starts at `from`.
std::string attribute(const std::string& s, std::size_t from, std::size_t tagEnd, const std::string& name) {
    for (std::size_t i = from; i < tagEnd;) {
        const std::size_t at = s.find(name + "=", i);
        if (at == npos || at >= tagEnd) return "";
        const std::size_t q = at + name.size() + 1;
        if (isBlank(s[at - 1]) && q < tagEnd && (s[q] == '"' || s[q] == '\'')) {
            const std::size_t end = s.find(s[q], q + 1);
            if (end != npos && end < tagEnd) return s.substr(q + 1, end - q - 1);
        }
        i = at + 1;
    }
    return "";
}

/// The target of an inline link whose '(' is at `open`: `<...>` or up to
/// white space or the ')' that balances it.
std::string inlineTarget(const std::string& s, std::size_t open) {
    std::size_t i = open + 1;
    while (i < s.size() && isBlank(s[i])) ++i;
    if (i < s.size() && s[i] == '<') {
        const std::size_t end = s.find('>', i);
        return end == npos ? "" : s.substr(i + 1, end - i - 1);
    }
    int depth = 0;
    const std::size_t begin = i;
    for (; i < s.size() && !isBlank(s[i]) && s[i] != '\n'; ++i) {
        if (s[i] == '(') ++depth;
        if (s[i] == ')' && depth-- == 0) break;
    }
    return s.substr(begin, i - begin);
}

/// `[label]: target` at the start of a line, or "".
std::string referenceTarget(const std::string& line) {
    std::size_t i = 0;
    while (i < line.size() && i < 3 && line[i] == ' ') ++i;
    if (i >= line.size() || line[i] != '[') return "";
    const std::size_t close = line.find("]:", i);
    if (close == npos || close == i + 1 || line.find(']', i) != close) return "";
    std::string t = trim(line.substr(close + 2));
    t = t.substr(0, t.find_first_of(" \t"));
    if (t.size() >= 2 && t.front() == '<' && t.back() == '>') t = t.substr(1, t.size() - 2);
    return t;
}

bool isPathChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '/';
}

bool isAnchorChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}

/// Skips blanks and line breaks that continue a comment (the next line's
/// `//`, `#`, `*` or `--` included); returns the offset after them.
std::size_t skipCommentGap(const std::string& s, std::size_t i) {
    for (;;) {
        while (i < s.size() && isBlank(s[i])) ++i;
        if (i >= s.size() || s[i] != '\n') return i;
        ++i;
        while (i < s.size() && isBlank(s[i])) ++i;
        for (const char* leader : {"//", "#", "*", "--"}) {
            const std::string l(leader);
            if (s.compare(i, l.size(), l) == 0) {
                i += l.size();
                break;
            }
        }
    }
}

/// The quoted title that starts at the '"' at `quote`, a comment line break
/// read as one space; false when it does not close within a few lines.
bool quotedTitle(const std::string& s, std::size_t quote, std::string& title) {
    title.clear();
    for (std::size_t i = quote + 1; i < s.size() && title.size() < 200;) {
        if (s[i] == '"') return !title.empty();
        if (s[i] == '\n') {
            i = skipCommentGap(s, i);
            title += ' ';
            continue;
        }
        title += s[i++];
    }
    return false;
}

}  // namespace

std::string githubSlug(const std::string& headingText) {
    std::string slug;
    for (const char ch : renderedText(headingText)) {
        const unsigned char c = static_cast<unsigned char>(ch);
        if (c >= 0x80 || c == '-' || c == '_')
            slug += ch;
        else if (std::isalnum(c))
            slug += static_cast<char>(std::tolower(c));
        else if (c == ' ')
            slug += '-';
    }
    return slug;
}

std::string maskCode(const std::string& markdown) {
    std::string out = markdown;
    maskFences(markdown, out);
    maskSpans(out);
    return out;
}

std::set<std::string> anchorsOf(const std::string& markdown) {
    const std::string masked = maskCode(markdown);
    const std::vector<std::string> original = splitLines(markdown), prose = splitLines(masked);
    std::set<std::string> out;
    // github-slugger: a slug already taken gets the base's next free -N.
    std::map<std::string, int> occurrences;
    for (std::size_t n = 0; n < prose.size(); ++n) {
        std::string text;
        if (!headingText(prose[n], text) || !headingText(original[n], text)) continue;
        const std::string base = githubSlug(text);
        std::string slug = base;
        while (occurrences.count(slug)) slug = base + "-" + std::to_string(++occurrences[base]);
        occurrences[slug] = 0;
        out.insert(slug);
    }
    for (std::size_t i = masked.find("<a"); i != npos; i = masked.find("<a", i + 2)) {
        if (i + 2 >= masked.size() || !isBlank(masked[i + 2])) continue;
        const std::size_t end = masked.find('>', i);
        if (end == npos) break;
        for (const char* name : {"id", "name"}) {
            const std::string value = attribute(masked, i, end, name);
            if (!value.empty()) out.insert(value);
        }
    }
    return out;
}

std::vector<TextRef> linksOf(const std::string& markdown) {
    const std::string masked = maskCode(markdown);
    const std::vector<std::size_t> starts = lineStarts(masked);
    std::vector<std::pair<std::size_t, std::string>> found;  // (offset, target), sorted below
    for (std::size_t i = masked.find("]("); i != npos; i = masked.find("](", i + 2)) {
        const std::string target = inlineTarget(masked, i + 1);
        if (!target.empty()) found.emplace_back(i, target);
    }
    const std::vector<std::string> lines = splitLines(masked);
    for (std::size_t n = 0; n < lines.size(); ++n) {
        const std::string target = referenceTarget(lines[n]);
        if (!target.empty()) found.emplace_back(starts[n], target);
    }
    for (const char* attr : {" href=\"", " src=\""}) {
        const std::string a(attr);
        for (std::size_t i = masked.find(a); i != npos; i = masked.find(a, i + a.size())) {
            const std::size_t end = masked.find('"', i + a.size());
            if (end != npos) found.emplace_back(i, masked.substr(i + a.size(), end - i - a.size()));
        }
    }
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<TextRef> out;
    for (const auto& [offset, target] : found) out.push_back({lineAt(starts, offset), target});
    return out;
}

std::vector<TextRef> docsCitationsOf(const std::string& text) {
    const std::vector<std::size_t> starts = lineStarts(text);
    std::vector<TextRef> out;
    for (std::size_t i = text.find("docs/"); i != npos; i = text.find("docs/", i + 5)) {
        if (i > 0 && isPathChar(text[i - 1])) continue;
        std::size_t end = i;
        while (end < text.size() && isPathChar(text[end])) ++end;
        while (end > i && text[end - 1] == '.') --end;  // the full stop of a sentence
        std::string path = text.substr(i, end - i);
        if (path.size() < 8 || path.compare(path.size() - 3, 3, ".md") != 0) continue;
        if (end < text.size() && text[end] == '#') {
            std::size_t a = end + 1;
            while (a < text.size() && isAnchorChar(text[a])) ++a;
            if (a > end + 1) path += text.substr(end, a - end);
        }
        out.push_back({lineAt(starts, i), path});
    }
    return out;
}

std::vector<TextRef> readmeCitationsOf(const std::string& text) {
    const std::vector<std::size_t> starts = lineStarts(text);
    std::vector<TextRef> out;
    for (std::size_t at = text.find("README"); at != npos; at = text.find("README", at + 6)) {
        if (at > 0 && isPathChar(text[at - 1])) continue;
        std::size_t i = at + 6;
        if (i < text.size() && text[i] == ',') ++i;
        i = skipCommentGap(text, i);
        if (i < text.size() && text[i] == '(') i = skipCommentGap(text, i + 1);
        std::string title;
        if (i < text.size() && text[i] == '"' && i > at + 6 && quotedTitle(text, i, title))
            out.push_back({lineAt(starts, at), title});
    }
    return out;
}

}  // namespace cclsim::docs
