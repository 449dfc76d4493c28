//! JSStringRef ownership and UTF-16 conversions.
use jsworker_sys as sys;

/// An owned JSStringRef (released on drop).
pub(crate) struct JSString(pub(crate) sys::JSStringRef);

impl JSString {
    /// A new string holding s exactly.
    pub(crate) fn new(s: &str) -> JSString {
        let units: Vec<u16> = s.encode_utf16().collect();
        JSString(unsafe { sys::JSStringCreateWithCharacters(units.as_ptr(), units.len()) })
    }

    /// Takes over a reference the caller owns (a Create or Copy result); NULL gives None.
    pub(crate) fn adopt(s: sys::JSStringRef) -> Option<JSString> {
        if s.is_null() {
            None
        } else {
            Some(JSString(s))
        }
    }

    /// The string as Rust UTF-8 (lone surrogates become U+FFFD).
    pub(crate) fn to_string_lossy(&self) -> String {
        unsafe {
            let n = sys::JSStringGetLength(self.0);
            let p = sys::JSStringGetCharactersPtr(self.0);
            if n == 0 || p.is_null() {
                return String::new();
            }
            String::from_utf16_lossy(std::slice::from_raw_parts(p, n))
        }
    }
}

impl Drop for JSString {
    fn drop(&mut self) {
        unsafe { sys::JSStringRelease(self.0) }
    }
}
