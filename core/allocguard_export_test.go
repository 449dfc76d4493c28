package core

import "github.com/dop251/goja"

// InstallEagerAllocGuard installs the JavaScript guard the library falls back to when goja's templates cannot be
// read (allocguard.go), for tests of that path.
func InstallEagerAllocGuard(rt *goja.Runtime) error { return installEagerAllocGuard(rt) }
