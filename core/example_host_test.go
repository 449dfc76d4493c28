package core_test

import (
	"fmt"
	"os"
	"time"

	"github.com/jsworker/jsworker/core"
)

// A host realm runs the host's own scripts; its timers fire when the host
// runs its loop.
func ExampleOpenHostRealm() {
	h, err := core.OpenHostRealm(core.HostRealmOptions{Stdout: os.Stdout})
	if err != nil {
		panic(err)
	}
	defer h.Close()
	v, err := h.RunScript("app.js", `
		setTimeout(function () { console.log("timer fired"); }, 10);
		setImmediate(function () { console.log("immediate"); });
		6 * 7`)
	if err != nil {
		panic(err)
	}
	fmt.Println("script returned", v)
	for h.RunPending(time.Second) {
	}
	fmt.Println("alive:", h.Alive())
	// Output:
	// script returned 42
	// immediate
	// timer fired
	// alive: false
}
