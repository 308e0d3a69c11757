//! A rules file's text on one line, as tablebases and books store it.

/// Escapes a rules text into one line: `\` → `\\`, line feed → `\n`, carriage
/// return → `\r`.
pub fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    for ch in text.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

/// The inverse of [`escape_text`].
pub fn unescape_text(text: &str) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(ch) = chars.next() {
        if ch != '\\' {
            out.push(ch);
            continue;
        }
        match chars.next() {
            Some('\\') => out.push('\\'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            other => {
                return Err(format!("the rules text has a bad escape \\{}", other.map_or(String::new(), String::from)))
            }
        }
    }
    Ok(out)
}
