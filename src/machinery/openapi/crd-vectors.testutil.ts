// The real CRDs kept in test/vectors/crds (see its README) and their example objects.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { TESTDATA } from '../../api/vectors.testutil.js';
import type { CrdForOpenApi } from './crd.js';

export const REAL_CRDS = ['certificate', 'servicemonitor', 'application'] as const;

export interface CrdExamples {
  valid: Array<Record<string, unknown>>;
  invalid: Array<{ name: string; object: Record<string, unknown>; errors: string[]; confirmed: boolean }>;
}

export function readCrd(name: (typeof REAL_CRDS)[number]): CrdForOpenApi & { metadata: { name: string } } {
  return parseYaml(readFileSync(join(TESTDATA, 'crds', `${name}.yaml`), 'utf8')) as CrdForOpenApi & { metadata: { name: string } };
}

export function readExamples(name: (typeof REAL_CRDS)[number]): CrdExamples {
  return parseYaml(readFileSync(join(TESTDATA, 'crds', `${name}.examples.yaml`), 'utf8')) as CrdExamples;
}
