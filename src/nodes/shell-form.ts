// The common shell forms of a container's command/args (`sleep N`, `sh -c "...; exit N"`, endless
// loops): how long the command runs and how it exits, as far as the simulation can tell.

/** What the shell form of a command says: how long it runs and how it exits (undefined: not recognised). */
export interface ShellForm {
  runSeconds?: number;
  exitCode?: number;
  forever?: boolean;
}

const SHELLS = new Set(['sh', 'bash', 'ash', 'dash', 'zsh', 'busybox']);

function basename(p: string): string {
  const i = p.lastIndexOf('/');
  return i >= 0 ? p.slice(i + 1) : p;
}

/** `5`, `2.5`, `10s`, `2m`, `1h`, `1d`, `infinity` → seconds. */
export function parseSleepDuration(s: string): number | undefined {
  if (s === 'infinity' || s === 'inf') return Infinity;
  const m = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(s);
  if (!m) return undefined;
  const n = Number(m[1]);
  const mult = m[2] === 'm' ? 60 : m[2] === 'h' ? 3600 : m[2] === 'd' ? 86400 : 1;
  return n * mult;
}

/** Splits a shell word list, honouring simple quotes. */
function words(s: string): string[] {
  const out: string[] = [];
  const re = /'([^']*)'|"([^"]*)"|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s)) !== null) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

/** A shell script (`sh -c` text): sums its sleeps, finds its exit code, spots endless loops. */
export function parseShellScript(script: string): ShellForm | undefined {
  if (/\bwhile\s+(true|:)\b|\bfor\s*\(\(\s*;\s*;\s*\)\)|\btail\s+-f\b|sleep\s+infinity\b/.test(script)) return { forever: true };
  // Each statement with the operator before it: the commands around are taken to succeed, so what
  // follows `||` (a fallback such as `... || exit 1`) does not run.
  const parts = script.split(/(;|&&|\|\||\n)/);
  const statements: string[] = [];
  const afterOr: boolean[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    const st = parts[i]!.trim();
    if (st === '') continue;
    statements.push(st);
    afterOr.push(parts[i - 1] === '||');
  }
  let recognised = false;
  let run = 0;
  let exitCode: number | undefined;
  for (const [i, st] of statements.entries()) {
    if (afterOr[i]) continue;
    const w = words(st);
    const cmd = basename(w[0] ?? '');
    if (cmd === 'sleep' && w.length >= 2) {
      const d = parseSleepDuration(w[1]!);
      if (d === undefined) continue;
      recognised = true;
      if (d === Infinity) return { forever: true };
      run += d;
    } else if (cmd === 'exit') {
      recognised = true;
      const n = w[1] === undefined ? 0 : Number(w[1]);
      exitCode = Number.isInteger(n) ? ((n % 256) + 256) % 256 : 1;
      break;
    } else if (cmd === 'true' && w.length === 1) {
      recognised = true;
    } else if (cmd === 'false' && w.length === 1) {
      recognised = true;
    }
  }
  // A script's status is its last command's: `false` as the last statement exits 1.
  const last = afterOr[statements.length - 1] ? [] : words(statements[statements.length - 1] ?? '');
  if (exitCode === undefined && last.length === 1 && basename(last[0]!) === 'false') exitCode = 1;
  if (!recognised) return undefined;
  return { runSeconds: run, ...(exitCode !== undefined ? { exitCode } : {}) };
}

/** Recognises `sleep N`, `true`, `false`, `sh -c "...; exit N"` (any shell, -c/-ec/-xc) in a container's command + args. */
export function parseShellForm(command: readonly string[] | undefined, args: readonly string[] | undefined): ShellForm | undefined {
  const argv = [...(command ?? []), ...(args ?? [])];
  if (argv.length === 0) return undefined;
  let cmd = basename(argv[0]!);
  let rest = argv.slice(1);
  if (cmd === 'busybox' || cmd === 'env' || cmd === 'exec') {
    cmd = basename(rest[0] ?? '');
    rest = rest.slice(1);
  }
  if (cmd === 'sleep' && rest.length >= 1) {
    const d = parseSleepDuration(rest[0]!);
    if (d === undefined) return undefined;
    return d === Infinity ? { forever: true } : { runSeconds: d };
  }
  if (cmd === 'true' && rest.length === 0) return { runSeconds: 0, exitCode: 0 };
  if (cmd === 'false' && rest.length === 0) return { runSeconds: 0, exitCode: 1 };
  if (cmd === 'tail' && rest[0] === '-f') return { forever: true };
  if (SHELLS.has(cmd)) {
    const i = rest.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a));
    if (i < 0 || rest[i + 1] === undefined) return undefined;
    return parseShellScript(rest[i + 1]!);
  }
  return undefined;
}
