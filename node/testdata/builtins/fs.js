const fs = require('fs');
const fsp = require('node:fs/promises');
const path = require('path');
const os = require('os');
const out = [];
const log = (...a) => out.push(a.map((x) => typeof x === 'string' ? x : JSON.stringify(x)).join(' '));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h8fs-'));
const rel = (p) => p.split(dir).join('<dir>');
const f = path.join(dir, 'a.txt');
fs.writeFileSync(f, 'hello');
fs.appendFileSync(f, ' world');
log(fs.readFileSync(f, 'utf8'), fs.readFileSync(f).length, fs.readFileSync(f, { encoding: 'hex' }), fs.existsSync(f), fs.existsSync(f + 'x'));
const st = fs.statSync(f);
log(st.isFile(), st.isDirectory(), st.size, typeof st.mtimeMs, st.mtime instanceof Date, (st.mode & 0o777).toString(8).length);
log(fs.mkdirSync(path.join(dir, 'x/y/z'), { recursive: true }) === path.join(dir, 'x'), fs.mkdirSync(path.join(dir, 'x'), { recursive: true }));
fs.mkdirSync(path.join(dir, 'd'));
fs.writeFileSync(path.join(dir, 'd', 'b.bin'), Buffer.from([1, 2, 3]));
log(fs.readdirSync(dir).sort(), fs.readdirSync(dir, { withFileTypes: true }).map((e) => [e.name, e.isFile(), e.isDirectory()]).sort());
for (const bad of [() => fs.readFileSync(path.join(dir, 'nope')), () => fs.mkdirSync(path.join(dir, 'd')), () => fs.rmdirSync(path.join(dir, 'x')), () => fs.readdirSync(f), () => fs.rmSync(path.join(dir, 'd')), () => fs.readFileSync(dir), () => fs.renameSync(path.join(dir, 'nope'), path.join(dir, 'n2'))]) {
  try { bad(); log('no error'); } catch (e) { log(e.code, e.errno, e.syscall, rel(e.message), e.path && rel(e.path)); }
}
fs.renameSync(f, path.join(dir, 'c.txt'));
log(fs.existsSync(f), fs.readFileSync(path.join(dir, 'c.txt'), 'latin1'));
const fd = fs.openSync(path.join(dir, 'fd.txt'), 'w+');
log(typeof fd, fs.writeSync(fd, 'abcdef'), fs.writeSync(fd, Buffer.from('XY'), 0, 2, 1), fs.fstatSync(fd).size);
const buf = Buffer.alloc(6);
log(fs.readSync(fd, buf, 0, 6, 0), buf.toString(), fs.readSync(fd, buf, { position: 4 }), fs.closeSync(fd));
try { fs.closeSync(fd); } catch (e) { log(e.code, e.syscall); }
fs.copyFileSync(path.join(dir, 'c.txt'), path.join(dir, 'copy.txt'));
try { fs.copyFileSync(path.join(dir, 'c.txt'), path.join(dir, 'copy.txt'), fs.constants.COPYFILE_EXCL); } catch (e) { log(e.code); }
fs.truncateSync(path.join(dir, 'copy.txt'), 3);
log(fs.readFileSync(path.join(dir, 'copy.txt'), 'utf8'));
fs.symlinkSync(path.join(dir, 'copy.txt'), path.join(dir, 'link'));
log(fs.lstatSync(path.join(dir, 'link')).isSymbolicLink(), rel(fs.readlinkSync(path.join(dir, 'link'))), rel(fs.realpathSync(path.join(dir, 'link'))));
fs.unlinkSync(path.join(dir, 'link'));
fs.accessSync(path.join(dir, 'copy.txt'), fs.constants.R_OK);
fs.chmodSync(path.join(dir, 'copy.txt'), 0o600);
log((fs.statSync(path.join(dir, 'copy.txt')).mode & 0o777).toString(8));
fs.utimesSync(path.join(dir, 'copy.txt'), 1000, 2000);
log(fs.statSync(path.join(dir, 'copy.txt')).mtimeMs);
fs.readFile(path.join(dir, 'c.txt'), 'utf8', (err, data) => {
  log('cb readFile', err, data);
  fs.readFile(path.join(dir, 'nope'), (err2) => {
    log('cb error', err2.code);
    fs.writeFile(path.join(dir, 'cb.txt'), 'cb data', (err3) => {
      log('cb writeFile', err3);
      fs.stat(path.join(dir, 'cb.txt'), (err4, s) => {
        log('cb stat', err4, s.size);
        fs.exists(path.join(dir, 'cb.txt'), (yes) => {
          log('cb exists', yes);
          fs.open(path.join(dir, 'cb.txt'), 'r', (e5, fd2) => {
            const b2 = Buffer.alloc(2);
            fs.read(fd2, b2, 0, 2, 3, (e6, n, bb) => {
              log('cb read', e6, n, bb.toString(), bb === b2);
              fs.close(fd2, (e7) => { log('cb close', e7); promisesPart(); });
            });
          });
        });
      });
    });
  });
});
async function promisesPart() {
  await fsp.writeFile(path.join(dir, 'p.txt'), 'promise');
  await fsp.appendFile(path.join(dir, 'p.txt'), '!');
  log('p read', await fsp.readFile(path.join(dir, 'p.txt'), 'utf8'));
  log('p readdir', (await fsp.readdir(dir)).length);
  try { await fsp.readFile(path.join(dir, 'nope')); } catch (e) { log('p err', e.code); }
  const fh = await fsp.open(path.join(dir, 'p.txt'), 'r+');
  const r = await fh.read(Buffer.alloc(3), 0, 3, 0);
  log('fh read', r.bytesRead, r.buffer.toString(), typeof fh.fd);
  const wr = await fh.write('AB', 0);
  log('fh write', wr.bytesWritten, (await fh.stat()).size);
  await fh.close();
  log('p after', await fsp.readFile(path.join(dir, 'p.txt'), 'utf8'));
  await fsp.mkdir(path.join(dir, 'pm/q'), { recursive: true });
  await fsp.rm(path.join(dir, 'pm'), { recursive: true });
  await fsp.rm(path.join(dir, 'nope'), { force: true });
  log('p stat', (await fsp.stat(dir)).isDirectory(), await fsp.access(dir));
  fs.rmSync(dir, { recursive: true, force: true });
  log('removed', fs.existsSync(dir));
  console.log(out.join('\n'));
}
