import type { DemoSession } from './session.js';

/** Where a scene runs: the repository root and a scratch directory it may write (removed afterwards). */
export interface DemoPlace {
  repoRoot: string;
  scratch: string;
}

/** One server's part of the demo: the server's name in the demo host config, and the task it runs. */
export interface DemoScene {
  server: string;
  /** A prerequisite outside the repository; when the server cannot start without it the scene is skipped. */
  needs?: string;
  /** Prepares what the server needs before it is launched (sample data, env); optional. */
  prepare?(place: DemoPlace): Promise<void>;
  run(session: DemoSession, place: DemoPlace): Promise<void>;
  /** Releases what prepare started; optional. */
  cleanup?(place: DemoPlace): Promise<void>;
}
