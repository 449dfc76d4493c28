//! Error: a JavaScript exception or a library failure.
use std::fmt;

/// What went wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// A JavaScript exception: thrown by a script, or by the library in JavaScript's terms (`DataCloneError`,
    /// `RangeError` for a queue limit, `InvalidStateError` for a closed worker, `SyntaxError`, `TypeError` for a
    /// refused handle).
    Exception,
    /// The library refused or failed a call that has no exception to report (a released session, a worker that
    /// could not start a session, an inspector callback re-entered).
    Library,
}

/// A JavaScript exception (`name`, `message`, `stack`) or a library failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    /// The exception's `name` (`"TypeError"`, `"DataCloneError"`, ...); `"Error"` for library failures.
    pub name: String,
    pub message: String,
    /// The exception's `stack`, when it has one.
    pub stack: Option<String>,
}

impl Error {
    pub(crate) fn library(message: impl Into<String>) -> Error {
        Error { kind: ErrorKind::Library, name: "Error".into(), message: message.into(), stack: None }
    }
}

impl fmt::Display for Error {
    /// `name: message`, as JavaScript's `String(error)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.name.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.name, self.message)
        }
    }
}

impl std::error::Error for Error {}

/// `std::result::Result` with jsworker's Error.
pub type Result<T> = std::result::Result<T, Error>;
