//! Small helpers for reading text inputs.

/// Whitespace-separated tokens with their 1-based columns (in characters). One pass
/// over the text, whatever its length and layout.
pub fn tokens_with_columns(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    // (byte offset, column) of the token being read.
    let mut start: Option<(usize, usize)> = None;
    let mut column = 0;
    for (i, ch) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
        column += 1;
        match (ch.is_whitespace(), start) {
            (false, None) => start = Some((i, column)),
            (true, Some((s, c))) => {
                out.push((c, &text[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// The most characters of a user's text that an error message quotes.
pub const EXCERPT_CHARS: usize = 32;

/// A user's text as an error message quotes it: in double quotes with escapes, cut
/// to [`EXCERPT_CHARS`] characters (`"ppppppp…" (160000 characters)`), so that a
/// message stays one short line whatever the input.
pub fn excerpt(text: &str) -> String {
    let mut chars = text.char_indices();
    match chars.nth(EXCERPT_CHARS) {
        None => format!("{text:?}"),
        Some((cut, _)) => {
            let shown = format!("{:?}", &text[..cut]);
            format!("{}…\" ({} characters)", &shown[..shown.len() - 1], text.chars().count())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_columns() {
        assert_eq!(tokens_with_columns("  ab c\tdé  f"), vec![(3, "ab"), (6, "c"), (8, "dé"), (12, "f")]);
        assert_eq!(tokens_with_columns(""), Vec::<(usize, &str)>::new());
    }

    #[test]
    fn long_lines_are_read_in_linear_time() {
        // 2 million tokens on one line: quadratic column counting would not finish.
        let text = "0 ".repeat(2_000_000);
        let started = std::time::Instant::now();
        let tokens = tokens_with_columns(&text);
        assert_eq!(tokens.len(), 2_000_000);
        assert_eq!(tokens[1_999_999], (3_999_999, "0"));
        assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
    }

    #[test]
    fn excerpts_are_short() {
        assert_eq!(excerpt("abc"), "\"abc\"");
        let long = "p".repeat(160_000);
        let quoted = excerpt(&long);
        assert!(quoted.len() < 60, "{quoted}");
        assert!(quoted.ends_with("…\" (160000 characters)"), "{quoted}");
        assert_eq!(excerpt("a\"b"), "\"a\\\"b\"");
    }
}
