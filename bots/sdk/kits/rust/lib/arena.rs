//! Moon Arena bot protocol for Rust (standard library only, Rust 1.63): a JSON value,
//! its parser and writer, and the loop that answers the arena. `mod arena;` in main.rs.
//!
//! The arena writes one JSON object per line on stdin ("start", "act", "end"); the bot
//! answers each "act" with one line {"match": ..., "action": <one of legal_actions>}.
//! Nothing else may go to stdout: log with `arena::log` (stderr).

#![allow(dead_code)]

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{self, BufRead, Write};

/// A JSON value. Numbers written without a fraction or exponent that fit in 64 bits are
/// `Int`; every other number is a `Float`. Objects keep their key order.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

static NULL: Json = Json::Null;

impl Json {
    pub fn parse(text: &str) -> Result<Json, String> {
        let mut parser = Parser {
            bytes: text.as_bytes(),
            pos: 0,
        };
        let value = parser.value(0)?;
        parser.skip_space();
        if parser.pos != parser.bytes.len() {
            return Err(parser.error("extra data after the JSON value"));
        }
        Ok(value)
    }

    /// A member of an object (Null when missing or not an object): chains safely.
    pub fn get(&self, key: &str) -> &Json {
        match self {
            Json::Object(members) => members
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v)
                .unwrap_or(&NULL),
            _ => &NULL,
        }
    }

    /// An element of an array (Null when missing or not an array).
    pub fn at(&self, index: usize) -> &Json {
        match self {
            Json::Array(items) => items.get(index).unwrap_or(&NULL),
            _ => &NULL,
        }
    }

    /// Elements of an array or members of an object; 0 for anything else.
    pub fn len(&self) -> usize {
        match self {
            Json::Array(items) => items.len(),
            Json::Object(members) => members.len(),
            _ => 0,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(text) => Some(text),
            _ => None,
        }
    }
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Json::Int(value) => Some(*value),
            _ => None,
        }
    }
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Int(value) => Some(*value as f64),
            Json::Float(value) => Some(*value),
            _ => None,
        }
    }
    pub fn as_array(&self) -> &[Json] {
        match self {
            Json::Array(items) => items,
            _ => &[],
        }
    }

    /// Compact JSON; strings are written in ASCII (\uXXXX escapes), as the arena does.
    pub fn dump(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(value) => out.push_str(if *value { "true" } else { "false" }),
            Json::Int(value) => {
                let _ = write!(out, "{}", value);
            }
            Json::Float(value) => write_float(out, *value),
            Json::Str(text) => write_string(out, text),
            Json::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Json::Object(members) => {
                out.push('{');
                for (i, (key, value)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_string(out, key);
                    out.push(':');
                    value.write(out);
                }
                out.push('}');
            }
        }
    }
}

fn write_float(out: &mut String, value: f64) {
    if value.is_nan() {
        out.push_str("NaN");
    } else if value.is_infinite() {
        out.push_str(if value > 0.0 { "Infinity" } else { "-Infinity" });
    } else {
        // Rust's Display is the shortest text that reads back the same; "{:e}" keeps huge
        // and tiny numbers short. Either way it must stay a float (".0" or an exponent).
        let plain = format!("{}", value);
        let text = if plain.len() > 24 {
            format!("{:e}", value)
        } else {
            plain
        };
        out.push_str(&text);
        if !text.contains('.') && !text.contains('e') {
            out.push_str(".0");
        }
    }
}

fn write_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{:04x}", unit);
                }
            }
        }
    }
    out.push('"');
}

struct Parser<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Parser<'a> {
    fn error(&self, what: &str) -> String {
        format!("{} at byte {}", what, self.pos)
    }

    fn skip_space(&mut self) {
        while self.pos < self.bytes.len()
            && matches!(self.bytes[self.pos], b' ' | b'\t' | b'\n' | b'\r')
        {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn take(&mut self, word: &str) -> bool {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > 500 {
            return Err(self.error("JSON nested too deeply"));
        }
        self.skip_space();
        match self.peek() {
            None => Err(self.error("unexpected end of JSON")),
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b'-') | Some(b'0'..=b'9') => self.number(),
            _ if self.take("true") => Ok(Json::Bool(true)),
            _ if self.take("false") => Ok(Json::Bool(false)),
            _ if self.take("null") => Ok(Json::Null),
            _ => Err(self.error("unexpected character")),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, String> {
        let mut members: Vec<(String, Json)> = Vec::new();
        self.pos += 1;
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Json::Object(members));
        }
        loop {
            self.skip_space();
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a key"));
            }
            let key = self.string()?;
            self.skip_space();
            if self.peek() != Some(b':') {
                return Err(self.error("expected ':'"));
            }
            self.pos += 1;
            let value = self.value(depth + 1)?;
            // A repeated key keeps its first place and its last value.
            match members.iter_mut().find(|(k, _)| *k == key) {
                Some(member) => member.1 = value,
                None => members.push((key, value)),
            }
            self.skip_space();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Json::Object(members));
                }
                _ => return Err(self.error("expected ',' or '}'")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Json, String> {
        let mut items = Vec::new();
        self.pos += 1;
        self.skip_space();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(Json::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.skip_space();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Json::Array(items));
                }
                _ => return Err(self.error("expected ',' or ']'")),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        if self.pos + 4 > self.bytes.len() {
            return Err(self.error("short \\u escape"));
        }
        let digits = std::str::from_utf8(&self.bytes[self.pos..self.pos + 4])
            .map_err(|_| self.error("bad \\u escape"))?;
        let value = u32::from_str_radix(digits, 16).map_err(|_| self.error("bad \\u escape"))?;
        self.pos += 4;
        Ok(value)
    }

    fn string(&mut self) -> Result<String, String> {
        self.pos += 1; // the opening quote
        let mut out: Vec<u8> = Vec::new();
        loop {
            let c = match self.peek() {
                None => return Err(self.error("unterminated string")),
                Some(c) => c,
            };
            self.pos += 1;
            match c {
                b'"' => {
                    return String::from_utf8(out).map_err(|_| self.error("a string is not UTF-8"))
                }
                0..=0x1f => return Err(self.error("control character in a string")),
                b'\\' => {
                    let escape = self
                        .peek()
                        .ok_or_else(|| self.error("unterminated string"))?;
                    self.pos += 1;
                    let decoded = match escape {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let mut code = self.hex4()?;
                            if (0xD800..0xDC00).contains(&code)
                                && self.bytes[self.pos..].starts_with(b"\\u")
                            {
                                let back = self.pos;
                                self.pos += 2;
                                let low = self.hex4()?;
                                if (0xDC00..0xE000).contains(&low) {
                                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                                } else {
                                    self.pos = back;
                                }
                            }
                            // A lone surrogate has no place in a Rust string: U+FFFD stands in.
                            char::from_u32(code).unwrap_or('\u{FFFD}')
                        }
                        _ => return Err(self.error("bad escape")),
                    };
                    let mut buffer = [0u8; 4];
                    out.extend_from_slice(decoded.encode_utf8(&mut buffer).as_bytes());
                }
                _ => out.push(c),
            }
        }
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.pos;
        let digits = |parser: &mut Parser| {
            let from = parser.pos;
            while matches!(parser.peek(), Some(b'0'..=b'9')) {
                parser.pos += 1;
            }
            parser.pos > from
        };
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        if self.peek() == Some(b'0') {
            self.pos += 1;
        } else if !digits(self) {
            return Err(self.error("bad number"));
        }
        let mut integral = true;
        if self.peek() == Some(b'.') {
            integral = false;
            self.pos += 1;
            if !digits(self) {
                return Err(self.error("bad number"));
            }
        }
        if matches!(self.peek(), Some(b'e') | Some(b'E')) {
            integral = false;
            self.pos += 1;
            if matches!(self.peek(), Some(b'+') | Some(b'-')) {
                self.pos += 1;
            }
            if !digits(self) {
                return Err(self.error("bad number"));
            }
        }
        let literal = std::str::from_utf8(&self.bytes[start..self.pos]).unwrap();
        if integral {
            if let Ok(value) = literal.parse::<i64>() {
                return Ok(Json::Int(value));
            }
            // Too big for 64 bits: a double, as close as it gets.
        }
        literal
            .parse::<f64>()
            .map(Json::Float)
            .map_err(|_| self.error("bad number"))
    }
}

/// Writes one line to stderr (the arena keeps the first 64 KiB of a match's stderr).
pub fn log(line: &str) {
    let _ = writeln!(io::stderr(), "{}", line);
}

/// One match's player. `act` must return one element of `legal_actions` (clone it).
pub trait Bot {
    fn start(&mut self, _info: &Json) {}
    fn act(&mut self, observation: &Json, legal_actions: &[Json]) -> Json;
    fn end(&mut self, _result: &Json) {}
}

/// A small seeded random number generator (xorshift64*): no crates in the sandbox.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

fn say(line: &str) {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let _ = out.write_all(line.as_bytes());
    let _ = out.write_all(b"\n");
    let _ = out.flush();
}

/// Writes {"match": ..., "error": ...} and ends the process with status 1.
fn fail(match_value: &Json, reason: &str) -> ! {
    let mut message = Vec::new();
    if !match_value.is_null() {
        message.push(("match".to_string(), match_value.clone()));
    }
    let short: String = reason.chars().take(500).collect();
    message.push(("error".to_string(), Json::Str(short)));
    say(&Json::Object(message).dump());
    log(&format!("error: {}", reason));
    std::process::exit(1);
}

/// Answers the arena until its input closes. `new_bot` makes the player of one match:
/// several matches may interleave in one process, each keyed by its "match" value.
pub fn run<B: Bot, F: Fn() -> B>(new_bot: F) {
    let mut playing: HashMap<String, B> = HashMap::new();
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut line = String::new();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) => return,
            Ok(_) => {}
            Err(_) => fail(&Json::Null, "the referee sent a line that is not UTF-8"),
        }
        if line.trim().is_empty() {
            continue;
        }
        let message = match Json::parse(line.trim_end()) {
            Ok(message @ Json::Object(_)) => message,
            Ok(_) => fail(
                &Json::Null,
                "the referee sent a line that is not a JSON object",
            ),
            Err(_) => fail(&Json::Null, "the referee sent a line that is not JSON"),
        };
        let match_value = message.get("match");
        let key = match_value.dump();
        match message.get("type").as_str() {
            Some("act") => {
                let bot = playing.entry(key).or_insert_with(&new_bot);
                let action = bot.act(
                    message.get("observation"),
                    message.get("legal_actions").as_array(),
                );
                let mut reply = Vec::new();
                if !match_value.is_null() {
                    reply.push(("match".to_string(), match_value.clone()));
                }
                reply.push(("action".to_string(), action));
                say(&Json::Object(reply).dump());
            }
            Some("start") => {
                let mut bot = new_bot();
                bot.start(&message);
                playing.insert(key, bot);
            }
            Some("end") => {
                let mut bot = playing.remove(&key).unwrap_or_else(&new_bot);
                bot.end(message.get("result"));
                if match_value.is_null() {
                    return;
                }
            }
            _ => {}
        }
    }
}
