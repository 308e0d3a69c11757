//! Reading a request body as JSON, refusing an object that gives a key twice
//! anywhere in the body: serde_json keeps the last one silently, so that
//! `{"position": "a", "position": "b"}` would be read as a position the client may
//! not have meant (and a filter in front of the server may have checked the first).

use serde::de::{Deserialize, Deserializer, Error, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// The JSON value of `bytes`. A duplicate key is an error of category `Data` whose
/// message names the key and where it is; other errors are serde_json's.
/// serde_json's nesting limit (128) still applies.
pub fn parse(bytes: &[u8]) -> Result<Value, serde_json::Error> {
    let mut reader = serde_json::Deserializer::from_slice(bytes);
    let Strict(value) = Strict::deserialize(&mut reader)?;
    reader.end()?;
    Ok(value)
}

/// A value whose objects have been checked for duplicate keys.
struct Strict(Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_string()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(A::Error::custom(format!("the key {key:?} is given twice in one object")));
            }
            let Strict(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::error::Category;

    #[test]
    fn reads_what_serde_json_reads() {
        for text in [
            r#"{"game": "chase", "variant": {"size": 4}, "position": "1,1 4,4 w"}"#,
            r#"[1, -2, 3.5, true, false, null, "é\n", {"a": [{}], "b": {"a": 1}}]"#,
            "  17 ",
        ] {
            assert_eq!(parse(text.as_bytes()).unwrap(), serde_json::from_str::<Value>(text).unwrap(), "{text}");
        }
    }

    #[test]
    fn refuses_a_key_given_twice_at_any_depth() {
        for (text, key) in [
            (r#"{"game": "chase", "game": "pawns"}"#, "game"),
            (r#"{"variant": {"size": "4", "size": "5"}}"#, "size"),
            (r#"[{"a": 1}, {"b": {"c": [{"d": 1, "d": 1}]}}]"#, "d"),
            // The same key once escaped: the same string.
            (r#"{"game": 1, "g\u0061me": 2}"#, "game"),
        ] {
            let e = parse(text.as_bytes()).unwrap_err();
            assert_eq!(e.classify(), Category::Data, "{text}: {e}");
            assert!(e.to_string().contains(&format!("the key {key:?} is given twice")), "{e}");
        }
    }

    #[test]
    fn syntax_errors_and_deep_nesting_are_errors() {
        for text in ["{", "{\"a\": 1} x", "", "[1,]"] {
            assert_ne!(parse(text.as_bytes()).map_err(|e| e.classify()).unwrap_err(), Category::Data, "{text}");
        }
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(parse(deep.as_bytes()).unwrap_err().to_string().contains("recursion limit"));
    }
}
