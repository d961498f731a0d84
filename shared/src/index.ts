export * from './audit.js';
export * from './schema.js';
export * from './server/index.js';
export * from './upstream/index.js';
