//! Tests of the whole outline: the CommonMark block rules as they decide which
//! lines are headings and which are code.

use super::*;

/// `(level, text, line)` of each heading.
fn headings(text: &str) -> Vec<(u8, String, usize)> {
    parse(text)
        .headings
        .into_iter()
        .map(|h| (h.level, h.text, h.line))
        .collect()
}

/// `(start_line, end_line, closed)` of each fenced code block.
fn fences(text: &str) -> Vec<(usize, usize, bool)> {
    parse(text)
        .code_blocks
        .into_iter()
        .map(|c| (c.start_line, c.end_line, c.closed))
        .collect()
}

/// `(line, section_end, content_end)` of each heading.
fn sections(text: &str) -> Vec<(usize, usize, usize)> {
    parse(text)
        .headings
        .into_iter()
        .map(|h| (h.line, h.section_end, h.content_end))
        .collect()
}

fn h(level: u8, text: &str, line: usize) -> (u8, String, usize) {
    (level, text.to_string(), line)
}

#[test]
fn empty_text_has_no_structure() {
    assert_eq!(
        parse(""),
        MarkdownOutline {
            frontmatter: None,
            headings: vec![],
            code_blocks: vec![],
            anchors: vec![],
        }
    );
    assert_eq!(parse("\n\n").headings, vec![]);
}

#[test]
fn a_full_heading() {
    let outline = parse("intro\n\n## Setup Guide ##\n\ntext\n");
    assert_eq!(
        outline.headings,
        vec![Heading {
            level: 2,
            text: "Setup Guide".to_string(),
            line: 3,
            last_line: 3,
            setext: false,
            id: None,
            slug: "setup-guide".to_string(),
            section_end: 5,
            content_end: 5,
        }]
    );
}

#[test]
fn atx_heading_rules() {
    let text = "# One\n   ### Three spaces\n    # indented code\n#5 bolts\n####### seven\n#\n##\tTab\n#hashtag\n";
    assert_eq!(
        headings(text),
        vec![
            h(1, "One", 1),
            h(3, "Three spaces", 2),
            h(1, "", 6),
            h(2, "Tab", 7)
        ]
    );
}

#[test]
fn indented_code_after_a_paragraph_is_paragraph_text() {
    // four spaces after a paragraph line continue the paragraph, so the
    // next line is an ATX heading again
    assert_eq!(
        headings("para\n    # not code\n# Real\n"),
        vec![h(1, "Real", 3)]
    );
    // at the start of the document, or after a blank line, it is code
    assert_eq!(headings("    # code\n"), vec![]);
    assert_eq!(
        headings("para\n\n    # code\n    # more\n\n# Real\n"),
        vec![h(1, "Real", 6)]
    );
}

#[test]
fn setext_headings() {
    let text = "Title\n=====\n\nSub title\nsecond line\n---\n\nNot\n  ===  \n";
    let outline = parse(text);
    let summary: Vec<_> = outline
        .headings
        .iter()
        .map(|h| (h.level, h.text.as_str(), h.line, h.last_line, h.setext))
        .collect();
    assert_eq!(
        summary,
        vec![
            (1, "Title", 1, 2, true),
            (2, "Sub title second line", 4, 6, true),
            (1, "Not", 8, 9, true),
        ]
    );
}

#[test]
fn setext_versus_thematic_break() {
    // after a blank line: thematic break
    assert_eq!(headings("para\n\n---\n"), vec![]);
    // after a list item: thematic break (the item's paragraph is not top-level)
    assert_eq!(headings("- item\n---\n"), vec![]);
    // directly after a paragraph: heading
    assert_eq!(headings("para\n---\n"), vec![h(2, "para", 1)]);
    // `- - -` is a thematic break even under a paragraph
    assert_eq!(headings("para\n- - -\n"), vec![]);
    // a heading cannot be underlined
    assert_eq!(headings("# Title\n---\n"), vec![h(1, "Title", 1)]);
    // `***` is never an underline
    assert_eq!(headings("para\n***\n"), vec![]);
    // an underline indented 4 spaces is paragraph text
    assert_eq!(headings("para\n    ---\n"), vec![]);
    // under a block quote the lazy `---` is a thematic break
    assert_eq!(headings("> quote\n---\n"), vec![]);
    // a lazy `===` continues the quoted paragraph
    assert_eq!(headings("> quote\nlazy\n===\n"), vec![]);
}

#[test]
fn setext_after_link_reference_definitions() {
    assert_eq!(headings("[a]: /url\nTitle\n===\n"), vec![h(1, "Title", 2)]);
    // only definitions: `===` is text and `---` a thematic break
    assert_eq!(headings("[a]: /url\n===\n"), vec![]);
    assert_eq!(headings("[a]: /url\n---\n"), vec![]);
}

#[test]
fn no_headings_inside_fences() {
    let text = "\
```
# in backticks
```
~~~~python
# in tildes
~~~
## still in tildes (closing fence too short)
~~~~~
````
```
# inside a four-backtick fence
``````
# After
";
    assert_eq!(headings(text), vec![h(1, "After", 13)]);
    assert_eq!(
        fences(text),
        vec![(1, 3, true), (4, 8, true), (9, 12, true)]
    );
    let outline = parse(text);
    assert_eq!(outline.code_blocks[1].language.as_deref(), Some("python"));
    assert_eq!(outline.code_blocks[1].fence, "~~~~");
    assert_eq!(outline.code_blocks[2].fence, "````");
    assert_eq!(outline.code_blocks[0].language, None);
}

#[test]
fn fence_details() {
    // a backtick fence whose info string has a backtick is not a fence
    assert_eq!(fences("``` a`b\n# x\n```\n"), vec![(3, 3, false)]);
    // a closing fence of the other character does not close
    assert_eq!(fences("```\n~~~\n# x\n"), vec![(1, 3, false)]);
    // closing fences may be indented up to 3 spaces and have trailing spaces
    assert_eq!(
        fences("  ```rust ignore\ncode\n   ```  \n"),
        vec![(1, 3, true)]
    );
    // a closing fence with an info string is content
    assert_eq!(fences("```\n``` x\n```\n"), vec![(1, 3, true)]);
    // a fence can interrupt a paragraph
    assert_eq!(fences("para\n```\n```\n"), vec![(2, 3, true)]);
    let outline = parse("```rust,ignore  extra\n```\n");
    assert_eq!(
        outline.code_blocks[0].language.as_deref(),
        Some("rust,ignore")
    );
}

#[test]
fn unclosed_fence_runs_to_the_end() {
    let text = "# Top\n\n```\n# hidden\n\ntext";
    assert_eq!(headings(text), vec![h(1, "Top", 1)]);
    let outline = parse(text);
    assert_eq!(
        outline.code_blocks,
        vec![CodeBlock {
            index: 0,
            language: None,
            start_line: 3,
            end_line: 6,
            closed: false,
            fence: "```".to_string(),
            nested: false,
        }]
    );
    assert_eq!(outline.code_blocks[0].content_lines(), Some((4, 6)));
}

#[test]
fn fences_inside_containers_end_with_them() {
    let text = "- item\n\n  ```\n  # code\n# Heading\n";
    assert_eq!(headings(text), vec![h(1, "Heading", 5)]);
    let outline = parse(text);
    assert_eq!(fences(text), vec![(3, 4, false)]);
    assert!(outline.code_blocks[0].nested);
    assert_eq!(fences("> ```\n> code\n# Out\n"), vec![(1, 2, false)]);
    assert_eq!(headings("> ```\n> code\n# Out\n"), vec![h(1, "Out", 3)]);
}

#[test]
fn html_comments_and_blocks() {
    let text = "\
<!--
# commented out
-->
# One
<div>
# raw html until a blank line
</div>

# Two
<script>

# inside script
</script>
# Three
<custom-element>
# inside kind 7
";
    assert_eq!(
        headings(text),
        vec![h(1, "One", 4), h(1, "Two", 9), h(1, "Three", 14)]
    );
    // kind 7 cannot interrupt a paragraph
    assert_eq!(headings("para\n<custom>\n# H\n"), vec![h(1, "H", 3)]);
    // a comment closed on its own line
    assert_eq!(headings("<!-- c -->\n# H\n"), vec![h(1, "H", 2)]);
}

#[test]
fn headings_in_containers_are_not_sections() {
    let text = "> # quoted\n\n- # in a list\n\n  # continued item\n\n1. ## ordered\n# Top\n";
    assert_eq!(headings(text), vec![h(1, "Top", 8)]);
}

#[test]
fn list_items_end_where_indentation_stops() {
    let text = "- item\n\n  paragraph in item\n\n# Top\n  # also top\n";
    assert_eq!(headings(text), vec![h(1, "Top", 5), h(1, "also top", 6)]);
}

#[test]
fn frontmatter_is_not_content() {
    let text = "---\ntitle: x\n# not a heading\n---\n# Real\n";
    let outline = parse(text);
    assert_eq!(outline.headings.len(), 1);
    assert_eq!(outline.headings[0].line, 5);
    let frontmatter = outline.frontmatter.unwrap();
    assert_eq!(frontmatter.kind, FrontmatterKind::Yaml);
    assert_eq!((frontmatter.start_line, frontmatter.end_line), (1, 4));
    assert_eq!(frontmatter.keys, vec!["title".to_string()]);

    let toml = parse("+++\ntitle = \"x\"\n+++\n\n# Real\n");
    assert_eq!(toml.frontmatter.unwrap().kind, FrontmatterKind::Toml);
    assert_eq!(toml.headings[0].line, 5);
}

#[test]
fn dashes_mid_document_are_not_frontmatter() {
    let text = "# Top\n\n---\ntitle: x\n---\n";
    let outline = parse(text);
    assert_eq!(outline.frontmatter, None);
    // `title: x` underlined by `---` is a setext heading
    assert_eq!(headings(text), vec![h(1, "Top", 1), h(2, "title: x", 4)]);
    // unclosed frontmatter is a thematic break followed by text
    let unclosed = parse("---\ntitle: x\n");
    assert_eq!(unclosed.frontmatter, None);
    assert_eq!(unclosed.headings, vec![]);
}

#[test]
fn duplicate_headings_get_numbered_slugs() {
    let outline = parse("## Setup\n## Setup\n## Setup 1\n## Setup\n");
    let slugs: Vec<_> = outline.headings.iter().map(|h| h.slug.as_str()).collect();
    assert_eq!(slugs, ["setup", "setup-1", "setup-1-1", "setup-2"]);
    assert_eq!(outline.find_anchor("#setup-2").map(|a| a.line), Some(4));
}

#[test]
fn slugs_use_the_visible_text() {
    let outline = parse(
        "# The [`parse`](src/lib.rs) *function*\n# <a id=\"x\"></a>Intro_Text\n# __init__ & Co.\n",
    );
    let slugs: Vec<_> = outline.headings.iter().map(|h| h.slug.as_str()).collect();
    assert_eq!(slugs, ["the-parse-function", "intro_text", "init--co"]);
}

#[test]
fn explicit_ids_and_anchors() {
    let text = "# Intro {#start}\n\n<a name=\"old\"></a>\n\n## Setup\n\n`<a id=\"no\">`\n\n```\n<a id=\"nope\">\n```\n";
    let outline = parse(text);
    assert_eq!(outline.headings[0].text, "Intro");
    assert_eq!(outline.headings[0].id.as_deref(), Some("start"));
    assert_eq!(outline.headings[0].slug, "intro");
    let anchor = |id: &str, line, kind| Anchor {
        id: id.to_string(),
        line,
        kind,
    };
    assert_eq!(
        outline.anchors,
        vec![
            anchor("intro", 1, AnchorKind::Heading),
            anchor("start", 1, AnchorKind::Explicit),
            anchor("old", 3, AnchorKind::Html),
            anchor("setup", 5, AnchorKind::Heading),
        ]
    );
    assert_eq!(outline.find_anchor("#old").map(|a| a.line), Some(3));
    assert_eq!(
        outline.find_anchor("start").map(|a| a.kind),
        Some(AnchorKind::Explicit)
    );
    assert_eq!(outline.find_anchor("nope"), None);
}

#[test]
fn an_anchor_whose_id_starts_with_a_hash_is_found_by_its_id() {
    let outline = parse("# Intro\n\n<a id=\"#x\"></a>\n<a id=x></a>\n");
    assert_eq!(outline.find_anchor("#x").map(|a| a.line), Some(3));
    assert_eq!(outline.find_anchor("x").map(|a| a.line), Some(4));
    assert_eq!(outline.find_anchor("##x").map(|a| a.line), Some(3));
    assert_eq!(outline.find_anchor("#intro").map(|a| a.line), Some(1));
}

#[test]
fn no_anchors_in_html_comments() {
    let outline = parse("<!--\n<a id=\"hidden\">\n-->\n<div>\n<a id=\"shown\">\n</div>\n");
    let ids: Vec<_> = outline
        .anchors
        .iter()
        .map(|a| (a.id.as_str(), a.line))
        .collect();
    assert_eq!(ids, [("shown", 5)]);
}

#[test]
fn sections_of_nested_headings() {
    let text = "\
# A

text

## B

b text

### C

## D


# E
";
    assert_eq!(
        sections(text),
        vec![
            (1, 13, 11),
            (5, 10, 9),
            (9, 10, 9),
            (11, 13, 11),
            (14, 14, 14)
        ]
    );
}

#[test]
fn last_section_with_trailing_blank_lines() {
    assert_eq!(sections("# A\n\nbody\n\n\n"), vec![(1, 5, 3)]);
    assert_eq!(sections("# A\n\n\n"), vec![(1, 3, 1)]);
    assert_eq!(sections("# A"), vec![(1, 1, 1)]);
    // a setext heading with no content ends at its underline
    assert_eq!(sections("A\n===\n\n# B\n"), vec![(1, 3, 2), (4, 4, 4)]);
}

#[test]
fn crlf_gives_the_same_outline() {
    let lf = "---\r\ntitle: x\r\n---\r\n# A {#a}\r\n\r\nSetext\r\n---\r\n```sh\r\n# no\r\n```\r\n<a id=\"z\">\r\n";
    assert_eq!(parse(lf), parse(&lf.replace("\r\n", "\n")));
    assert_eq!(parse(lf).headings.len(), 2);
    assert_eq!(parse(lf).code_blocks[0].language.as_deref(), Some("sh"));
}

#[test]
fn text_without_final_newline() {
    assert_eq!(headings("para\n# End"), vec![h(1, "End", 2)]);
    assert_eq!(fences("```\ncode\n```"), vec![(1, 3, true)]);
    assert_eq!(headings("Title\n==="), vec![h(1, "Title", 1)]);
}

#[test]
fn heading_tree_nests_by_level() {
    let outline = parse("## Early\n# A\n### Deep\n## B\n# C\n");
    let tree = outline.heading_tree();
    let node = |level, text: &str, line, end_line, children| HeadingNode {
        level,
        text: text.to_string(),
        line,
        end_line,
        children,
    };
    assert_eq!(
        tree,
        vec![
            node(2, "Early", 1, 1, vec![]),
            node(
                1,
                "A",
                2,
                4,
                vec![node(3, "Deep", 3, 3, vec![]), node(2, "B", 4, 4, vec![])]
            ),
            node(1, "C", 5, 5, vec![]),
        ]
    );
    let json = serde_json::to_value(&tree[2]).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"level": 1, "text": "C", "line": 5, "endLine": 5})
    );
}

#[test]
fn nearest_heading_and_code_block() {
    let outline = parse("intro\n# A\ntext\n## B\n```\n# x\n```\n");
    assert_eq!(outline.nearest_heading(1), None);
    assert_eq!(outline.nearest_heading(2).map(|h| h.line), Some(2));
    assert_eq!(outline.nearest_heading(3).map(|h| h.line), Some(2));
    assert_eq!(outline.nearest_heading(6).map(|h| h.line), Some(4));
    assert_eq!(outline.code_block(0).map(|c| c.start_line), Some(5));
    assert_eq!(outline.code_block(1), None);
}

#[test]
fn tabs_count_as_columns() {
    // a tab is 4 columns: indented code
    assert_eq!(headings("\t# code\n"), vec![]);
    // two spaces and a tab reach column 4 too
    assert_eq!(headings("  \t# code\n"), vec![]);
    // inside a list item whose content starts at column 2, a tab after the
    // marker's space still reaches the item's content
    assert_eq!(
        headings("- a\n\n\t# in item\n# out\n"),
        vec![h(1, "out", 4)]
    );
}

#[test]
fn serializes_in_camel_case() {
    let outline = parse("---\na: 1\n---\n# T\n```rs\n```\n");
    let json = serde_json::to_value(&outline).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "frontmatter": {"kind": "yaml", "startLine": 1, "endLine": 3, "keys": ["a"]},
            "headings": [{
                "level": 1, "text": "T", "line": 4, "lastLine": 4, "setext": false,
                "slug": "t", "sectionEnd": 6, "contentEnd": 6
            }],
            "codeBlocks": [{
                "index": 0, "language": "rs", "startLine": 5, "endLine": 6,
                "closed": true, "fence": "```", "nested": false
            }],
            "anchors": [{"id": "t", "line": 4, "kind": "heading"}]
        })
    );
}

#[test]
fn publishes_a_json_schema() {
    let schema = serde_json::to_value(schemars::schema_for!(MarkdownOutline)).unwrap();
    let properties = &schema["properties"];
    assert!(properties.get("headings").is_some());
    assert!(properties.get("codeBlocks").is_some());
    // the tree refers to itself for its children
    let tree = serde_json::to_value(schemars::schema_for!(Vec<HeadingNode>)).unwrap();
    assert_eq!(tree["items"]["$ref"], "#/$defs/HeadingNode");
    assert!(tree["$defs"]["HeadingNode"]["properties"]["children"].is_object());
}
