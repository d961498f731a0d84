/**
 * `untrusted`: neutralise user-authored text that came from upstream (issue and PR bodies,
 * comments, commit messages, chat messages, web pages) before a model reads it, label it as data
 * (DESIGN.md §3; cases ALL-06, GH-04), and build the results that carry it. What is neutralised
 * and why: ./untrusted/sanitize.ts.
 */
export * from './untrusted/result.js';
export * from './untrusted/sanitize.js';
export * from './untrusted/terminal.js';
