package modules

import (
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A segment maps one generated column to an original position: the
// decoded form of one source-map segment that has a source.
type segment struct {
	genCol, line, col int // generated column (bytes; esbuild's output is ASCII); original line and UTF-16 column, 0-based
}

// A posMap answers where a position of esbuild's output came from. lines
// holds, per generated line, its segments in column order.
type posMap struct {
	lines [][]segment
}

// errBadMap reports a source map esbuild produced but this decoder cannot
// read; it would be a bug, and the module fails to load rather than show
// wrong positions.
var errBadMap = errors.New("modules: malformed source map from esbuild")

// decodeMap reads the "mappings" of a version 3 source map (the only one,
// with a single source, esbuild emits for a transform).
func decodeMap(raw []byte) (*posMap, error) {
	var sm struct {
		Version  int    `json:"version"`
		Mappings string `json:"mappings"`
	}
	if err := json.Unmarshal(raw, &sm); err != nil || sm.Version != 3 {
		return nil, errBadMap
	}
	m := &posMap{}
	var srcIdx, line, col int // running values across the whole map
	for _, text := range strings.Split(sm.Mappings, ";") {
		var segs []segment
		genCol := 0
		for text != "" {
			var f [5]int
			n := 0
			for text != "" && text[0] != ',' {
				v, rest, ok := vlq(text)
				if !ok || n == 5 {
					return nil, errBadMap
				}
				f[n], text, n = v, rest, n+1
			}
			if text != "" {
				text = text[1:] // the ','
			}
			if n == 0 {
				continue
			}
			genCol += f[0]
			if n >= 4 {
				srcIdx += f[1]
				line += f[2]
				col += f[3]
				if srcIdx == 0 {
					segs = append(segs, segment{genCol: genCol, line: line, col: col})
				}
			}
		}
		sort.SliceStable(segs, func(i, j int) bool { return segs[i].genCol < segs[j].genCol })
		m.lines = append(m.lines, segs)
	}
	return m, nil
}

const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// vlq decodes one base64 VLQ value from the front of s.
func vlq(s string) (v int, rest string, ok bool) {
	shift, acc := 0, 0
	for i := 0; i < len(s); i++ {
		d := strings.IndexByte(b64, s[i])
		if d < 0 || shift > 30 {
			return 0, s, false
		}
		acc |= (d & 31) << shift
		shift += 5
		if d&32 == 0 {
			if acc&1 != 0 {
				return -(acc >> 1), s[i+1:], true
			}
			return acc >> 1, s[i+1:], true
		}
	}
	return 0, s, false
}

// exact returns the original position of generated (line, col), both
// 0-based: the segment of that line at or before col. ok is false when the
// line has none there — code esbuild generated (its helpers).
func (m *posMap) exact(line, col int) (segment, bool) {
	if line < 0 || line >= len(m.lines) {
		return segment{}, false
	}
	segs := m.lines[line]
	i := sort.Search(len(segs), func(i int) bool { return segs[i].genCol > col }) - 1
	if i < 0 {
		return segment{}, false
	}
	return segs[i], true
}

// nearest is exact, falling back to the last segment of an earlier line.
func (m *posMap) nearest(line, col int) (segment, bool) {
	if s, ok := m.exact(line, col); ok {
		return s, true
	}
	for l := min(line, len(m.lines)) - 1; l >= 0; l-- {
		if n := len(m.lines[l]); n > 0 {
			return m.lines[l][n-1], true
		}
	}
	return segment{}, false
}

// lineIndex converts positions of one text between byte offsets and
// (line, column) pairs.
type lineIndex struct {
	src    string
	starts []int // byte offset of each line's start
	ascii  bool
}

func newLineIndex(src string) *lineIndex {
	li := &lineIndex{src: src, starts: []int{0}, ascii: true}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\n':
			li.starts = append(li.starts, i+1)
		case c >= utf8.RuneSelf:
			li.ascii = false
		}
	}
	return li
}

// position returns the 0-based line and byte column of offset.
func (li *lineIndex) position(offset int) (line, col int) {
	line = sort.Search(len(li.starts), func(i int) bool { return li.starts[i] > offset }) - 1
	line = max(line, 0)
	return line, offset - li.starts[line]
}

// offset returns the byte offset of 0-based line and UTF-16 column u16,
// clamped to the text.
func (li *lineIndex) offset(line, u16 int) int {
	if line >= len(li.starts) {
		return len(li.src)
	}
	start := li.starts[max(line, 0)]
	end := len(li.src)
	if line+1 < len(li.starts) {
		end = li.starts[line+1]
	}
	if li.ascii {
		return min(start+u16, end)
	}
	for i, r := range li.src[start:end] {
		n := utf16.RuneLen(r)
		if n < 0 { // an invalid byte counts as one unit
			n = 1
		}
		if u16 < n {
			return start + i
		}
		u16 -= n
	}
	return end
}
