const { expose } = require('threads/worker');
expose(function add(a, b) { return a + b; });
