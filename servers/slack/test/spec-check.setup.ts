// vitest globalSetup: everything this suite's tests made the fake Slack answer is checked against
// the closed JSON Schemas generated from @slack/web-api's response types when the run ends
// (test-harness README, "Spec check").
import { slackSpec } from '@refmcp/test-harness/fakes/slack/spec';
import { specCheckSetup } from '@refmcp/test-harness/spec';

export default specCheckSetup({ slack: slackSpec });
