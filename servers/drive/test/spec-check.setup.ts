// vitest globalSetup: everything this suite's tests made the fake Drive answer is checked against
// @googleapis/drive's route table and generated types when the run ends (test-harness README, "Spec check").
import { driveSpec } from '@refmcp/test-harness/fakes/drive/spec';
import { specCheckSetup } from '@refmcp/test-harness/spec';

export default specCheckSetup({ drive: driveSpec });
