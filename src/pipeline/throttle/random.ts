// A seeded random source, so a run of fault rules can be replayed exactly: the same seed and
// the same requests in the same order give the same faults. mulberry32: small and good enough
// for choosing faults (not for anything secret).

export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform in [min, max]. */
  uniform(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Normally distributed (Box–Muller). */
  normal(mean: number, stdDev: number): number {
    const u = 1 - this.next();
    const v = this.next();
    return mean + stdDev * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}
