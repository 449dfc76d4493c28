package console_test

import (
	"fmt"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/web/console"
)

func ExampleInspect() {
	rt := goja.New()
	v, _ := rt.RunString(`const o = { a: 1, list: [1, , 3], m: new Map([["k", { deep: { er: {} } }]]) }; o.self = o; o`)
	fmt.Println(console.Inspect(rt, v, console.DefaultInspectOptions()))
	// Output:
	// <ref *1> {
	//   a: 1,
	//   list: [ 1, <1 empty item>, 3 ],
	//   m: Map(1) { 'k' => { deep: [Object] } },
	//   self: [Circular *1]
	// }
}

func ExampleInstall() {
	rt := goja.New()
	_ = console.Install(rt, rt.GlobalObject(), console.Config{
		Write: func(level console.Level, text string) { fmt.Printf("[%s] %s\n", level, text) },
	})
	_, _ = rt.RunString(`
		console.log("%s has %d items", "cart", 2, [{ id: 1 }, { id: 2 }]);
		console.group("group");
		console.warn(new Set(["a"]));
		console.groupEnd();
		console.count(); console.count();
	`)
	// Output:
	// [log] cart has 2 items [ { id: 1 }, { id: 2 } ]
	// [log] group
	// [warn]   Set(1) { 'a' }
	// [log] default: 1
	// [log] default: 2
}
