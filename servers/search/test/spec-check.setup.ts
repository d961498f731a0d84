// vitest globalSetup: everything this suite's tests made the fake Brave answer (bodies and the
// X-RateLimit-* headers) is checked against the JSON Schemas written from Brave's docs when the
// run ends (test-harness/specs/brave/SOURCE.md).
import { braveSpec } from '@refmcp/test-harness/fakes/brave/spec';
import { specCheckSetup } from '@refmcp/test-harness/spec';

export default specCheckSetup({ brave: braveSpec });
