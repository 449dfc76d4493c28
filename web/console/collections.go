package console

import (
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// remainingText is the "... 3 more items" entry.
func remainingText(n int64) string {
	s := "... " + strconv.FormatInt(n, 10) + " more item"
	if n > 1 {
		s += "s"
	}
	return s
}

// formatArray is Node's formatArray and formatSpecialArray: items, holes as
// "<n empty items>", at most maxArrayLength entries.
func (in *inspector) formatArray(o *goja.Object, length int64, recurse int) ([]string, []descriptor) {
	max := int64(in.maxArray)
	if max > length {
		max = length
	}
	var output []string
	index := int64(0)
	// Dense items are looked up one by one (the cost is what is shown);
	// from the first hole on, the own index keys say what is there.
	var items []descriptor
	if arr, ok := in.callp(in.p.items, o, in.p.rt.ToValue(max)).(*goja.Object); ok {
		items = readDescs(arr, nil)
		for _, d := range items {
			output = append(output, in.formatProperty(o, nil, d, recurse, kArrayType))
			index++
		}
	}
	if index < max {
		for _, k := range in.indexKeys(o) {
			if int64(k) < index {
				continue
			}
			if int64(len(output)) >= max || int64(k) >= length {
				break
			}
			if int64(k) > index {
				output = append(output, emptyItems(int64(k)-index))
				index = int64(k)
				if int64(len(output)) == max {
					break
				}
			}
			key := in.p.rt.ToValue(strconv.FormatUint(k, 10))
			output = append(output, in.formatProperty(o, key, in.descOf(o, key), recurse, kArrayType))
			index++
		}
	}
	remaining := length - index
	if int64(len(output)) != max {
		if remaining > 0 {
			output = append(output, emptyItems(remaining))
		}
	} else if remaining > 0 {
		output = append(output, remainingText(remaining))
	}
	return output, items
}

// numericItems reports whether o's items 0 to n-1 are all numbers or
// BigInts (own data properties); items are the descriptors formatArray
// read already.
func (in *inspector) numericItems(o *goja.Object, items []descriptor, n int) bool {
	for i, d := range items {
		if i >= n {
			return true
		}
		if d.value == nil || !isNumeric(d.value) {
			return false
		}
	}
	if n <= len(items) {
		return true
	}
	return in.callp(in.p.numeric, o, in.p.rt.ToValue(len(items)), in.p.rt.ToValue(n)).ToBoolean()
}

func emptyItems(n int64) string {
	s := "<" + strconv.FormatInt(n, 10) + " empty item"
	if n > 1 {
		s += "s"
	}
	return s + ">"
}

// formatTypedArray is Node's formatTypedArray.
func (in *inspector) formatTypedArray(o *goja.Object, length int64, recurse int) []string {
	max := int64(in.maxArray)
	if max > length {
		max = length
	}
	output := make([]string, 0, max+1)
	for i := int64(0); i < max; i++ {
		output = append(output, in.formatNumber(o.Get(strconv.FormatInt(i, 10))))
	}
	if length > max {
		output = append(output, remainingText(length-max))
	}
	if in.o.ShowHidden {
		info := in.callp(in.p.info, in.p.rt.ToValue("TypedArray"), o).ToObject(in.p.rt)
		in.indent += 2
		for i, key := range []string{"BYTES_PER_ELEMENT", "length", "byteLength", "byteOffset", "buffer"} {
			output = append(output, "["+key+"]: "+in.formatValue(info.Get(strconv.Itoa(i+2)), recurse, true))
		}
		in.indent -= 2
	}
	return output
}

// formatCollection is Node's formatSet and formatMap.
func (in *inspector) formatCollection(o *goja.Object, kind string, size int64, recurse int) []string {
	max := int64(in.maxArray)
	if max > size {
		max = size
	}
	var output []string
	in.indent += 2
	maxV := in.p.rt.ToValue(max)
	if kind == "Map" {
		if arr, ok := in.callp(in.p.mapEntries, o, maxV).(*goja.Object); ok {
			for i, n := 0, int(arr.Get("length").ToInteger()); i+1 < n; i += 2 {
				output = append(output, in.formatValue(arr.Get(itoa(i)), recurse, false)+" => "+in.formatValue(arr.Get(itoa(i+1)), recurse, false))
			}
		}
	} else if arr, ok := in.callp(in.p.setValues, o, maxV).(*goja.Object); ok {
		for i, n := 0, int(arr.Get("length").ToInteger()); i < n; i++ {
			output = append(output, in.formatValue(arr.Get(itoa(i)), recurse, false))
		}
	}
	if size > max {
		output = append(output, remainingText(size-max))
	}
	in.indent -= 2
	return output
}

// formatArrayBuffer is Node's formatArrayBuffer: the bytes in hex.
func (in *inspector) formatArrayBuffer(o *goja.Object) []string {
	ab, ok := o.Export().(goja.ArrayBuffer)
	if !ok || ab.Detached() {
		return []string{"(detached)"}
	}
	b := ab.Bytes()
	n := len(b)
	if n > in.maxArray {
		n = in.maxArray
	}
	var sb strings.Builder
	h := hex.EncodeToString(b[:n])
	for i := 0; i < len(h); i += 2 {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(h[i : i+2])
	}
	if rem := len(b) - in.maxArray; rem > 0 {
		sb.WriteString(" ... " + strconv.Itoa(rem) + " more byte")
		if rem > 1 {
			sb.WriteByte('s')
		}
	}
	return []string{"[Uint8Contents]: <" + sb.String() + ">"}
}

// formatPromise is Node's formatPromise: <pending>, the value, or
// <rejected> and the reason.
func (in *inspector) formatPromise(o *goja.Object, recurse int) []string {
	pr, ok := o.Export().(*goja.Promise)
	if !ok || pr.State() == goja.PromiseStatePending {
		return []string{"<pending>"}
	}
	in.indent += 2
	s := in.formatValue(pr.Result(), recurse, false)
	in.indent -= 2
	if pr.State() == goja.PromiseStateRejected {
		s = "<rejected> " + s
	}
	return []string{s}
}
