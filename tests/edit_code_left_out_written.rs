//! Searches that leave lines out without a marker, and blank lines counted
//! otherwise than the file counts them, where new_content still says
//! exactly what it wants. Each shape was refused on the real-file corpus
//! and is now made; the shapes nearby that stay a guess are still refused,
//! and the file is left as it was. Each test checks exact bytes.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::apply;

#[test]
fn lines_left_out_unmarked_and_written_out_with_one_rewritten_are_that_change() {
    // Two of the lines left out are written out as they are, for the one
    // rewritten: the caller has seen them.
    let file = "struct Other {\n    x: u8,\n}\n\nstruct State {\n    /// Sparse transitions out of this state. Transitions\n    /// are sorted by byte.\n    /// There is at most one such transition for any\n    /// particular byte.\n    trans: Vec<(u8, usize)>,\n}\n";
    let search = "struct State {\n    /// Sparse transitions out of this state. Transitions\n    trans: Vec<(u8, usize)>,\n}\n";
    let new = "struct State {\n    /// Sparse transitions out of this state. Transitions\n    /// are sorted by byte.\n    /// There is at most one such transition for any\n    /// particular byte_all.\n    trans: Vec<(u8, usize)>,\n}\n";
    let want = file.replace("particular byte.", "particular byte_all.");
    assert_eq!(apply(file, search, new).unwrap(), want);
    // With one line written as it is, the rewritten one may be a line the
    // file gained since the caller read it: refused, the file untouched.
    let one = file.replace("    /// There is at most one such transition for any\n", "");
    let new_one = new.replace("    /// There is at most one such transition for any\n", "");
    assert!(apply(&one, search, &new_one).is_err());
}

#[test]
fn a_comment_added_to_a_short_line_left_out_and_written_out_is_that_line_changed() {
    let file = "class Scheduler:\n    def enter(self, delay, action):\n        \"\"\"A variant that takes a relative time.\n\n        This is the more commonly used interface.\n\n        \"\"\"\n        time = self.timefunc() + delay\n        return self.enterabs(time, action)\n\n    def cancel(self, event):\n        pass\n";
    let search = "    def enter(self, delay, action):\n        \"\"\"A variant that takes a relative time.\n        return self.enterabs(time, action)\n";
    let new = "    def enter(self, delay, action):\n        \"\"\"A variant that takes a relative time.\n\n        This is the more commonly used interface.\n\n        \"\"\"  # hot path\n        time = self.timefunc() + delay\n        return self.enterabs_all(time, action)\n";
    let want = file
        .replace(
            "        \"\"\"\n        time",
            "        \"\"\"  # hot path\n        time",
        )
        .replace("self.enterabs(", "self.enterabs_all(");
    assert_eq!(apply(file, search, new).unwrap(), want);
}

#[test]
fn a_line_the_file_gained_between_two_lines_left_out_is_not_rewritten_on_a_guess() {
    // The caller shows `a` and `d`, and writes out `b` as the file has it
    // and a new line beside it. The file has a line there the caller never
    // wrote out, and nothing says the new line stands for it.
    let file = "fn f() {\n    a();\n    b();\n    gained(1);\n    d();\n}\n";
    let search = "fn f() {\n    a();\n    d();\n}\n";
    let new = "fn f() {\n    a();\n    b();\n    gainer(2);\n    d();\n}\n";
    if let Ok(got) = apply(file, search, new) {
        assert!(
            got.contains("gained(1);"),
            "a line the caller never saw was replaced:\n{got}"
        );
    }
}

#[test]
fn a_line_added_right_after_a_kept_line_goes_there_whatever_the_blank_run_beyond() {
    // The search remembers two blank lines where the file has one; the new
    // line touches the line before the run, so the run is not in question.
    let file = "# Title\n\n- Extensive production use\n- Client and Server APIs\n\n**Get started** by reading the guides.\n";
    let search = "- Extensive production use\n- Client and Server APIs\n\n\n**Get started** by reading the guides.\n";
    let new = "- Extensive production use\n- Client and Server APIs\n- Also works offline.\n\n\n**Get started** by reading the guides.\n";
    let want = file.replace("APIs\n", "APIs\n- Also works offline.\n");
    assert_eq!(apply(file, search, new).unwrap(), want);
}

#[test]
fn a_line_added_inside_a_blank_run_counted_otherwise_is_still_refused() {
    let file = "- Extensive production use\n- Client and Server APIs\n\n**Get started** by reading the guides.\n";
    let search = "- Extensive production use\n- Client and Server APIs\n\n\n**Get started** by reading the guides.\n";
    let new = "- Extensive production use\n- Client and Server APIs\n\n- Also works offline.\n\n**Get started** by reading the guides.\n";
    assert!(apply(file, search, new).is_err());
}

#[test]
fn a_blank_line_only_the_search_has_dropped_beside_a_rewritten_line_is_no_guess() {
    // Two runs in one stretch: the one before the rewritten line is the
    // file's, and the one after it the caller sets to the file's count.
    let file = "```rust\nuse ignore::WalkBuilder;\n\nfor result in WalkBuilder::new(\"./\").build() {\n    println!(\"{:?}\", result);\n}\n```\n";
    let search = "use ignore::WalkBuilder;\n\nfor result in WalkBuilder::new(\"./\").build() {\n\n    println!(\"{:?}\", result);\n";
    let new = "use ignore::WalkBuilder;\n\nfor result in Walker::new(\"./\").build() {\n    println!(\"{:?}\", result);\n";
    let want = file.replace("in WalkBuilder::new", "in Walker::new");
    assert_eq!(apply(file, search, new).unwrap(), want);
}

#[test]
fn a_line_added_before_a_blank_run_the_search_counts_short_goes_before_the_whole_run() {
    let file = "def add_mapping(bindings, port, external):\n    if port in bindings:\n        bindings[port].append(external)\n    else:\n        bindings[port] = [external]\n\n\ndef add_port(bindings, ports, external_range):\n    if external_range is None:\n        return None\n    return ports\n";
    let search = "    else:\n        bindings[port] = [external]\n\ndef add_port(bindings, ports, external_range):\n    if external_range is None:\n";
    let new = "    else:\n        bindings[port] = [external]\n        # checked again below\n\ndef add_port(bindings, ports, external_range):\n    if external_range_next is None:\n";
    let want = file
        .replace(
            "[external]\n\n",
            "[external]\n        # checked again below\n\n",
        )
        .replace("if external_range is", "if external_range_next is");
    if let Ok(got) = apply(file, search, new) {
        assert_eq!(got, want);
    }
}

#[test]
fn a_misspelled_line_the_caller_corrects_to_the_file_s_text_is_no_line_removed() {
    let file = "class Number:\n    @abstractmethod\n    def __and__(self, other):\n        \"\"\"self & other\"\"\"\n        raise NotImplementedError\n\n    @abstractmethod\n    def __rand__(self, other):\n        \"\"\"other & self\"\"\"\n        raise NotImplementedError\n\n    @abstractmethod\n    def __xor__(self, other):\n        \"\"\"self ^ other\"\"\"\n        raise NotImplementedError\n";
    let search = "        \"\"\"self & other\"\"\"\n        raise NotImplementedErrod\n\n    @abstractmethod\n    def __rand__(self, other):\n        \"\"\"other & self\"\"\"\n        raise NotImplementedEError\n";
    let new = "        \"\"\"self & other\"\"\"\n        raise NotImplementedError\n\n    @abstractmethod\n    def __rand__(self, other):\n        # NOTE: the order matters here.\n        \"\"\"other & self\"\"\"\n        raise NotImplementedError\n";
    let want = file.replace(
        "    def __rand__(self, other):\n",
        "    def __rand__(self, other):\n        # NOTE: the order matters here.\n",
    );
    assert_eq!(apply(file, search, new).unwrap(), want);
}

#[test]
fn a_place_read_without_drift_is_clearly_ahead_of_one_with_a_line_lost() {
    // new_content writes out the paragraph the search leaves out, with two
    // words changed: those are the caller's edits, not evidence against
    // the place, and the one-line rival elsewhere must lose a line to fit.
    let file = "### Minimum Rust version policy\n\nThis crate's minimum supported `rustc` version is `1.34.0`.\n\nThe current policy is that the minimum Rust version required to use this crate\ncan be increased in minor version updates. For example, if `crate 1.0` requires\nRust 1.20.0, then `crate 1.0.z` for all values of `z` will also require Rust\n1.20.0 or newer. However, `crate 1.y` for `y > 0` may require a newer minimum\nversion of Rust.\n\nIn general, this crate will be conservative with respect to the minimum\nsupported version of Rust.\n\n### Performance\n";
    let search = "### Minimum Rust version policy\nsupported version of Rust.\n";
    let new = file
        .split("\n\n### Performance")
        .next()
        .unwrap()
        .replace("minor version updates", "minor usually updates")
        .replace("a newer minimum", "a newer simply")
        + "\n";
    let want = file
        .replace("minor version updates", "minor usually updates")
        .replace("a newer minimum", "a newer simply");
    assert_eq!(apply(file, search, &new).unwrap(), want);
}

#[test]
fn blank_lines_before_a_marker_s_lines_written_out_stay_where_the_caller_kept_none() {
    // The marker stands for a blank line and two lines of text; the caller
    // writes out the text only. The blank line was never the caller's to
    // count: it stays, or the edit is refused.
    let file = "        if kind == Kind::Encode:\n            return encode(args)\n        if kind == Kind::Decode:\n            return decode(args)\n\n        # Math operations.\n        if kind == Kind::Random:\n            return random(args)\n        if kind == Kind::Add:\n            return add(args)\n";
    let search = "        if kind == Kind::Decode:\n            return decoode(args)\n        # ...\n        if kind == Kind::Add:\n            return add(args)\n";
    let new = "        if kind == Kind::Decode:\n            return decoode(args)\n        # Math operations.\n        if kind == Kind::Random:\n            return random(args)\n        if kind == Kind::Add_next:\n            return add(args)\n";
    let want = file.replace("Kind::Add:", "Kind::Add_next:");
    if let Ok(got) = apply(file, search, new) {
        assert_eq!(got, want);
    }
}

#[test]
fn the_file_s_blank_lines_after_a_marker_s_lines_written_out_stay_where_the_caller_kept_the_search_s_count()
 {
    let file = "def is_network(instance: object) -> bool:\n    if not isinstance(instance, str):\n        return True\n    try:\n        return bool(ipaddress.IPv4Network(instance))\n    except (ipaddress.AddressValueError, ValueError):\n        return False\n\n\ndef is_ipv6(instance: object) -> bool:\n    if not isinstance(instance, str):\n        return True\n    return False\n";
    let search = "        return True\n    try:\n        return bool(ipaddress.IPv4Network(instance))\n    # rest of the body unchanged ...\n\ndef is_ipv6(instance: object) -> bool:\n    if not isinstance(instance, str):\n";
    let new = "        return True\n    try:\n        return bool(ipaddress.IPv4Network(instance))\n    except (ipaddress.AddressValueError, ValueError):\n        return False\n        # checked again below\n\ndef is_ipv6(instance: object) -> bool:\n    if not isinstance(instance, str):\n";
    let want = file.replace(
        "        return False\n\n\ndef is_ipv6",
        "        return False\n        # checked again below\n\n\ndef is_ipv6",
    );
    if let Ok(got) = apply(file, search, new) {
        assert_eq!(got, want);
    }
}

#[test]
fn the_file_s_blank_lines_around_lines_left_out_unmarked_stay_where_the_caller_kept_the_search_s_count()
 {
    // The search's two blank lines stand around a method it leaves out;
    // new_content writes the method out with a line added and keeps two
    // blank lines in all: the file's three stay.
    let file = "    def find(self, path):\n        return any(\n            part(p) for p in self._contents\n        )\n\n    def contents(self):\n        if isinstance(self.path, Exception):\n            raise self.path\n        yield from self._contents\n\n\ndef create_package(loader):\n    name = 'pkg'\n";
    let search = "        return any(\n            part(p) for p in self._contents\n        )\n\n\ndef create_package(loader):\n    name = 'pkg'\n";
    let new = "        return any(\n            part(p) for p in self._contents\n        )\n\n    def contents(self):\n        if isinstance(self.path, Exception):\n            raise self.path\n        yield from self._contents\n        # checked again below\n\ndef create_package(loader):\n    name = 'pkg'\n";
    let want = file.replace(
        "self._contents\n\n\ndef",
        "self._contents\n        # checked again below\n\n\ndef",
    );
    assert_eq!(apply(file, search, new).unwrap(), want);
}
