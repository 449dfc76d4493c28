package console

import (
	"math"
	"strings"

	"github.com/dop251/goja"
)

// table is console.table(data, properties): Node's box-drawn table of an
// object's or array's rows (a Map's keys and values, a Set's values); data
// that is not an object is logged as it is.
func (c *console) table(args []goja.Value) {
	c.observe("table", args)
	data := goja.Undefined()
	if len(args) > 0 {
		data = args[0]
	}
	obj, ok := data.(*goja.Object)
	if !ok {
		c.print(LevelLog, c.probe().format([]goja.Value{data}, DefaultInspectOptions()))
		return
	}
	var props []string
	hasProps := false
	if len(args) > 1 {
		if pa, ok := args[1].(*goja.Object); ok && pa.ClassName() == "Array" {
			hasProps = true
			for i, n := 0, int(pa.Get("length").ToInteger()); i < n; i++ {
				props = append(props, pa.Get(itoa(i)).String())
			}
		}
	}
	in := newInspector(c.probe(), DefaultInspectOptions())
	target := obj
	if t, px := isProxy(obj); px && t != nil {
		target = t
	}
	cell := func(v goja.Value) string {
		o := DefaultInspectOptions()
		o.Depth, o.MaxArrayLength, o.BreakLength = 0, 3, math.MaxInt
		if vo, ok := v.(*goja.Object); ok && c.probe().kindOf(vo) != "Array" && len(in.keys(vo)) > 2 {
			o.Depth = -1 // Node's depth -1: only the top level
		}
		return c.probe().inspect(v, o)
	}
	index := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = itoa(i)
		}
		return out
	}
	switch kind := c.probe().kindOf(target); kind {
	case "Map":
		arr, _ := in.callp(c.probe().mapEntries, target, c.rt.ToValue(math.MaxInt32)).(*goja.Object)
		var keys, values []string
		if arr != nil {
			for i, n := 0, int(arr.Get("length").ToInteger()); i+1 < n; i += 2 {
				keys = append(keys, cell(arr.Get(itoa(i))))
				values = append(values, cell(arr.Get(itoa(i+1))))
			}
		}
		c.print(LevelLog, renderTable([]string{"(iteration index)", "Key", "Values"}, [][]string{index(len(keys)), keys, values}, nil))
		return
	case "Set":
		arr, _ := in.callp(c.probe().setValues, target, c.rt.ToValue(math.MaxInt32)).(*goja.Object)
		var values []string
		if arr != nil {
			for i, n := 0, int(arr.Get("length").ToInteger()); i < n; i++ {
				values = append(values, cell(arr.Get(itoa(i))))
			}
		}
		c.print(LevelLog, renderTable([]string{"(iteration index)", "Values"}, [][]string{index(len(values)), values}, nil))
		return
	}
	// Rows: the object's own enumerable string keys; columns: the rows'
	// keys (or properties), in first-seen order, then Values for primitives.
	rowKeys := c.stringKeys(in, target)
	var colNames []string
	cols := map[string]map[int]string{}
	values := map[int]string{}
	hasPrimitives := false
	for i, rk := range rowKeys {
		item := in.dataOf(target, c.rt.ToValue(rk))
		io, isObj := item.(*goja.Object)
		if !hasProps && !isObj {
			hasPrimitives = true
			values[i] = cell(item)
			continue
		}
		keys := props
		if !hasProps {
			keys = c.stringKeys(in, io)
		}
		for _, k := range keys {
			col, ok := cols[k]
			if !ok {
				col = map[int]string{}
				cols[k] = col
				colNames = append(colNames, k)
			}
			if !isObj {
				col[i] = ""
				continue
			}
			it := io
			if t, px := isProxy(io); px && t != nil {
				it = t
			}
			if d := in.descOf(it, c.rt.ToValue(k)); d.ok {
				col[i] = cell(in.dataOf(it, c.rt.ToValue(k)))
			} else {
				col[i] = ""
			}
		}
	}
	head := append([]string{"(index)"}, colNames...)
	columns := [][]string{rowKeys}
	present := []map[int]bool{nil}
	for _, name := range colNames {
		col, has := make([]string, len(rowKeys)), map[int]bool{}
		for i, s := range cols[name] {
			col[i], has[i] = s, true
		}
		columns, present = append(columns, col), append(present, has)
	}
	if hasPrimitives {
		col, has := make([]string, len(rowKeys)), map[int]bool{}
		for i, s := range values {
			col[i], has[i] = s, true
		}
		head, columns, present = append(head, "Values"), append(columns, col), append(present, has)
	}
	c.print(LevelLog, renderTable(head, columns, present))
}

// stringKeys is o's own enumerable string keys (Object.keys).
func (c *console) stringKeys(in *inspector, o *goja.Object) []string {
	if t, px := isProxy(o); px {
		if t == nil {
			return nil
		}
		o = t
	}
	saved := in.o.ShowHidden
	in.o.ShowHidden = false
	defer func() { in.o.ShowHidden = saved }()
	var out []string
	for _, k := range in.keys(o) {
		if _, sym := k.(*goja.Symbol); !sym {
			out = append(out, k.String())
		}
	}
	return out
}

// renderTable is Node's cli_table: columns of left-aligned cells under
// their heads (Node v20.20; earlier releases centred them), in a box of light box-drawing characters. present[i], if not nil,
// says which rows of column i have a cell (the others print empty).
func renderTable(head []string, columns [][]string, present []map[int]bool) string {
	widths := make([]int, len(head))
	for i, h := range head {
		widths[i] = stringWidth(h)
	}
	longest := 0
	for _, col := range columns {
		longest = max(longest, len(col))
	}
	rows := make([][]string, longest)
	for j := range rows {
		rows[j] = make([]string, len(head))
	}
	for i := range head {
		for j := 0; j < longest; j++ {
			v := ""
			if j < len(columns[i]) && (present == nil || present[i] == nil || present[i][j]) {
				v = columns[i][j]
			}
			rows[j][i] = v
			widths[i] = max(widths[i], stringWidth(v))
		}
	}
	divider := make([]string, len(widths))
	for i, w := range widths {
		divider[i] = strings.Repeat("─", w+2)
	}
	renderRow := func(row []string) string {
		var sb strings.Builder
		sb.WriteString("│ ")
		for i, cell := range row {
			sb.WriteString(cell + spaces(widths[i]-stringWidth(cell)))
			if i != len(row)-1 {
				sb.WriteString(" │ ")
			}
		}
		sb.WriteString(" │")
		return sb.String()
	}
	var sb strings.Builder
	sb.WriteString("┌" + strings.Join(divider, "┬") + "┐\n")
	sb.WriteString(renderRow(head) + "\n")
	sb.WriteString("├" + strings.Join(divider, "┼") + "┤\n")
	for _, r := range rows {
		sb.WriteString(renderRow(r) + "\n")
	}
	sb.WriteString("└" + strings.Join(divider, "┴") + "┘")
	return sb.String()
}
