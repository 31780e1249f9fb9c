import { describe, expect, it } from 'vitest';
import { uninitializedBytes } from './bytes';

describe('uninitializedBytes', () => {
  it('gives a plain Uint8Array of exactly n bytes over its own memory, small or large', () => {
    for (const n of [0, 1, 4095, 4096, 300_000]) {
      const b = uninitializedBytes(n);
      expect(b.length).toBe(n);
      expect(Object.getPrototypeOf(b)).toBe(Uint8Array.prototype); // not a Buffer: slice() copies
      expect(b.byteOffset).toBe(0); // never a slice of Node's shared pool
      expect(b.buffer.byteLength).toBe(n);
    }
  });
});
