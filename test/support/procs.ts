// Processes as Linux's /proc shows them, for tests and benchmarks that watch what `kubelite up`
// spawns (its components are its child processes).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** The fields of /proc/<pid>/stat after the command name (state, ppid, ...), or undefined when gone. */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The processes whose parent is `pid`. */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (/^\d+$/.test(entry) && Number(statFields(entry)?.[1]) === pid) out.push(Number(entry));
  }
  return out;
}

/** Whether the process exists and is not a zombie waiting to be reaped. */
export function isAlive(pid: number): boolean {
  const state = statFields(pid)?.[0];
  return state !== undefined && state !== 'Z';
}

/** Resident memory (VmRSS) in MiB; 0 when gone. */
export function rssMiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Proportional set size in MiB (/proc/<pid>/smaps_rollup: each shared page divided among the processes mapping it); 0 when gone. */
export function pssMiB(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** CPU seconds (user + system) the process has used; 0 when gone. */
export function cpuSeconds(pid: number): number {
  const f = statFields(pid);
  return f ? (Number(f[11]) + Number(f[12])) / CLOCK_TICKS : 0;
}

/** CPU seconds (user + system) of this process's children that have exited and been reaped (a kubectl run, say). */
export function reapedChildrenCpuSeconds(): number {
  const f = statFields(process.pid);
  return f ? (Number(f[13]) + Number(f[14])) / CLOCK_TICKS : 0;
}

/**
 * Resident memory split as /proc/<pid>/status counts it, in MiB: anonymous (heaps, malloc arenas,
 * stacks), file-backed (the node binary, shared libraries, mmapped files such as lmdb's data file)
 * and shared memory; undefined when gone.
 */
export function rssSplitMiB(pid: number): { anon: number; file: number; shmem: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
    return { anon: kib('RssAnon'), file: kib('RssFile'), shmem: kib('RssShmem') };
  } catch {
    return undefined;
  }
}
