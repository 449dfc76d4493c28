package console

import (
	"math"
	"strings"

	"github.com/dop251/goja"
)

// reduceToSingleString is Node's reduceToSingleString: the entries on one
// line when the compact rules allow and they fit breakLength, else one
// entry per line (or, for arrays, grouped in columns).
func (in *inspector) reduceToSingleString(output []string, base string, braces [2]string, extras, recurse int, numeric func(n int) bool) string {
	withBase := ""
	if base != "" {
		withBase = base + " "
	}
	if in.o.Compact != CompactTrue {
		if in.o.Compact >= 1 {
			entries := len(output)
			if extras == kArrayExtrasType && entries > 6 {
				output = in.groupArrayElements(output, numeric)
			}
			if in.currentDepth-recurse < in.o.Compact && entries == len(output) {
				start := len(output) + in.indent + jsLen(braces[0]) + jsLen(base) + 10
				if in.isBelowBreakLength(output, start, base) {
					joined := strings.Join(output, ", ")
					if !strings.Contains(joined, "\n") {
						return withBase + braces[0] + " " + joined + " " + braces[1]
					}
				}
			}
		}
		ind := "\n" + spaces(in.indent)
		return withBase + braces[0] + ind + "  " + strings.Join(output, ","+ind+"  ") + ind + braces[1]
	}
	if in.isBelowBreakLength(output, 0, base) {
		b := ""
		if base != "" {
			b = " " + base
		}
		return braces[0] + b + " " + strings.Join(output, ", ") + " " + braces[1]
	}
	ind := spaces(in.indent)
	ln := " "
	if base != "" || jsLen(braces[0]) != 1 {
		ln = "\n" + ind + "  "
		if base != "" {
			ln = " " + base + ln
		}
	}
	return braces[0] + ln + strings.Join(output, ",\n"+ind+"  ") + " " + braces[1]
}

// isBelowBreakLength reports whether output, joined with ", " after start
// columns, fits breakLength, and base has no newline.
func (in *inspector) isBelowBreakLength(output []string, start int, base string) bool {
	total := len(output) + start
	if total+len(output) > in.o.BreakLength {
		return false
	}
	for _, s := range output {
		total += jsLen(s)
		if total > in.o.BreakLength {
			return false
		}
	}
	return base == "" || !strings.Contains(base, "\n")
}

// groupArrayElements is Node's groupArrayElements: many short array items
// laid out in aligned columns (numbers right-aligned).
func (in *inspector) groupArrayElements(output []string, numeric func(n int) bool) []string {
	totalLength, maxLength := 0, 0
	outputLength := len(output)
	if in.maxArray < len(output) {
		outputLength--
	}
	const separatorSpace = 2
	dataLen := make([]int, outputLength)
	for i := 0; i < outputLength; i++ {
		l := stringWidth(output[i])
		dataLen[i] = l
		totalLength += l + separatorSpace
		if maxLength < l {
			maxLength = l
		}
	}
	actualMax := maxLength + separatorSpace
	if actualMax*3+in.indent < in.o.BreakLength &&
		(float64(totalLength)/float64(actualMax) > 5 || maxLength <= 6) {
		averageBias := math.Sqrt(float64(actualMax) - float64(totalLength)/float64(len(output)))
		biasedMax := math.Max(float64(actualMax)-3-averageBias, 1)
		columns := min(
			int(math.Round(math.Sqrt(2.5*biasedMax*float64(outputLength))/biasedMax)),
			(in.o.BreakLength-in.indent)/actualMax,
			in.o.Compact*4,
			15,
		)
		if columns <= 1 {
			return output
		}
		var maxLineLength []int
		for i := 0; i < columns; i++ {
			lineLength := 0
			for j := i; j < len(output); j += columns {
				if j < outputLength && dataLen[j] > lineLength {
					lineLength = dataLen[j]
				}
			}
			maxLineLength = append(maxLineLength, lineLength+separatorSpace)
		}
		padStart := numeric != nil && numeric(len(output))
		var tmp []string
		for i := 0; i < outputLength; i += columns {
			max := min(i+columns, outputLength)
			var sb strings.Builder
			j := i
			for ; j < max-1; j++ {
				padding := maxLineLength[j-i] + jsLen(output[j]) - dataLen[j]
				sb.WriteString(pad(output[j]+", ", padding, padStart))
			}
			if padStart {
				padding := maxLineLength[j-i] + jsLen(output[j]) - dataLen[j] - separatorSpace
				sb.WriteString(pad(output[j], padding, true))
			} else {
				sb.WriteString(output[j])
			}
			tmp = append(tmp, sb.String())
		}
		if in.maxArray < len(output) {
			tmp = append(tmp, output[outputLength])
		}
		output = tmp
	}
	return output
}

// isNumeric reports whether v is a number or a BigInt primitive.
func isNumeric(v goja.Value) bool {
	if _, obj := v.(*goja.Object); obj {
		return false
	}
	if _, str := v.(goja.String); str {
		return false
	}
	switch v.Export().(type) {
	case int64, float64:
		return true
	}
	return v.ExportType() == typeBigInt
}

// pad pads s with spaces to n UTF-16 units, at the start or the end.
func pad(s string, n int, start bool) string {
	l := jsLen(s)
	if l >= n {
		return s
	}
	if start {
		return spaces(n-l) + s
	}
	return s + spaces(n-l)
}
