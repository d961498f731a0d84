// vitest globalSetup: everything this suite's tests made the fake GitLab answer is checked against
// GitLab's OpenAPI description when the run ends (test-harness README, "Spec check").
import { gitlabSpec } from '@refmcp/test-harness/fakes/gitlab/spec';
import { specCheckSetup } from '@refmcp/test-harness/spec';

export default specCheckSetup({ gitlab: gitlabSpec });
