// What the documentation link test reads out of a text: the anchors a
// Markdown page offers (GitHub heading slugs and explicit <a id>/<a name>),
// the links it makes, and the citations of docs pages and README sections in
// code comments and configuration files. Pure string logic, no file access:
// tests/docs/test_docs_links.cpp walks the tree and checks what these find.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace cclsim::docs {

/// A reference found in a text: the 1-based line it starts on and what it names
/// (a link target, a `docs/...md#anchor` path, or a README section title).
struct TextRef {
    int line = 0;
    std::string target;
};

/// GitHub's anchor for a heading text: lowercase; every character that is not
/// a letter, digit, space, '-' or '_' dropped (bytes of UTF-8 sequences are
/// kept); each space becomes '-'. Link and image markup is reduced to its text
/// and HTML tags are dropped first.
std::string githubSlug(const std::string& headingText);

/// `markdown` with everything that is not prose blanked to spaces: fenced code
/// blocks (``` or ~~~, fence lines included), inline code spans (which may
/// cross a line break but not a blank line) and HTML comments. Newlines are
/// kept, so offsets and line numbers stay those of the original.
std::string maskCode(const std::string& markdown);

/// The anchors of a page: each ATX heading's slug (a repeated slug gets -1,
/// -2, ... in page order) and every <a id="..."> or <a name="...">. Headings
/// and tags inside code do not count.
std::set<std::string> anchorsOf(const std::string& markdown);

/// The link targets of a page, as written: inline links and images
/// `[text](target "title")`, reference definitions `[label]: target`, and
/// `href="..."` / `src="..."` of HTML tags; none inside code or comments.
std::vector<TextRef> linksOf(const std::string& markdown);

/// Every `docs/<path>.md` (with its `#anchor`, if any) in a source or
/// configuration file. A path that continues another (`x/docs/a.md`) is not one.
std::vector<TextRef> docsCitationsOf(const std::string& text);

/// Every README section a source or configuration file cites, in the forms
/// `README, "Title"`, `README "Title"` and `README ("Title")`. A line break
/// inside the citation, with the comment marker (`//`, `#`, `*`) that starts the
/// next line, reads as one space.
std::vector<TextRef> readmeCitationsOf(const std::string& text);

}  // namespace cclsim::docs
