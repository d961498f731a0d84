// vitest globalSetup: everything this suite's tests made the fake GitHub answer is checked against
// GitHub's OpenAPI description when the run ends (test-harness README, "Spec check").
import { githubSpec } from '@refmcp/test-harness/fakes/github/spec';
import { specCheckSetup } from '@refmcp/test-harness/spec';

export default specCheckSetup({ github: githubSpec });
