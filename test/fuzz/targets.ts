// Every fuzz target, by name (what `npm run fuzz <target>` takes).
import type { FuzzTarget } from './target.js';
import { continueTokenTarget } from './targets/continue-token.js';
import { httpListTarget, httpWritesTarget } from './targets/http.js';
import { kubeconfigTarget } from './targets/kubeconfig.js';
import { jsonPatchTarget, mergePatchTarget, strategicMergePatchTarget } from './targets/patches.js';
import { protobufTarget } from './targets/protobuf.js';
import { yamlTarget } from './targets/yaml.js';

export const FUZZ_TARGETS: readonly FuzzTarget<never>[] = [
  yamlTarget,
  protobufTarget,
  jsonPatchTarget,
  mergePatchTarget,
  strategicMergePatchTarget,
  continueTokenTarget,
  kubeconfigTarget,
  httpWritesTarget,
  httpListTarget,
] as unknown as FuzzTarget<never>[];
