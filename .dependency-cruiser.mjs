// Import-cycle check, run by `npm run lint` and `npm test` (`depcruise .`); fails on any cycle.
// Type-only imports count: a type cycle still ties two modules together (neither can move or be
// read alone), and the cycles this check was added for were type-only on one side.
/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycle: move what both modules need into a small module that both import.',
      from: {},
      to: {
        circular: true,
      },
    },
  ],
  options: {
    exclude: { path: '(^|/)(node_modules|dist)/' },
    doNotFollow: { path: 'node_modules' },
    // Count `import type` and type-only re-exports (see above); `.js` specifiers resolve to `.ts`.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    // Workspace imports (`@refmcp/shared/paths`) resolve through package.json `exports` to source.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types'],
    },
    progress: { type: 'none' },
  },
};
