/**
 * The random numbers of the Nexmark generator. Flink's generator draws every field from one
 * unseeded `java.util.SplittableRandom`, so its events differ from run to run and no seed can
 * reproduce them. Weir instead reseeds a small generator per event from (seed, event number): each
 * event is a pure function of the two, whatever the parallelism, batch sizes or restores, and
 * `weir nexmark generate` can write exactly the events a source emits.
 *
 * The stream is splitmix32 (a Weyl sequence through a 32-bit finalizer): one add, two multiplies
 * per draw, no allocation. Its draws feed the same distributions as Flink's `nextInt(bound)`,
 * `nextLong(bound)` and `nextDouble()`.
 */

const TWO_32 = 4294967296;

/** A 32-bit hash of (a, b) where both are non-negative integers up to 2^53. */
export function mixSeed(a: number, b: number): number {
  let h = Math.imul((a >>> 0) ^ 0x9e3779b9, 0x85ebca6b);
  h ^= Math.imul(Math.floor(a / TWO_32) | 0, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h ^= Math.imul(b >>> 0, 0xc2b2ae35);
  h ^= Math.imul(Math.floor(b / TWO_32) | 0, 0x165667b1);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

export class NexmarkRandom {
  private state = 0;

  constructor(seed = 0) {
    this.state = seed | 0;
  }

  reseed(seed: number): void {
    this.state = seed | 0;
  }

  /** A uniform 32-bit draw, as an unsigned integer. */
  nextU32(): number {
    const s = (this.state = (this.state + 0x9e3779b9) | 0);
    let z = Math.imul(s ^ (s >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  }

  /** A signed 32-bit draw (Java's `nextInt()`). */
  nextIntSigned(): number {
    return this.nextU32() | 0;
  }

  /** Uniform in [0, bound) for 0 < bound <= 2^32 (Java's `nextInt(bound)` / LongGenerator.nextLong). */
  nextInt(bound: number): number {
    return Math.floor((this.nextU32() * bound) / TWO_32);
  }

  /**
   * Uniform in [0, 1) (Java's `nextDouble()`), with 32 random bits rather than 53: the generator
   * only feeds it to prices, which 32 bits resolve to far below a cent, and one draw is cheaper.
   */
  nextDouble(): number {
    return this.nextU32() / TWO_32;
  }
}
