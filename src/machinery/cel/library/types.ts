// One Kubernetes CEL overload: a function or method name and an implementation that returns
// `undefined` when the arguments are not its types, so the next overload (or @bufbuild/cel's
// standard library) is tried — the same dispatch @bufbuild/cel's own function groups do.
export interface K8sOverload {
  name: string;
  /** Methods are called with the receiver as `target`; global functions get `target` undefined. */
  method: boolean;
  call(target: unknown, args: unknown[]): unknown;
  /** Extra runtime cost beyond the call's 1 (cel-go charges size-proportional costs). */
  cost?(target: unknown, args: unknown[], result: unknown): number;
}

export const fn = (name: string, call: (args: unknown[]) => unknown, cost?: K8sOverload['cost']): K8sOverload => ({ name, method: false, call: (_t, a) => call(a), cost });
export const method = (name: string, call: (target: unknown, args: unknown[]) => unknown, cost?: K8sOverload['cost']): K8sOverload => ({ name, method: true, call, cost });

/** cel-go's string cost factor: 0.1 per character traversed. */
export const strCost = (s: unknown): number => (typeof s === 'string' ? Math.ceil(s.length * 0.1) : 0);
