module.exports = ({ a, b }) => a + b;
