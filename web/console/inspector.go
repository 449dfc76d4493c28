package console

import "github.com/dop251/goja"

// An Inspector formats the values of one runtime: Inspect and Format make
// one per call, which a realm that formats often (util.inspect,
// util.format, its console) can spare by making one up front, before user
// code runs (the intrinsics it reads objects through are captured then).
// An Inspector is used on its runtime's goroutine only.
type Inspector struct{ p *probe }

// NewInspector makes rt's Inspector.
func NewInspector(rt *goja.Runtime) (*Inspector, error) {
	p, err := newProbe(rt)
	if err != nil {
		return nil, err
	}
	return &Inspector{p: p}, nil
}

// Inspect is the package's Inspect with this Inspector's runtime.
func (i *Inspector) Inspect(v goja.Value, opts InspectOptions) string { return i.p.inspect(v, opts) }

// Format is util.formatWithOptions(opts, ...args): the package's Format
// with inspect options (Format uses DefaultInspectOptions).
func (i *Inspector) Format(args []goja.Value, opts InspectOptions) string {
	return i.p.format(args, opts)
}
