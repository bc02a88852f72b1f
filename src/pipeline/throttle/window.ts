// One budget over a sliding window: how many units were spent in the last `windowMs`, whether
// a request costing `cost` more still fits, and when enough will have slid out for it to fit.
// Spending is kept in small time slots (1/600 of the window: 100 ms for a minute, 144 s for a
// day), so a 24-hour budget of millions of units holds at most 600 entries, not one per request.

const SLOTS = 600;

export class SlidingWindow {
  readonly limit: number;
  readonly windowMs: number;
  private readonly slotMs: number;
  /** [slot start, units spent in it], oldest first. */
  private readonly slots: Array<[number, number]> = [];
  private total = 0;

  constructor(limit: number, windowMs: number) {
    if (!(limit > 0) || !(windowMs > 0)) throw new RangeError('a window needs a limit and a length above 0');
    this.limit = limit;
    this.windowMs = windowMs;
    this.slotMs = Math.max(1, Math.floor(windowMs / SLOTS));
  }

  /** Units spent in the window ending at `now` (milliseconds). */
  used(now: number): number {
    this.expire(now);
    return this.total;
  }

  /** Whether `cost` more units fit at `now`. A cost above the whole limit fits an empty window (or it never could). */
  fits(cost: number, now: number): boolean {
    const used = this.used(now);
    return used + cost <= this.limit || used === 0;
  }

  spend(cost: number, now: number): void {
    this.expire(now);
    const start = now - (now % this.slotMs);
    const last = this.slots[this.slots.length - 1];
    if (last && last[0] === start) last[1] += cost;
    else this.slots.push([start, cost]);
    this.total += cost;
  }

  /**
   * Milliseconds from `now` until `cost` more units fit: 0 if they fit now; a cost above the
   * whole limit waits for an empty window.
   */
  waitFor(cost: number, now: number): number {
    this.expire(now);
    if (this.total === 0) return 0;
    let excess = cost > this.limit ? this.total : this.total + cost - this.limit;
    if (excess <= 0) return 0;
    for (const [start, units] of this.slots) {
      excess -= units;
      if (excess <= 0) return start + this.windowMs - now;
    }
    return this.windowMs;
  }

  /** Milliseconds until the oldest units still counted slide out (0 when nothing is counted). */
  nextRelease(now: number): number {
    this.expire(now);
    const oldest = this.slots[0];
    return oldest ? oldest[0] + this.windowMs - now : 0;
  }

  private expire(now: number): void {
    while (this.slots.length > 0 && this.slots[0]![0] + this.windowMs <= now) {
      this.total -= this.slots.shift()![1];
    }
  }
}
