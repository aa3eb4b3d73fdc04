// The body of GET /version (k8s.io/apimachinery/pkg/version.Info). Plain JSON, never protobuf:
// every field has tag 0. The emulation/minCompatibility fields are recent (compatibility
// versions, v1.32/v1.33) and omitted when empty; v1.26.1 of the vectors does not send them.
import { field, struct, t } from './schema/dsl.js';

const required = { omitempty: false, required: true } as const;

export const VersionInfo = struct('io.k8s.apimachinery.pkg.version.Info', {
  major: field(t.string, 0, required),
  minor: field(t.string, 0, required),
  emulationMajor: field(t.string, 0),
  emulationMinor: field(t.string, 0),
  minCompatibilityMajor: field(t.string, 0),
  minCompatibilityMinor: field(t.string, 0),
  gitVersion: field(t.string, 0, required),
  gitCommit: field(t.string, 0, required),
  gitTreeState: field(t.string, 0, required),
  buildDate: field(t.string, 0, required),
  goVersion: field(t.string, 0, required),
  compiler: field(t.string, 0, required),
  platform: field(t.string, 0, required),
});
