const url = require('url');
console.log(url.fileURLToPath('file:///tmp/a%20b/c.js'), url.pathToFileURL('/tmp/a b/#x?.js').href, url.pathToFileURL('rel/').href.startsWith('file:///'), url.URL === URL, typeof url.URLSearchParams);
try { url.fileURLToPath('http://x/y'); } catch (e) { console.log(e.code); }
console.log(JSON.stringify(url.urlToHttpOptions(new URL('https://u:p@example.com:8080/p?q=1#h'))), url.format(new URL('http://a.com/x?y#z'), { fragment: false }));
