//! Reading a rules file's TOML with the place of every key and value, so that each
//! error names a line and a column.
//!
//! The `toml` crate parses the text into tables whose keys and values carry their
//! byte spans; [`Fields`] walks one table, hands out its values with their spans,
//! and at the end refuses the keys nobody asked for (a misspelt key is an error, not
//! a silently ignored line).

use crate::language::error::RulesError;
use std::ops::Range;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// The largest rules file read: a rules file is a few dozen lines.
pub const MAX_RULES_BYTES: usize = 64 * 1024;

/// The text of a rules file, for turning byte spans into lines and columns.
pub(crate) struct Source<'a> {
    pub text: &'a str,
}

impl<'a> Source<'a> {
    /// An error at a byte span of the text.
    pub fn error(&self, span: Range<usize>, message: impl Into<String>) -> RulesError {
        let start = span.start.min(self.text.len());
        let before = &self.text[..start];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = self.text[line_start..start].chars().count() + 1;
        let line_end = self.text[start..].find('\n').map_or(self.text.len(), |i| start + i);
        let quoted = self.text[line_start..line_end].trim_end_matches('\r');
        RulesError::At { line, column, message: message.into(), line_text: gsolve_games::text::excerpt(quoted) }
    }

    /// Parses the document.
    pub fn parse(&self) -> Result<Spanned<DeTable<'a>>, RulesError> {
        if self.text.len() > MAX_RULES_BYTES {
            return Err(RulesError::TooLong { bytes: self.text.len(), limit: MAX_RULES_BYTES });
        }
        DeTable::parse(self.text).map_err(|e| {
            let message = e.message().trim().to_string();
            self.error(e.span().unwrap_or(0..0), format!("not valid TOML: {message}"))
        })
    }
}

/// A value with its span.
pub(crate) type Item<'a> = Spanned<DeValue<'a>>;

/// One table of the file being read: its values by key, with the keys asked for
/// remembered so that [`Fields::finish`] can refuse the others.
pub(crate) struct Fields<'s, 'a> {
    pub source: &'s Source<'a>,
    table: &'s DeTable<'a>,
    /// Where the table is: its header, or the value it is.
    pub span: Range<usize>,
    /// How messages name the table, e.g. `[piece.pawn]`.
    pub name: String,
    known: Vec<&'static str>,
}

impl<'s, 'a> Fields<'s, 'a> {
    pub fn new(source: &'s Source<'a>, table: &'s DeTable<'a>, span: Range<usize>, name: impl Into<String>) -> Self {
        Fields { source, table, span, name: name.into(), known: Vec::new() }
    }

    /// An error at a span.
    pub fn error(&self, span: Range<usize>, message: impl Into<String>) -> RulesError {
        self.source.error(span, message)
    }

    /// The value of `key`, if present.
    pub fn get(&mut self, key: &'static str) -> Option<&'s Item<'a>> {
        self.known.push(key);
        self.table.get(key)
    }

    /// The value of a key that must be present.
    pub fn require(&mut self, key: &'static str) -> Result<&'s Item<'a>, RulesError> {
        match self.get(key) {
            Some(v) => Ok(v),
            None => Err(self.error(self.span.clone(), format!("{} lacks the key `{key}`", self.name))),
        }
    }

    /// A string value.
    pub fn string(&mut self, key: &'static str) -> Result<Option<(&'s str, Range<usize>)>, RulesError> {
        match self.get(key) {
            None => Ok(None),
            Some(item) => Ok(Some((as_str(self.source, item, &format!("`{key}` in {}", self.name))?, item.span()))),
        }
    }

    /// A boolean value, `default` if absent.
    pub fn boolean(&mut self, key: &'static str, default: bool) -> Result<bool, RulesError> {
        match self.get(key) {
            None => Ok(default),
            Some(item) => match item.get_ref() {
                DeValue::Boolean(b) => Ok(*b),
                other => Err(self.error(
                    item.span(),
                    format!("`{key}` in {} must be true or false, not {}", self.name, other.type_str()),
                )),
            },
        }
    }

    /// A table value, read with its own [`Fields`].
    pub fn table(&mut self, key: &'static str) -> Result<Option<Fields<'s, 'a>>, RulesError> {
        let name = format!("{}.{key}", self.name.trim_end_matches(']'));
        match self.get(key) {
            None => Ok(None),
            Some(item) => Ok(Some(as_table(self.source, item, &format!("{name}]"))?)),
        }
    }

    /// Every key with its value, in file order (for tables whose keys are names).
    pub fn entries(&mut self) -> impl Iterator<Item = (&'s str, Range<usize>, &'s Item<'a>)> {
        self.known.clear();
        self.known.push("*");
        self.table.iter().map(|(k, v)| (k.get_ref().as_ref(), k.span(), v))
    }

    /// Refuses keys that were not asked for.
    pub fn finish(self) -> Result<(), RulesError> {
        if self.known.contains(&"*") {
            return Ok(());
        }
        for (key, _) in self.table.iter() {
            let name: &str = key.get_ref().as_ref();
            if !self.known.contains(&name) {
                let mut known = self.known.clone();
                known.sort_unstable();
                known.dedup();
                let hint = closest(name, &known).map(|k| format!(" (did you mean `{k}`?)")).unwrap_or_default();
                return Err(self.error(
                    key.span(),
                    format!(
                        "unknown key `{}` in {}{hint}; known keys: {}",
                        short(name),
                        self.name,
                        known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// A name as messages quote it (user text is cut short).
pub(crate) fn short(name: &str) -> String {
    if name.chars().count() <= 24 && !name.contains(['\n', '\r', '`']) {
        name.to_string()
    } else {
        gsolve_games::text::excerpt(name)
    }
}

/// The known word closest to a misspelt one, if close.
fn closest<'k>(word: &str, known: &[&'k str]) -> Option<&'k str> {
    known.iter().map(|k| (edit_distance(word, k), *k)).filter(|&(d, k)| d <= 2 && d < k.len()).min().map(|(_, k)| k)
}

fn edit_distance(a: &str, b: &str) -> usize {
    if a.len() > 64 || b.len() > 64 {
        return usize::MAX;
    }
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for j in 0..b.len() {
            let here = row[j + 1];
            row[j + 1] = (prev + (ca != b[j]) as usize).min(row[j] + 1).min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}

/// A value that must be a string.
pub(crate) fn as_str<'s>(source: &Source<'_>, item: &'s Item<'_>, what: &str) -> Result<&'s str, RulesError> {
    match item.get_ref() {
        DeValue::String(s) => Ok(s.as_ref()),
        other => Err(source.error(item.span(), format!("{what} must be a string, not {}", other.type_str()))),
    }
}

/// A value that must be a whole number in `range`.
pub(crate) fn as_int(source: &Source<'_>, item: &Item<'_>, what: &str, range: Range<i64>) -> Result<i64, RulesError> {
    let DeValue::Integer(int) = item.get_ref() else {
        return Err(
            source.error(item.span(), format!("{what} must be a whole number, not {}", item.get_ref().type_str()))
        );
    };
    let text = int.as_str().replace('_', "");
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(&text)),
    };
    let digits = digits.trim_start_matches("0x").trim_start_matches("0o").trim_start_matches("0b");
    let value = i64::from_str_radix(digits, int.radix()).ok().map(|v| if negative { -v } else { v });
    match value {
        Some(v) if range.contains(&v) => Ok(v),
        _ => Err(source.error(
            item.span(),
            format!("{what} is {}: it must be from {} to {}", short(int.as_str()), range.start, range.end - 1),
        )),
    }
}

/// A value that must be an array.
pub(crate) fn as_array<'s, 'a>(
    source: &Source<'_>,
    item: &'s Item<'a>,
    what: &str,
) -> Result<&'s [Item<'a>], RulesError> {
    match item.get_ref() {
        DeValue::Array(a) => Ok(a),
        other => Err(source.error(item.span(), format!("{what} must be a list, not {}", other.type_str()))),
    }
}

/// A value that must be a table, as [`Fields`] named `name`.
pub(crate) fn as_table<'s, 'a>(
    source: &'s Source<'a>,
    item: &'s Item<'a>,
    name: &str,
) -> Result<Fields<'s, 'a>, RulesError> {
    match item.get_ref() {
        DeValue::Table(t) => Ok(Fields::new(source, t, item.span(), name)),
        other => Err(source.error(item.span(), format!("{name} must be a table, not {}", other.type_str()))),
    }
}
