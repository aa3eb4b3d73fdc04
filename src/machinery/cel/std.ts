// @bufbuild/cel's standard environment (with its `ext` strings) and a way to call one of its
// functions directly: the Kubernetes layer converts date-time/duration strings with the same
// timestamp()/duration() the expressions use, and falls back to these overloads.
import { celEnv, type CelEnv } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';

export const stdEnv: CelEnv = celEnv({ funcs: strings });

interface Group { call(id: bigint, target: unknown, args: unknown[]): unknown }

export function stdGroup(name: string): Group | undefined {
  return stdEnv.funcs.find(name) as Group | undefined;
}

/** Calls a standard function; undefined when no overload takes these arguments. */
export function stdCall(name: string, target: unknown, args: unknown[]): unknown {
  return stdGroup(name)?.call(0n, target, args);
}
