package encoding

import (
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
)

// NotSupportedError is what Lookup and NewDecoder return for a label that
// names no encoding, or one that TextDecoder refuses (replacement,
// x-user-defined). Its message is Node's ERR_ENCODING_NOT_SUPPORTED text.
type NotSupportedError struct{ Label string }

func (e *NotSupportedError) Error() string {
	return `The "` + e.Label + `" encoding is not supported`
}

// Lookup returns the WHATWG name of the encoding label names ("utf-8",
// "windows-1252", "shift_jis", ...): label is matched case-insensitively
// after trimming ASCII whitespace, against the Encoding standard's label
// table. It fails with *NotSupportedError.
func Lookup(label string) (string, error) {
	l := strings.ToLower(strings.Trim(label, "\t\n\f\r "))
	switch l {
	case "utf-16be", "unicodefffe":
		return "utf-16be", nil
	case "utf-16", "utf-16le", "csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff":
		return "utf-16le", nil
	}
	e, err := htmlindex.Get(l)
	if err != nil {
		return "", &NotSupportedError{Label: label}
	}
	if e == encoding.Replacement {
		return "", &NotSupportedError{Label: "replacement"}
	}
	name, err := htmlindex.Name(e)
	if err != nil || name == "x-user-defined" || name == "replacement" {
		return "", &NotSupportedError{Label: label}
	}
	return name, nil
}
