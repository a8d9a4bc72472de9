//! A position inside one line, measured both in bytes and in columns.
//!
//! CommonMark counts indentation in columns with tab stops every 4 columns, and
//! a container marker may consume only part of a tab (`>\tcode`). The cursor
//! keeps the byte offset and the column apart so that partly consumed tabs give
//! the right indentation to whatever follows.

/// Width of a tab stop in CommonMark.
const TAB_STOP: usize = 4;

/// Where the block scanner stands in the current line.
#[derive(Debug, Clone)]
pub(crate) struct Cursor<'a> {
    bytes: &'a [u8],
    /// Byte offset of the next unconsumed byte.
    offset: usize,
    /// Column of `offset`; ahead of it when a tab is partly consumed.
    column: usize,
    /// Byte offset of the first byte that is not a space or tab.
    next_nonspace: usize,
    /// Column of `next_nonspace`.
    next_nonspace_column: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `line` (without its line ending).
    pub(crate) fn new(line: &'a str) -> Cursor<'a> {
        let mut cursor = Cursor {
            bytes: line.as_bytes(),
            offset: 0,
            column: 0,
            next_nonspace: 0,
            next_nonspace_column: 0,
        };
        cursor.find_next_nonspace();
        cursor
    }

    /// Finds the first non-space byte from the current position; must be called
    /// after every move before `indent`, `blank` or `rest` are read.
    pub(crate) fn find_next_nonspace(&mut self) {
        let mut i = self.offset;
        let mut column = self.column;
        while let Some(&b) = self.bytes.get(i) {
            match b {
                b' ' => column += 1,
                b'\t' => column += TAB_STOP - column % TAB_STOP,
                _ => break,
            }
            i += 1;
        }
        self.next_nonspace = i;
        self.next_nonspace_column = column;
    }

    /// Columns of whitespace between the position and the next non-space byte.
    pub(crate) fn indent(&self) -> usize {
        self.next_nonspace_column - self.column
    }

    /// Whether the indentation makes the line indented code (4 columns or more).
    pub(crate) fn indented(&self) -> bool {
        self.indent() >= TAB_STOP
    }

    /// Whether nothing but spaces and tabs follows the position.
    pub(crate) fn blank(&self) -> bool {
        self.next_nonspace >= self.bytes.len()
    }

    /// The first non-space byte, if any.
    pub(crate) fn peek_nonspace(&self) -> Option<u8> {
        self.bytes.get(self.next_nonspace).copied()
    }

    /// The byte at the position, if any.
    pub(crate) fn peek(&self) -> Option<u8> {
        self.bytes.get(self.offset).copied()
    }

    /// The bytes from the first non-space byte to the end of the line.
    pub(crate) fn rest(&self) -> &'a [u8] {
        &self.bytes[self.next_nonspace.min(self.bytes.len())..]
    }

    /// Byte offset of the first non-space byte.
    pub(crate) fn next_nonspace_offset(&self) -> usize {
        self.next_nonspace
    }

    /// Byte offset of the position.
    pub(crate) fn offset(&self) -> usize {
        self.offset
    }

    /// Column of the position.
    pub(crate) fn column(&self) -> usize {
        self.column
    }

    /// Moves to the first non-space byte.
    pub(crate) fn advance_to_nonspace(&mut self) {
        self.offset = self.next_nonspace;
        self.column = self.next_nonspace_column;
    }

    /// Moves forward by `count` columns; a tab wider than what is left is only
    /// partly consumed (the byte offset stays on it).
    pub(crate) fn advance_columns(&mut self, mut count: usize) {
        while count > 0 {
            match self.bytes.get(self.offset) {
                Some(b'\t') => {
                    let to_tab = TAB_STOP - self.column % TAB_STOP;
                    if to_tab > count {
                        self.column += count;
                        count = 0;
                    } else {
                        self.column += to_tab;
                        self.offset += 1;
                        count -= to_tab;
                    }
                }
                Some(_) => {
                    self.offset += 1;
                    self.column += 1;
                    count -= 1;
                }
                None => break,
            }
        }
    }

    /// Moves forward by `count` bytes; a tab counts as one byte and moves the
    /// column to the next tab stop. Only used over ASCII marker bytes.
    pub(crate) fn advance_bytes(&mut self, count: usize) {
        for _ in 0..count {
            match self.bytes.get(self.offset) {
                Some(b'\t') => self.column += TAB_STOP - self.column % TAB_STOP,
                Some(_) => self.column += 1,
                None => break,
            }
            self.offset += 1;
        }
    }

    /// Puts the cursor back to an earlier byte offset and column.
    pub(crate) fn reset_to(&mut self, offset: usize, column: usize) {
        self.offset = offset;
        self.column = column;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tabs_expand_to_the_next_stop() {
        let mut cursor = Cursor::new(" \tx");
        assert_eq!(cursor.indent(), 4);
        assert!(cursor.indented());
        cursor.advance_columns(2);
        // the tab is only partly consumed: two columns of it remain
        assert_eq!(cursor.offset(), 1);
        assert_eq!(cursor.column(), 2);
        cursor.find_next_nonspace();
        assert_eq!(cursor.indent(), 2);
        assert_eq!(cursor.rest(), b"x");
    }

    #[test]
    fn blank_lines() {
        assert!(Cursor::new("").blank());
        assert!(Cursor::new(" \t ").blank());
        assert!(!Cursor::new("  a").blank());
    }
}
