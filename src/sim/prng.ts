// A small seeded PRNG so a simulated team makes the same choices for the same seed.

/** mulberry32: 32-bit state, uniform floats in [0, 1). Fast and good enough for simulation. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a, to give each member its own stream derived from one team seed. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

export function createRng(seed: number, salt = ''): Rng {
  const next = mulberry32((seed ^ hashString(salt)) >>> 0);
  return {
    next,
    int: (min, max) => (max <= min ? min : min + Math.floor(next() * (max - min + 1))),
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)] as T;
    },
    chance: (p) => (p >= 1 ? (next(), true) : p <= 0 ? (next(), false) : next() < p),
  };
}

/** A version-4-shaped UUID drawn from `rng`, so seeded output names the same ids every run. */
export function seededUuid(rng: Rng): string {
  const h = () => rng.int(0, 0xffff).toString(16).padStart(4, '0');
  return `${h()}${h()}-${h()}-4${h().slice(1)}-${(8 + rng.int(0, 3)).toString(16)}${h().slice(1)}-${h()}${h()}${h()}`;
}

/** A seed for runs that did not ask for one; reported so the run can be repeated. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 0x7fffffff);
}
