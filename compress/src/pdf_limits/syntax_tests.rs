//! The lexer's values, read as the engines read them.

use super::*;

fn parse(text: &[u8]) -> Result<Value, Refusal> {
    let mut lexer = Lexer::new(text, 0);
    let first = lexer.next();
    lexer.value(first, 0)
}

#[test]
fn reads_a_stream_dictionary() {
    let value = parse(
        b"<< /Length 12 0 R /Filter [/AHx /FlateDecode] /W (a)b)) /N 3 %c\n /X [1 [2 [3]]] >>",
    )
    .expect("in the test");
    assert_eq!(value.get(b"Length"), Some(&Value::Ref(12)));
    assert_eq!(
        value.get(b"Filter"),
        Some(&Value::Array(vec![
            Value::Name(b"AHx".to_vec()),
            Value::Name(b"FlateDecode".to_vec())
        ]))
    );
    assert_eq!(value.get(b"N"), Some(&Value::Int(3)));
    assert_eq!(
        value.get(b"X"),
        Some(&Value::Array(vec![Value::Int(1), Value::Other]))
    );
}

#[test]
fn reads_strings_and_booleans() {
    let value =
        parse(b"<< /O (a\\)\\101\\\n\\n(b)) /ID [<0a 1F 3>] /M false >>").expect("in the test");
    assert_eq!(value.get(b"O"), Some(&Value::Str(b"a)A\n(b)".to_vec())));
    assert_eq!(
        value.get(b"ID"),
        Some(&Value::Array(vec![Value::Str(vec![0x0a, 0x1f, 0x30])]))
    );
    assert_eq!(value.get(b"M"), Some(&Value::Bool(false)));
}

#[test]
fn refuses_deep_nesting() {
    let mut text = b"[".repeat(MAX_NESTING + 1);
    text.extend(b"]".repeat(MAX_NESTING + 1));
    assert!(matches!(parse(&text), Err(Refusal::TooDeep)));
    let fine = [b"[".repeat(MAX_NESTING), b"]".repeat(MAX_NESTING)].concat();
    assert!(parse(&fine).is_ok());
}
