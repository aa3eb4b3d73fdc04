// Option parsing as busybox's getopt32 does it: bundled short flags (`-la`), options taking a
// value (`-n 5`, `-n5`), `--` ending the options, long options mapped to short ones.
import type { ShellIO } from '../context.js';
import { write } from '../streams.js';

export interface ParsedArgs {
  flags: Set<string>;
  values: Map<string, string>;
  operands: string[];
}

export interface ArgSpec {
  /** Short flags without a value. */
  flags?: string;
  /** Short options taking a value. */
  values?: string;
  /** Long option → the short flag it means (or itself, kept as a flag). */
  long?: Record<string, string>;
  /** Options may follow operands (GNU style): `ls dir -l`. */
  permute?: boolean;
}

export function parseArgs(args: string[], spec: ArgSpec): ParsedArgs | string {
  const parsed: ParsedArgs = { flags: new Set(), values: new Map(), operands: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      parsed.operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--') && spec.long !== undefined) {
      const [name, value] = a.slice(2).split('=', 2) as [string, string | undefined];
      const mapped = spec.long[name];
      if (mapped === undefined) return `unrecognized option '${a}'`;
      if (value !== undefined) parsed.values.set(mapped, value);
      else parsed.flags.add(mapped);
      continue;
    }
    if (a.length < 2 || !a.startsWith('-')) {
      parsed.operands.push(a);
      if (!spec.permute) {
        parsed.operands.push(...args.slice(i + 1));
        break;
      }
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if (spec.values?.includes(c)) {
        const value = j + 1 < a.length ? a.slice(j + 1) : args[++i];
        if (value === undefined) return `option requires an argument -- '${c}'`;
        parsed.values.set(c, value);
        break;
      }
      if (!spec.flags?.includes(c)) return `invalid option -- '${c}'`;
      parsed.flags.add(c);
    }
  }
  return parsed;
}

/** Parses, or reports the usage error as busybox does (status 1). */
export async function parseOrReport(name: string, args: string[], spec: ArgSpec, io: ShellIO): Promise<ParsedArgs | number> {
  const parsed = parseArgs(args.slice(1), spec);
  if (typeof parsed !== 'string') return parsed;
  await write(io.stderr, `${name}: ${parsed}\n`);
  return 1;
}

export async function fail(io: ShellIO, message: string): Promise<void> {
  await write(io.stderr, `${message}\n`);
}
