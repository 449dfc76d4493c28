export function scale(value: number, factor: number): number {
  return value * factor;
}
