class Shape {
  #id;
  static count = 0;
  constructor(name) { this.name = name; this.#id = ++Shape.count; }
  get id() { return this.#id; }
  area() { return 0; }
  toString() { return `${this.name}#${this.id}(${this.area().toFixed(2)})`; }
}
class Circle extends Shape {
  constructor(r) { super("circle"); this.r = r; }
  area() { return Math.PI * this.r ** 2; }
}
class Rect extends Shape {
  constructor(w, h) { super("rect"); [this.w, this.h] = [w, h]; }
  area() { return this.w * this.h; }
  static square(s) { return new Rect(s, s); }
}
const shapes = [new Circle(1), new Rect(2, 3), Rect.square(4)];
for (const s of shapes) console.log(String(s));
console.log(shapes.map(s => s.area()).reduce((a, b) => a + b, 0) > 30, Shape.count);
