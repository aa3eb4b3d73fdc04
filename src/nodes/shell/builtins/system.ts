// Commands about the process and its system: env, printenv, hostname, id, whoami, uname, date,
// sleep, true, false, which.
import { setTimeout as sleepMs } from 'node:timers/promises';
import { Aborted, type Builtin } from '../context.js';
import { write } from '../streams.js';
import { fail, parseOrReport } from './args.js';
import { groupName, groupNameOrUndefined, userName, userNameOrUndefined } from './users.js';

/** `env [-i] [-u NAME]... [NAME=VALUE]... [COMMAND [ARG]...]`: prints or runs with a changed environment. */
const env: Builtin = async (args, io, ctx) => {
  const vars = new Map(ctx.vars);
  let i = 1;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-i' || a === '-' || a === '--ignore-environment') vars.clear();
    else if (a === '-u') vars.delete(args[++i] ?? '');
    else if (a.startsWith('-u')) vars.delete(a.slice(2));
    else if (a === '--') {
      i++;
      break;
    } else break;
  }
  for (; i < args.length && /^[^=]+=/.test(args[i]!); i++) {
    const eq = args[i]!.indexOf('=');
    vars.set(args[i]!.slice(0, eq), args[i]!.slice(eq + 1));
  }
  if (i < args.length) return ctx.spawn(args.slice(i), io, vars);
  await write(io.stdout, [...vars].map(([k, v]) => `${k}=${v}\n`).join(''));
  return 0;
};

const printenv: Builtin = async (args, io, ctx) => {
  const names = args.slice(1);
  if (names.length === 0) {
    await write(io.stdout, [...ctx.vars].map(([k, v]) => `${k}=${v}\n`).join(''));
    return 0;
  }
  let status = 0;
  for (const name of names) {
    const v = ctx.vars.get(name);
    if (v === undefined) status = 1;
    else await write(io.stdout, `${v}\n`);
  }
  return status;
};

const hostname: Builtin = async (args, io, ctx) => {
  const operands = args.slice(1).filter((a) => !a.startsWith('-'));
  if (operands.length > 0) {
    await fail(io, 'hostname: sethostname: Operation not permitted');
    return 1;
  }
  const name = args.includes('-s') ? ctx.hostname.split('.')[0]! : ctx.hostname;
  await write(io.stdout, `${name}\n`);
  return 0;
};

const id: Builtin = async (args, io, ctx) => {
  const parsed = await parseOrReport('id', args, { flags: 'ugGnr' }, io);
  if (typeof parsed === 'number') return parsed;
  const { uid, gid, groups } = ctx.user;
  const f = parsed.flags;
  const named = (n: number, name: string | undefined): string => (name === undefined ? String(n) : `${n}(${name})`);
  if (f.has('u') || f.has('g') || f.has('G')) {
    const ids = f.has('u') ? [uid] : f.has('g') ? [gid] : [gid, ...groups.filter((g) => g !== gid)];
    const names = ids.map((n) => (f.has('n') ? (f.has('u') ? userName(ctx, n) : groupName(ctx, n)) : String(n)));
    await write(io.stdout, `${names.join(' ')}\n`);
    return 0;
  }
  const all = [gid, ...groups.filter((g) => g !== gid)];
  await write(io.stdout, `uid=${named(uid, userNameOrUndefined(ctx, uid))} gid=${named(gid, groupNameOrUndefined(ctx, gid))} groups=${all.map((g) => named(g, groupNameOrUndefined(ctx, g))).join(',')}\n`);
  return 0;
};

const whoami: Builtin = async (_args, io, ctx) => {
  const name = userNameOrUndefined(ctx, ctx.user.uid);
  if (name === undefined) {
    await fail(io, `whoami: unknown uid ${ctx.user.uid}`);
    return 1;
  }
  await write(io.stdout, `${name}\n`);
  return 0;
};

/** The kernel a simulated node reports (node-status.ts's nodeInfo.kernelVersion). */
const KERNEL_RELEASE = '6.1.0-kubelite';

function machine(): string {
  return process.arch === 'x64' ? 'x86_64' : process.arch === 'arm64' ? 'aarch64' : process.arch;
}

const uname: Builtin = async (args, io, ctx) => {
  const parsed = await parseOrReport('uname', args, { flags: 'asnrvmpio' }, io);
  if (typeof parsed === 'number') return parsed;
  const fields: Array<[string, string]> = [
    ['s', 'Linux'],
    ['n', ctx.hostname],
    ['r', KERNEL_RELEASE],
    ['v', '#1 SMP PREEMPT_DYNAMIC'],
    ['m', machine()],
    ['o', 'GNU/Linux'],
  ];
  const f = parsed.flags;
  const chosen = f.has('a') ? fields : fields.filter(([k]) => f.has(k));
  await write(io.stdout, `${(chosen.length === 0 ? [fields[0]!] : chosen).map(([, v]) => v).join(' ')}\n`);
  return 0;
};

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number, w = 2, c = '0'): string => String(n).padStart(w, c);

/** strftime in UTC (containers run without a TZ): the conversions date(1) users reach for. */
export function strftime(format: string, d: Date): string {
  return format.replace(/%([a-zA-Z%+])/g, (m, c: string) => {
    switch (c) {
      case 'a':
        return DAYS[d.getUTCDay()]!;
      case 'A':
        return ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][d.getUTCDay()]!;
      case 'b':
      case 'h':
        return MONTHS[d.getUTCMonth()]!;
      case 'd':
        return pad(d.getUTCDate());
      case 'e':
        return pad(d.getUTCDate(), 2, ' ');
      case 'H':
        return pad(d.getUTCHours());
      case 'I':
        return pad(((d.getUTCHours() + 11) % 12) + 1);
      case 'j':
        return pad(Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86400000) + 1, 3);
      case 'm':
        return pad(d.getUTCMonth() + 1);
      case 'M':
        return pad(d.getUTCMinutes());
      case 'N':
        return pad(d.getUTCMilliseconds() * 1000000, 9);
      case 'p':
        return d.getUTCHours() < 12 ? 'AM' : 'PM';
      case 'S':
        return pad(d.getUTCSeconds());
      case 's':
        return String(Math.floor(d.getTime() / 1000));
      case 'u':
        return String(d.getUTCDay() || 7);
      case 'w':
        return String(d.getUTCDay());
      case 'y':
        return pad(d.getUTCFullYear() % 100);
      case 'Y':
        return String(d.getUTCFullYear());
      case 'z':
        return '+0000';
      case 'Z':
        return 'UTC';
      case 'T':
        return strftime('%H:%M:%S', d);
      case 'D':
        return strftime('%m/%d/%y', d);
      case 'F':
        return strftime('%Y-%m-%d', d);
      case 'R':
        return strftime('%H:%M', d);
      case 'c':
        return strftime('%a %b %e %H:%M:%S %Y', d);
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case '%':
        return '%';
      default:
        return m;
    }
  });
}

const date: Builtin = async (args, io, ctx) => {
  let format = '%a %b %e %H:%M:%S %Z %Y';
  let when = ctx.now();
  for (let i = 1; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('+')) format = a.slice(1);
    else if (a === '-u' || a === '--utc') continue;
    else if (a === '-R') format = '%a, %d %b %Y %H:%M:%S %z';
    else if (a === '-I' || a === '--iso-8601') format = '%Y-%m-%d';
    else if (a === '-d' || a === '--date') {
      const spec = args[++i] ?? '';
      const parsed = spec.startsWith('@') ? Number(spec.slice(1)) * 1000 : Date.parse(spec);
      if (Number.isNaN(parsed)) {
        await fail(io, `date: invalid date '${spec}'`);
        return 1;
      }
      when = parsed;
    } else {
      await fail(io, `date: invalid date '${a}'`);
      return 1;
    }
  }
  await write(io.stdout, `${strftime(format, new Date(when))}\n`);
  return 0;
};

/** `5`, `0.5`, `2m`, `1h`, `1d`, `infinity` → milliseconds. */
function durationMs(s: string): number | undefined {
  if (s === 'inf' || s === 'infinity') return Infinity;
  const m = /^(\d+(?:\.\d*)?|\.\d+)([smhd]?)$/.exec(s);
  if (!m) return undefined;
  const mult = m[2] === 'm' ? 60 : m[2] === 'h' ? 3600 : m[2] === 'd' ? 86400 : 1;
  return Number(m[1]) * mult * 1000;
}

/** Longest single timer Node takes (~24.8 days); longer sleeps wait several times. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const sleep: Builtin = async (args, io, ctx) => {
  if (args.length < 2) {
    await fail(io, 'sleep: missing operand');
    return 1;
  }
  let total = 0;
  for (const a of args.slice(1)) {
    const ms = durationMs(a);
    if (ms === undefined) {
      await fail(io, `sleep: invalid number '${a}'`);
      return 1;
    }
    total += ms;
  }
  while (total > 0) {
    const step = Math.min(total, MAX_TIMER_MS);
    try {
      await sleepMs(step, undefined, { signal: ctx.signal });
    } catch {
      throw new Aborted();
    }
    total -= step;
  }
  return 0;
};

export const SYSTEM_COMMANDS: Record<string, Builtin> = {
  env,
  printenv,
  hostname,
  id,
  whoami,
  uname,
  date,
  sleep,
  true: async () => 0,
  false: async () => 1,
};
