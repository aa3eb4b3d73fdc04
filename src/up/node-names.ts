// The names of the nodes `up` starts, from their count and the nodes process's flags as given
// (`--node-name-prefix`, `--first-node-index`, in either `--flag value` or `--flag=value` form; the
// last one given wins, as commander reads them): the nodes process may impersonate exactly these.
const DEFAULT_PREFIX = 'kubelite-node-';

function lastFlag(args: readonly string[], flag: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === flag && i + 1 < args.length) value = args[++i];
    else if (a.startsWith(`${flag}=`)) value = a.slice(flag.length + 1);
  }
  return value;
}

export function nodeNamesOf(count: number, nodeArgs: readonly string[]): string[] {
  const prefix = lastFlag(nodeArgs, '--node-name-prefix') ?? DEFAULT_PREFIX;
  const first = Number(lastFlag(nodeArgs, '--first-node-index') ?? 0);
  const start = Number.isSafeInteger(first) && first >= 0 ? first : 0;
  return Array.from({ length: count }, (_, i) => `${prefix}${start + i}`);
}
