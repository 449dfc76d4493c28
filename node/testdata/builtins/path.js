const path = require('path');
const cases = [['join','/a/b','../c','./d'],['join',''],['join','a','','b/'],['join','/','..'],['normalize','//a//b/./c/..'],['normalize','./'],['normalize','../../x'],['normalize','a/..'],['normalize','a/../'],
['dirname','/a/b/'],['dirname','a'],['dirname','/'],['dirname','//a'],['dirname','/a'],['dirname','a/b//c//'],['basename','/a/b.js','.js'],['basename','/a/b/'],['basename','b.js','b.js'],['basename','aaa/bbb','bbb'],
['extname','a.b.c'],['extname','.bashrc'],['extname','a.'],['extname','..'],['extname','a/.b.c'],['extname','x/..'],['relative','/a/b/c','/a/d'],['relative','/a','/a/b/c'],['relative','/a/b','/'],['relative','/','/x'],['resolve','/x','y','../z'],['resolve','/a/','/b//'],
['parse','/home/u/file.txt'],['parse','file'],['parse','/'],['parse','./a/'],['parse','//a'],['parse','.x'],['format',{dir:'/a',base:'b.js'}],['format',{root:'/',name:'x',ext:'js'}],['format',{name:'x',ext:'.js'}],['isAbsolute','/a'],['isAbsolute','a']];
for (const [f, ...a] of cases) console.log(f, JSON.stringify(a), JSON.stringify(path[f](...a)));
console.log(path.sep, path.delimiter, path.posix === path, require('path/posix') === path);
