package node

import (
	_ "embed"
	"errors"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/jsutil"
)

//go:embed lib/fs.js
var fsJS string

// fsSource is the fs and fs/promises modules over the real file system. Every operation is one Go function
// (fsOps) that fs.js calls in three forms: synchronously (fooSync, on the worker's thread), or on a goroutine whose
// result comes back to the worker's loop (the callback and promise forms; a pending operation keeps the loop
// alive).
var fsSource = jsutil.NewSource("node:fs", fsJS)

// An fsOp is one prepared file system operation: run does the I/O (on any goroutine; it must not touch the
// runtime), done turns its result into a JavaScript value (on the worker's thread).
type fsOp struct {
	run  func() (any, error)
	done func(rt *goja.Runtime, v any) goja.Value
}

// fsError carries the operation's syscall name and paths for Node's error message.
type fsError struct {
	syscall, path, dest string
	err                 error
	code, message       string // Node's own code and full message, for errors that are not an errno
}

func (e *fsError) Error() string { return e.err.Error() }

// files are the open file descriptors of the process (fds are process-wide, as in Node): fs.openSync's number
// is the OS descriptor.
var files = struct {
	sync.Mutex
	m map[int]*os.File
}{m: map[int]*os.File{}}

func fileOf(fd int) (*os.File, bool) {
	files.Lock()
	defer files.Unlock()
	f, ok := files.m[fd]
	return f, ok
}

// fsNatives are fs.js's natives: sync(op, args) returns the result or throws; async(op, args, cb) calls
// cb(err, result) from the loop once the operation ends on its goroutine.
func fsNatives(n *nodeState, def func(string, int, func(goja.FunctionCall) goja.Value)) {
	r, rt := n.r, n.r.Runtime()
	prepare := func(c goja.FunctionCall) fsOp {
		name := c.Argument(0).String()
		mk, ok := fsOps[name]
		if !ok {
			panic(r.NewError("Error", "", "jsworker: fs operation "+name+" is not supported"))
		}
		var args []goja.Value
		if o, ok := c.Argument(1).(*goja.Object); ok {
			_ = rt.ExportTo(o, &args)
		}
		for len(args) < 6 {
			args = append(args, goja.Undefined())
		}
		return mk(n, args)
	}
	def("sync", 2, func(c goja.FunctionCall) goja.Value {
		op := prepare(c)
		v, err := op.run()
		if err != nil {
			panic(n.fsErrorValue(err))
		}
		return op.done(rt, v)
	})
	def("async", 3, func(c goja.FunctionCall) goja.Value {
		op := prepare(c)
		cb, ok := goja.AssertFunction(c.Argument(2))
		if !ok {
			panic(r.NewError("TypeError", "", "fs: the callback must be a function"))
		}
		r.AddRef(1)
		go func() {
			v, err := op.run()
			r.RunOnLoop(func(rt *goja.Runtime) {
				r.AddRef(-1)
				var res goja.Value
				var errv goja.Value = goja.Null()
				if err != nil {
					errv = n.fsErrorValue(err)
					res = goja.Undefined()
				} else {
					res = op.done(rt, v)
				}
				if _, err := cb(goja.Undefined(), errv, res); err != nil {
					r.Report(err)
				}
			})
		}()
		return goja.Undefined()
	})
}

// errnoNames are the libuv names and messages Node gives the errors file operations meet.
var errnoNames = map[syscall.Errno][2]string{
	syscall.ENOENT: {"ENOENT", "no such file or directory"}, syscall.EEXIST: {"EEXIST", "file already exists"},
	syscall.EACCES: {"EACCES", "permission denied"}, syscall.ENOTDIR: {"ENOTDIR", "not a directory"},
	syscall.EISDIR: {"EISDIR", "illegal operation on a directory"}, syscall.ENOTEMPTY: {"ENOTEMPTY", "directory not empty"},
	syscall.EBADF: {"EBADF", "bad file descriptor"}, syscall.EINVAL: {"EINVAL", "invalid argument"},
	syscall.EPERM: {"EPERM", "operation not permitted"}, syscall.EMFILE: {"EMFILE", "too many open files"},
	syscall.ELOOP: {"ELOOP", "too many symbolic links encountered"}, syscall.EXDEV: {"EXDEV", "cross-device link not permitted"},
	syscall.ENAMETOOLONG: {"ENAMETOOLONG", "name too long"}, syscall.ENOSPC: {"ENOSPC", "no space left on device"},
	syscall.EROFS: {"EROFS", "read-only file system"}, syscall.EBUSY: {"EBUSY", "resource busy or locked"},
	syscall.EFBIG: {"EFBIG", "file too large"}, syscall.EIO: {"EIO", "i/o error"},
}

// fsErrorValue makes Node's error for a failed operation: "ENOENT: no such file or directory, open '/x'" with
// errno, code, syscall and path.
func (n *nodeState) fsErrorValue(err error) goja.Value {
	rt := n.r.Runtime()
	var fe *fsError
	if !errors.As(err, &fe) {
		fe = &fsError{err: err}
	}
	var errno syscall.Errno
	code, msg := "EIO", fe.err.Error()
	if errors.As(fe.err, &errno) {
		if nm, ok := errnoNames[errno]; ok {
			code, msg = nm[0], nm[1]
		} else {
			code, msg = "E"+errno.Error(), errno.Error()
		}
	} else if errors.Is(fe.err, iofs.ErrNotExist) {
		errno, code, msg = syscall.ENOENT, "ENOENT", "no such file or directory"
	}
	text := code + ": " + msg
	if fe.code != "" {
		code, text = fe.code, fe.message
	} else if fe.syscall != "" {
		text += ", " + fe.syscall
		if fe.path != "" {
			text += " '" + fe.path + "'"
		}
		if fe.dest != "" {
			text += " -> '" + fe.dest + "'"
		}
	}
	e := n.r.NewError("Error", "", text)
	switch {
	case fe.code != "" && errno != 0:
		_ = e.Set("errno", int(errno)) // Node's own errors carry the positive errno
	case errno != 0:
		_ = e.Set("errno", -int(errno))
	}
	_ = e.Set("code", code)
	if fe.syscall != "" {
		_ = e.Set("syscall", fe.syscall)
	}
	if fe.path != "" {
		_ = e.Set("path", fe.path)
	}
	if fe.dest != "" {
		_ = e.Set("dest", fe.dest)
	}
	return rt.ToValue(e)
}

// wrap returns err as an fsError of syscall on path (and dest), keeping the errno the OS gave.
func wrap(err error, sc, path, dest string) error {
	if err == nil {
		return nil
	}
	var pe *os.PathError
	var le *os.LinkError
	var se *os.SyscallError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	case errors.As(err, &se):
		err = se.Err
	}
	return &fsError{syscall: sc, path: path, dest: dest, err: err}
}

func str(v goja.Value) string {
	if goja.IsUndefined(v) || goja.IsNull(v) {
		return ""
	}
	return v.String()
}

func bytesOf(v goja.Value) []byte {
	b, _ := v.Export().([]byte)
	return b
}

func ident(_ *goja.Runtime, v any) goja.Value { return nil }

// statValue returns [dev, mode, nlink, uid, gid, rdev, blksize, ino, size, blocks, atimeMs, mtimeMs, ctimeMs,
// birthtimeMs], which fs.js makes into a Stats.
func statValue(rt *goja.Runtime, v any) goja.Value {
	fi := v.(iofs.FileInfo)
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		ms := float64(fi.ModTime().UnixNano()) / 1e6
		return rt.NewArray(0, int64(fi.Mode().Perm()), 1, 0, 0, 0, 4096, 0, fi.Size(), 0, ms, ms, ms, ms)
	}
	ts := func(t syscall.Timespec) float64 { return float64(t.Sec)*1e3 + float64(t.Nsec)/1e6 }
	return rt.NewArray(int64(st.Dev), int64(st.Mode), int64(st.Nlink), int64(st.Uid), int64(st.Gid), int64(st.Rdev),
		int64(st.Blksize), int64(st.Ino), st.Size, int64(st.Blocks), ts(st.Atim), ts(st.Mtim), ts(st.Ctim), ts(st.Ctim))
}

func arrayBuffer(rt *goja.Runtime, v any) goja.Value {
	return rt.ToValue(rt.NewArrayBuffer(v.([]byte)))
}
func value(rt *goja.Runtime, v any) goja.Value { return rt.ToValue(v) }

// openFlags maps Node's flag strings to os.OpenFile's.
var openFlags = map[string]int{
	"r": os.O_RDONLY, "rs": os.O_RDONLY | os.O_SYNC, "sr": os.O_RDONLY | os.O_SYNC, "r+": os.O_RDWR,
	"rs+": os.O_RDWR | os.O_SYNC, "sr+": os.O_RDWR | os.O_SYNC,
	"w": os.O_TRUNC | os.O_CREATE | os.O_WRONLY, "wx": os.O_TRUNC | os.O_CREATE | os.O_WRONLY | os.O_EXCL,
	"xw": os.O_TRUNC | os.O_CREATE | os.O_WRONLY | os.O_EXCL, "w+": os.O_TRUNC | os.O_CREATE | os.O_RDWR,
	"wx+": os.O_TRUNC | os.O_CREATE | os.O_RDWR | os.O_EXCL, "xw+": os.O_TRUNC | os.O_CREATE | os.O_RDWR | os.O_EXCL,
	"a": os.O_APPEND | os.O_CREATE | os.O_WRONLY, "ax": os.O_APPEND | os.O_CREATE | os.O_WRONLY | os.O_EXCL,
	"xa": os.O_APPEND | os.O_CREATE | os.O_WRONLY | os.O_EXCL, "as": os.O_APPEND | os.O_CREATE | os.O_WRONLY | os.O_SYNC,
	"sa": os.O_APPEND | os.O_CREATE | os.O_WRONLY | os.O_SYNC, "a+": os.O_APPEND | os.O_CREATE | os.O_RDWR,
	"ax+": os.O_APPEND | os.O_CREATE | os.O_RDWR | os.O_EXCL, "xa+": os.O_APPEND | os.O_CREATE | os.O_RDWR | os.O_EXCL,
	"as+": os.O_APPEND | os.O_CREATE | os.O_RDWR | os.O_SYNC, "sa+": os.O_APPEND | os.O_CREATE | os.O_RDWR | os.O_SYNC,
}

func flagOf(v goja.Value, def string) (int, error) {
	if goja.IsUndefined(v) || goja.IsNull(v) {
		return openFlags[def], nil
	}
	if e := v.Export(); e != nil {
		switch x := e.(type) {
		case int64:
			return int(x), nil
		case float64:
			return int(x), nil
		}
	}
	f, ok := openFlags[v.String()]
	if !ok {
		return 0, &fsError{err: syscall.EINVAL}
	}
	return f, nil
}

func modeOf(v goja.Value, def os.FileMode) os.FileMode {
	if goja.IsUndefined(v) || goja.IsNull(v) {
		return def
	}
	return os.FileMode(v.ToInteger()) & os.ModePerm
}

// openFile opens path and registers its descriptor.
func openFile(path string, flag int, mode os.FileMode) (*os.File, int, error) {
	f, err := os.OpenFile(path, flag, mode)
	if err != nil {
		return nil, 0, wrap(err, "open", path, "")
	}
	fd := int(f.Fd())
	files.Lock()
	files.m[fd] = f
	files.Unlock()
	return f, fd, nil
}

// writerOf returns the file of a descriptor for writing; 1 and 2 are the worker's standard output and error.
func (n *nodeState) writerOf(fd int) (io.Writer, *os.File, error) {
	if f, ok := fileOf(fd); ok {
		return f, f, nil
	}
	o := n.w.Options()
	switch {
	case fd == 1 && o.Stdout != nil:
		return o.Stdout, nil, nil
	case fd == 2 && o.Stderr != nil:
		return o.Stderr, nil, nil
	case fd == 1:
		return os.Stdout, os.Stdout, nil
	case fd == 2:
		return os.Stderr, os.Stderr, nil
	}
	return nil, nil, &fsError{syscall: "write", err: syscall.EBADF}
}

// touch sets a file's access and modification times from seconds.
func touch(path string, atime, mtime float64) error {
	sec := func(s float64) time.Time { return time.Unix(0, int64(s*1e9)) }
	return wrap(os.Chtimes(path, sec(atime), sec(mtime)), "utime", path, "")
}

// mkdirAll is mkdir -p: it returns the first directory it created ("" if none).
func mkdirAll(path string, mode os.FileMode) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	first := ""
	for p := abs; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err == nil {
			if !fi.IsDir() {
				return "", &fsError{syscall: "mkdir", path: path, err: syscall.ENOTDIR}
			}
			break
		}
		first = p
		if filepath.Dir(p) == p {
			break
		}
	}
	if err := os.MkdirAll(abs, mode); err != nil {
		return "", wrap(err, "mkdir", path, "")
	}
	return first, nil
}
