export default function greet(name) {
  return `hello from ${name}`;
}
