export * from './audit.js';
export * from './http.js';
export * from './schema.js';
export * from './server/index.js';
