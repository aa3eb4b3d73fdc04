// Property names as CEL sees them (k8s.io/apiserver pkg/cel/escaping.go): reserved words become
// __word__, and `__`, `.`, `-`, `/` expand to __underscores__, __dot__, __dash__, __slash__;
// names that cannot be escaped (a leading digit, other characters) are not accessible from CEL.
const RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);
const EXPANSIONS: Record<string, string> = { __: '__underscores__', '.': '__dot__', '-': '__dash__', '/': '__slash__' };

/** The CEL field name of a property, or undefined when it has none. */
export function escapeName(ident: string): string | undefined {
  if (ident.length === 0 || /^[0-9]/.test(ident)) return undefined;
  if (RESERVED.has(ident)) return `__${ident}__`;
  if (/^[A-Za-z0-9_]*$/.test(ident) && !ident.includes('__')) return ident;
  if (!/^[A-Za-z0-9_./-]*$/.test(ident)) return undefined;
  return ident.replace(/__|[./-]/g, (m) => EXPANSIONS[m]!);
}
