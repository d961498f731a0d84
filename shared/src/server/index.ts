export * from './budget.js';
export * from './errors.js';
export * from './flags.js';
export * from './log.js';
export * from './query-cursor.js';
export * from './requests.js';
export * from './run.js';
export * from './tool.js';
