// core/v1 Binding: the body POSTed to pods/<name>/binding (and to the `bindings` resource) by the
// scheduler to bind a pod to a node. Not stored. Field numbers are those of k8s.io/api core/v1
// generated.proto.
import { ObjectMeta } from '../../meta/v1.js';
import { field, struct, typeMetaFields } from '../../schema/dsl.js';
import { ObjectReference } from './references.js';

/** metadata names the pod; target is the node (kind Node, name). */
export const Binding = struct('io.k8s.api.core.v1.Binding', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  target: field(ObjectReference, 2, { omitempty: false, required: true }),
});
