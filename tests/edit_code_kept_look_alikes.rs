//! A line the caller keeps is not read as a look-alike of it that
//! `new_content` also has as a line of its own. A transcript repeats one
//! output after commands that differ in one mark (`--name bob`,
//! `--name=bob`); the search shows the start, leaves some commands out
//! without a marker, and shows the one to change; new_content writes the
//! left-out commands back. Reading the shown command as the first left-out
//! one, remembered stale, fits the search as well, and then the line new_content
//! changes is the wrong copy of the output. (Found by a held-out drift run
//! on a console transcript in Markdown: the changed line was added after
//! the command and the old output left below it.)

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{Case, made_as_meant_or_refused, run};
use proptest::prelude::*;

/// The commands of a transcript, each with the mark that sets its option.
const COMMANDS: [&str; 6] = [
    "$ {tool}",
    "$ {tool} --name {value}",
    "$ {tool} --name={value}",
    "$ {tool} -n {value}",
    "$ {tool} -n={value}",
    "$ {tool} -n{value}",
];

/// The lines of block `k`: the command, its output, a blank line.
fn block(k: usize, tool: &str, value: &str) -> [String; 3] {
    let command = COMMANDS[k]
        .replace("{tool}", tool)
        .replace("{value}", value);
    let output = if k == 0 {
        "name: None".to_string()
    } else {
        format!("name: Some(\"{value}\")")
    };
    [command, output, String::new()]
}

fn text(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

prop_compose! {
    fn case()(
        tool in "[a-z]{3,8}(_[a-z]{2,5})?",
        value in "[a-z]{3,6}",
        shown_first in 1usize..3,
        hidden in 1usize..3,
        after in 0usize..2,
        added in any::<bool>(),
        head in 0usize..3,
    ) -> Case {
        let target = shown_first + hidden;
        let blocks: Vec<[String; 3]> = (0..COMMANDS.len()).map(|k| block(k, &tool, &value)).collect();
        let preamble: Vec<String> = vec![
            "```console".into(),
            format!("$ {tool} --help"),
            format!("Usage: {tool}[EXE] [OPTIONS]"),
            String::new(),
            "Options:".into(),
            "  -n, --name <name>  ".into(),
            "  -h, --help         Print help".into(),
            "  -V, --version      Print version".into(),
            String::new(),
        ];
        let mut file = preamble.clone();
        for b in &blocks {
            file.extend(b.iter().cloned());
        }
        file.push("```".into());

        let changed = |b: &[String; 3]| -> Vec<String> {
            let mut out = vec![b[0].clone()];
            if added {
                out.push("This line was added.".into());
            }
            out.push(b[1].replace("name:", "name_next:"));
            out.push(b[2].clone());
            out
        };
        let head_lines = &preamble[preamble.len() - 1 - head..];
        let mut search = head_lines.to_vec();
        let mut new = head_lines.to_vec();
        for b in &blocks[..shown_first] {
            search.extend(b.iter().cloned());
            new.extend(b.iter().cloned());
        }
        for b in &blocks[shown_first..target] {
            new.extend(b.iter().cloned());
        }
        search.extend(blocks[target].iter().cloned());
        new.extend(changed(&blocks[target]));
        for b in &blocks[target + 1..(target + 1 + after).min(blocks.len())] {
            search.extend(b.iter().cloned());
            new.extend(b.iter().cloned());
        }

        let mut want = preamble.clone();
        for (k, b) in blocks.iter().enumerate() {
            if k == target {
                want.extend(changed(b));
            } else {
                want.extend(b.iter().cloned());
            }
        }
        want.push("```".into());
        Case { file: text(&file), search: text(&search), new: text(&new), want: text(&want) }
    }
}

#[test]
fn a_kept_line_is_not_the_look_alike_new_content_also_has() {
    let made = run(400, case(), |c| Ok(c.made_as_meant_or_refused()));
    println!("made {made} of 400");
}

/// The held-out case itself, as the file had it.
#[test]
fn the_console_transcript_is_edited_at_its_command_or_not_at_all() {
    let file = "  -h, --help         Print help\n  -V, --version      Print version\n\n\
        $ 03_02_option\nname: None\n\n\
        $ 03_02_option --name bob\nname: Some(\"bob\")\n\n\
        $ 03_02_option --name=bob\nname: Some(\"bob\")\n\n\
        $ 03_02_option -n bob\nname: Some(\"bob\")\n\n```\n";
    let search = "  -h, --help         Print help\n  -V, --version      Print version\n\n\
        $ 03_02_option\nname: None\n\n\
        $ 03_02_option --name=bob\nname: Some(\"bob\")\n\n";
    let new = "  -h, --help         Print help\n  -V, --version      Print version\n\n\
        $ 03_02_option\nname: None\n\n\
        $ 03_02_option --name bob\nname: Some(\"bob\")\n\n\
        $ 03_02_option --name=bob\nThis line was added.\nname_next: Some(\"bob\")\n\n";
    let want = file.replacen(
        "--name=bob\nname: Some(\"bob\")",
        "--name=bob\nThis line was added.\nname_next: Some(\"bob\")",
        1,
    );
    made_as_meant_or_refused(file, search, new, &want);
}
