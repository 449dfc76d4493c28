// process.on('unhandledRejection', (reason, promise)): the promise that was rejected, for a rejection in the script
// and one in a timer.
const p = Promise.reject(new Error('x'));
const seen = [];
process.on('unhandledRejection', (reason, promise) => {
  seen.push(promise);
  console.log('got', String(reason), promise === p || promise === q, promise instanceof Promise);
});
const q = new Promise((_, rej) => setTimeout(() => rej(42), 1));
process.on('unhandledRejection', function (r, pr) { console.log('second', String(r), pr === seen[seen.length - 1], arguments.length); });
process.on('exit', () => console.log(seen[0] === p, seen[1] === q));
