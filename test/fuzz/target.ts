// A fuzz target: an input generator (fast-check) and the property every input must keep. The same
// targets run in `npm test` (few cases each, fixed seed: fuzz.test.ts) and in `npm run fuzz`
// (10^6 cases each, fresh seed: main.ts), and failing inputs kept as vectors are replayed by both.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';

export interface FuzzTarget<T> {
  readonly name: string;
  readonly input: fc.Arbitrary<T>;
  /** Throws (an assertion) when `input` breaks the property. */
  check(input: T): void | Promise<void>;
  /** Cases per `npm test` run (10^4 for every target; `npm run fuzz` runs 10^6 by default). */
  readonly testRuns: number;
  /** Shared state for the cases (an in-process API server), made once per run. */
  setup?(): Promise<void>;
  teardown?(): Promise<void>;
}

/** Fixed for `npm test`, so a run is reproducible. */
export const TEST_SEED = 20261128;

// Runs from dist/test/fuzz/: vectors live in the source tree.
const VECTOR_ROOT = fileURLToPath(new URL('../../../test/vectors/fuzz/', import.meta.url));

// Inputs are JSON with bytes as {"$bytes": base64}, so any target's input can be kept in a file.
function encodeInput(value: unknown): string {
  return JSON.stringify({ input: value }, (_k, v: unknown) => (v instanceof Uint8Array ? { $bytes: Buffer.from(v).toString('base64') } : v), 1);
}

function decodeInput(text: string): unknown {
  return (
    JSON.parse(text, (_k, v: unknown) =>
      v !== null && typeof v === 'object' && typeof (v as { $bytes?: unknown }).$bytes === 'string' ? new Uint8Array(Buffer.from((v as { $bytes: string }).$bytes, 'base64')) : v,
    ) as { input: unknown }
  ).input;
}

/** Keeps a failing input as test/vectors/fuzz/<target>/<hash>.json; returns its path. */
export function saveVector(target: string, input: unknown): string {
  const text = encodeInput(input);
  const dir = join(VECTOR_ROOT, target);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${createHash('sha256').update(text).digest('hex').slice(0, 16)}.json`);
  writeFileSync(path, `${text}\n`);
  return path;
}

/** The kept inputs of a target (file name → input). */
export function vectorsOf(target: string): Array<[string, unknown]> {
  const dir = join(VECTOR_ROOT, target);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => [f, decodeInput(readFileSync(join(dir, f), 'utf8'))]);
}

export interface FuzzRun {
  failed: boolean;
  runs: number;
  /** The shrunk failing input and what went wrong. */
  counterexample?: unknown;
  error?: string;
  seed: number;
}

/** Runs `runs` cases of a target (setup and teardown included). */
export async function runTarget<T>(target: FuzzTarget<T>, runs: number, seed: number): Promise<FuzzRun> {
  await target.setup?.();
  try {
    const property = fc.asyncProperty(target.input, async (input) => {
      await target.check(input);
    });
    const details = await fc.check(property, { numRuns: runs, seed, endOnFailure: false });
    if (!details.failed) return { failed: false, runs: details.numRuns, seed };
    const error = details.errorInstance instanceof Error ? (details.errorInstance.stack ?? details.errorInstance.message) : String(details.errorInstance);
    return { failed: true, runs: details.numRuns, counterexample: details.counterexample?.[0], error, seed };
  } finally {
    await target.teardown?.();
  }
}
