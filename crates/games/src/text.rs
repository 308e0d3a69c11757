//! Small helpers for reading text inputs.

/// Whitespace-separated tokens with their 1-based columns.
pub fn tokens_with_columns(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
        match (ch.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                out.push((text[..s].chars().count() + 1, &text[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    out
}
