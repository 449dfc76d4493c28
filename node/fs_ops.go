package node

import (
	"errors"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/dop251/goja"
)

// fsOps are the file system operations fs.js calls by name, each preparing an fsOp from its JavaScript arguments
// (on the worker's thread: everything run needs is copied out of the runtime here). Paths arrive as strings and
// data as Uint8Arrays (fs.js converts URLs, Buffers and encodings).
var fsOps = map[string]func(n *nodeState, a []goja.Value) fsOp{
	"open": func(n *nodeState, a []goja.Value) fsOp {
		path, flagv, mode := str(a[0]), a[1], modeOf(a[2], 0o666)
		return fsOp{run: func() (any, error) {
			flag, err := flagOf(flagv, "r")
			if err != nil {
				return nil, wrap(err, "open", path, "")
			}
			_, fd, err := openFile(path, flag, mode)
			return fd, err
		}, done: value}
	},
	"close": func(n *nodeState, a []goja.Value) fsOp {
		fd := int(a[0].ToInteger())
		return fsOp{run: func() (any, error) {
			files.Lock()
			f, ok := files.m[fd]
			delete(files.m, fd)
			files.Unlock()
			if !ok {
				return nil, &fsError{syscall: "close", err: syscall.EBADF}
			}
			return nil, wrap(f.Close(), "close", "", "")
		}, done: ident}
	},
	"read": func(n *nodeState, a []goja.Value) fsOp {
		fd, buf, pos := int(a[0].ToInteger()), a[1], a[2]
		size := len(bytesOf(buf))
		p := int64(-1)
		if !goja.IsUndefined(pos) && !goja.IsNull(pos) {
			p = pos.ToInteger()
		}
		tmp := make([]byte, size)
		return fsOp{run: func() (any, error) {
			f, ok := fileOf(fd)
			if !ok {
				if fd == 0 {
					f = os.Stdin
				} else {
					return nil, &fsError{syscall: "read", err: syscall.EBADF}
				}
			}
			var m int
			var err error
			if p >= 0 {
				m, err = f.ReadAt(tmp, p)
			} else {
				m, err = f.Read(tmp)
			}
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return m, wrap(err, "read", "", "")
		}, done: func(rt *goja.Runtime, v any) goja.Value {
			copy(bytesOf(buf), tmp[:v.(int)])
			return rt.ToValue(v)
		}}
	},
	"write": func(n *nodeState, a []goja.Value) fsOp {
		fd, data, pos := int(a[0].ToInteger()), append([]byte(nil), bytesOf(a[1])...), a[2]
		p := int64(-1)
		if !goja.IsUndefined(pos) && !goja.IsNull(pos) {
			p = pos.ToInteger()
		}
		w, f, werr := n.writerOf(fd)
		return fsOp{run: func() (any, error) {
			if werr != nil {
				return nil, werr
			}
			var m int
			var err error
			if p >= 0 && f != nil {
				m, err = f.WriteAt(data, p)
			} else {
				m, err = w.Write(data)
			}
			return m, wrap(err, "write", "", "")
		}, done: value}
	},
	"readFile": func(n *nodeState, a []goja.Value) fsOp {
		path, isFd, fd, flagv := str(a[0]), a[2].ToBoolean(), int(a[0].ToInteger()), a[1]
		return fsOp{run: func() (any, error) {
			if isFd {
				f, ok := fileOf(fd)
				if !ok {
					return nil, &fsError{syscall: "read", err: syscall.EBADF}
				}
				b, err := io.ReadAll(f)
				return b, wrap(err, "read", "", "")
			}
			flag, err := flagOf(flagv, "r")
			if err != nil {
				return nil, wrap(err, "open", path, "")
			}
			f, err := os.OpenFile(path, flag, 0o666)
			if err != nil {
				return nil, wrap(err, "open", path, "")
			}
			defer f.Close()
			if fi, err := f.Stat(); err == nil && fi.IsDir() {
				return nil, &fsError{syscall: "read", err: syscall.EISDIR}
			}
			b, err := io.ReadAll(f)
			return b, wrap(err, "read", "", "")
		}, done: arrayBuffer}
	},
	"writeFile": func(n *nodeState, a []goja.Value) fsOp {
		path, data, flagv, mode := str(a[0]), append([]byte(nil), bytesOf(a[1])...), a[2], modeOf(a[3], 0o666)
		isFd, fd := a[4].ToBoolean(), int(a[0].ToInteger())
		var w io.Writer
		var werr error
		if isFd {
			w, _, werr = n.writerOf(fd)
		}
		return fsOp{run: func() (any, error) {
			if isFd {
				if werr != nil {
					return nil, werr
				}
				_, err := w.Write(data)
				return nil, wrap(err, "write", "", "")
			}
			flag, err := flagOf(flagv, "w")
			if err != nil {
				return nil, wrap(err, "open", path, "")
			}
			f, err := os.OpenFile(path, flag, mode)
			if err != nil {
				return nil, wrap(err, "open", path, "")
			}
			if _, err := f.Write(data); err != nil {
				f.Close()
				return nil, wrap(err, "write", "", "")
			}
			return nil, wrap(f.Close(), "close", "", "")
		}, done: ident}
	},
	"stat": func(n *nodeState, a []goja.Value) fsOp {
		path, follow := str(a[0]), a[1].ToBoolean()
		return fsOp{run: func() (any, error) {
			if follow {
				fi, err := os.Stat(path)
				return fi, wrap(err, "stat", path, "")
			}
			fi, err := os.Lstat(path)
			return fi, wrap(err, "lstat", path, "")
		}, done: statValue}
	},
	"fstat": func(n *nodeState, a []goja.Value) fsOp {
		fd := int(a[0].ToInteger())
		return fsOp{run: func() (any, error) {
			f, ok := fileOf(fd)
			if !ok {
				return nil, &fsError{syscall: "fstat", err: syscall.EBADF}
			}
			fi, err := f.Stat()
			return fi, wrap(err, "fstat", "", "")
		}, done: statValue}
	},
	"access": func(n *nodeState, a []goja.Value) fsOp {
		path, mode := str(a[0]), uint32(a[1].ToInteger())
		return fsOp{run: func() (any, error) {
			return nil, wrap(syscall.Access(path, mode), "access", path, "")
		}, done: ident}
	},
	"exists": func(n *nodeState, a []goja.Value) fsOp {
		path := str(a[0])
		return fsOp{run: func() (any, error) {
			_, err := os.Stat(path)
			return err == nil, nil
		}, done: value}
	},
	"readdir": func(n *nodeState, a []goja.Value) fsOp {
		path, types := str(a[0]), a[1].ToBoolean()
		return fsOp{run: func() (any, error) {
			es, err := os.ReadDir(path)
			if err != nil {
				return nil, wrap(err, "scandir", path, "")
			}
			return es, nil
		}, done: func(rt *goja.Runtime, v any) goja.Value {
			es := v.([]iofs.DirEntry)
			out := make([]any, len(es))
			for i, e := range es {
				if !types {
					out[i] = e.Name()
					continue
				}
				kind := "other"
				switch t := e.Type(); {
				case t.IsRegular():
					kind = "file"
				case t.IsDir():
					kind = "dir"
				case t&iofs.ModeSymlink != 0:
					kind = "symlink"
				case t&iofs.ModeNamedPipe != 0:
					kind = "fifo"
				case t&iofs.ModeSocket != 0:
					kind = "socket"
				case t&iofs.ModeCharDevice != 0:
					kind = "char"
				case t&iofs.ModeDevice != 0:
					kind = "block"
				}
				out[i] = rt.NewArray(e.Name(), kind)
			}
			return rt.NewArray(out...)
		}}
	},
	"mkdir": func(n *nodeState, a []goja.Value) fsOp {
		path, recursive, mode := str(a[0]), a[1].ToBoolean(), modeOf(a[2], 0o777)
		return fsOp{run: func() (any, error) {
			if recursive {
				first, err := mkdirAll(path, mode)
				return first, err
			}
			return "", wrap(os.Mkdir(path, mode), "mkdir", path, "")
		}, done: func(rt *goja.Runtime, v any) goja.Value {
			if s, _ := v.(string); s != "" {
				return rt.ToValue(s)
			}
			return goja.Undefined()
		}}
	},
	"rmdir": func(n *nodeState, a []goja.Value) fsOp {
		path := str(a[0])
		return fsOp{run: func() (any, error) {
			fi, err := os.Lstat(path)
			if err != nil {
				return nil, wrap(err, "rmdir", path, "")
			}
			if !fi.IsDir() {
				return nil, &fsError{syscall: "rmdir", path: path, err: syscall.ENOTDIR}
			}
			return nil, wrap(syscall.Rmdir(path), "rmdir", path, "")
		}, done: ident}
	},
	"rm": func(n *nodeState, a []goja.Value) fsOp {
		path, recursive, force := str(a[0]), a[1].ToBoolean(), a[2].ToBoolean()
		return fsOp{run: func() (any, error) {
			fi, err := os.Lstat(path)
			if err != nil {
				if force && errors.Is(err, iofs.ErrNotExist) {
					return nil, nil
				}
				return nil, wrap(err, "rm", path, "")
			}
			if fi.IsDir() && !recursive {
				return nil, &fsError{syscall: "rm", path: path, err: syscall.EISDIR, code: "ERR_FS_EISDIR",
					message: "Path is a directory: rm returned EISDIR (is a directory) " + path}
			}
			return nil, wrap(os.RemoveAll(path), "rm", path, "")
		}, done: ident}
	},
	"unlink": func(n *nodeState, a []goja.Value) fsOp {
		path := str(a[0])
		return fsOp{run: func() (any, error) { return nil, wrap(syscall.Unlink(path), "unlink", path, "") }, done: ident}
	},
	"rename": func(n *nodeState, a []goja.Value) fsOp {
		from, to := str(a[0]), str(a[1])
		return fsOp{run: func() (any, error) { return nil, wrap(os.Rename(from, to), "rename", from, to) }, done: ident}
	},
	"link": func(n *nodeState, a []goja.Value) fsOp {
		from, to := str(a[0]), str(a[1])
		return fsOp{run: func() (any, error) { return nil, wrap(os.Link(from, to), "link", from, to) }, done: ident}
	},
	"symlink": func(n *nodeState, a []goja.Value) fsOp {
		target, path := str(a[0]), str(a[1])
		return fsOp{run: func() (any, error) { return nil, wrap(os.Symlink(target, path), "symlink", target, path) }, done: ident}
	},
	"readlink": func(n *nodeState, a []goja.Value) fsOp {
		path := str(a[0])
		return fsOp{run: func() (any, error) {
			s, err := os.Readlink(path)
			return s, wrap(err, "readlink", path, "")
		}, done: value}
	},
	"realpath": func(n *nodeState, a []goja.Value) fsOp {
		path := str(a[0])
		return fsOp{run: func() (any, error) {
			abs, err := filepath.Abs(path)
			if err != nil {
				return nil, wrap(err, "realpath", path, "")
			}
			s, err := filepath.EvalSymlinks(abs)
			return s, wrap(err, "realpath", path, "")
		}, done: value}
	},
	"copyFile": func(n *nodeState, a []goja.Value) fsOp {
		src, dst, mode := str(a[0]), str(a[1]), a[2].ToInteger()
		return fsOp{run: func() (any, error) {
			in, err := os.Open(src)
			if err != nil {
				return nil, wrap(err, "copyfile", src, dst)
			}
			defer in.Close()
			fi, err := in.Stat()
			if err != nil {
				return nil, wrap(err, "copyfile", src, dst)
			}
			flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
			if mode&1 != 0 { // COPYFILE_EXCL
				flag |= os.O_EXCL
			}
			out, err := os.OpenFile(dst, flag, fi.Mode().Perm())
			if err != nil {
				return nil, wrap(err, "copyfile", src, dst)
			}
			if _, err := io.Copy(out, in); err != nil {
				out.Close()
				return nil, wrap(err, "copyfile", src, dst)
			}
			return nil, wrap(out.Close(), "copyfile", src, dst)
		}, done: ident}
	},
	"truncate": func(n *nodeState, a []goja.Value) fsOp {
		path, size, isFd, fd := str(a[0]), a[1].ToInteger(), a[2].ToBoolean(), int(a[0].ToInteger())
		return fsOp{run: func() (any, error) {
			if isFd {
				f, ok := fileOf(fd)
				if !ok {
					return nil, &fsError{syscall: "ftruncate", err: syscall.EBADF}
				}
				return nil, wrap(f.Truncate(size), "ftruncate", "", "")
			}
			return nil, wrap(os.Truncate(path, size), "open", path, "")
		}, done: ident}
	},
	"chmod": func(n *nodeState, a []goja.Value) fsOp {
		path, mode := str(a[0]), os.FileMode(a[1].ToInteger())&os.ModePerm
		return fsOp{run: func() (any, error) { return nil, wrap(os.Chmod(path, mode), "chmod", path, "") }, done: ident}
	},
	"utimes": func(n *nodeState, a []goja.Value) fsOp {
		path, at, mt := str(a[0]), a[1].ToFloat(), a[2].ToFloat()
		return fsOp{run: func() (any, error) { return nil, touch(path, at, mt) }, done: ident}
	},
	"mkdtemp": func(n *nodeState, a []goja.Value) fsOp {
		prefix := str(a[0])
		return fsOp{run: func() (any, error) {
			dir, base := filepath.Dir(prefix), filepath.Base(prefix)
			if strings.HasSuffix(prefix, "/") {
				dir, base = prefix, ""
			}
			s, err := os.MkdirTemp(dir, base+"*")
			return s, wrap(err, "mkdtemp", prefix+"XXXXXX", "")
		}, done: value}
	},
	"fsync": func(n *nodeState, a []goja.Value) fsOp {
		fd := int(a[0].ToInteger())
		return fsOp{run: func() (any, error) {
			f, ok := fileOf(fd)
			if !ok {
				return nil, &fsError{syscall: "fsync", err: syscall.EBADF}
			}
			return nil, wrap(f.Sync(), "fsync", "", "")
		}, done: ident}
	},
}
