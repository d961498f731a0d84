import { describe, expect, it } from 'vitest';
import {
  checkToolsets,
  commonFlags,
  defineToolsets,
  offReasons,
  selectTools,
  splitList,
  toolsetsHelp,
} from '../src/server/flags.js';
import { unknownOptionMessage } from '../src/server/run.js';

const hints = (readOnly: boolean) => ({
  readOnlyHint: readOnly,
  destructiveHint: !readOnly,
  idempotentHint: true,
  openWorldHint: false,
});
const tools = [
  { name: 'get_issue', toolset: 'issues', annotations: hints(true) },
  { name: 'create_issue', toolset: 'issues', annotations: hints(false) },
  { name: 'list_runs', toolset: 'actions', annotations: hints(true) },
];
const toolsets = [
  { name: 'issues', description: 'Issues', default: true },
  { name: 'actions', description: 'Actions', default: false },
];
const names = (list: { name: string }[]) => list.map((t) => t.name);

describe('selectTools', () => {
  it('serves the default toolsets when nothing is asked', () => {
    expect(names(selectTools(tools, commonFlags({}, {}), toolsets))).toEqual(['get_issue', 'create_issue']);
  });

  it('--toolsets replaces the defaults; all enables everything', () => {
    expect(names(selectTools(tools, commonFlags({ toolsets: 'actions' }, {}), toolsets))).toEqual([
      'list_runs',
    ]);
    expect(selectTools(tools, commonFlags({ toolsets: 'all' }, {}), toolsets)).toHaveLength(3);
  });

  it('--tools picks exactly those tools, --exclude-tools removes', () => {
    const flags = commonFlags({ tools: 'list_runs,create_issue', 'exclude-tools': 'create_issue' }, {});
    expect(names(selectTools(tools, flags, toolsets))).toEqual(['list_runs']);
  });

  it('--read-only beats every other switch', () => {
    const flags = commonFlags({ tools: 'create_issue,get_issue', 'read-only': true }, {});
    expect(names(selectTools(tools, flags, toolsets))).toEqual(['get_issue']);
  });

  it('unknown tool or toolset names are a config error listing the valid ones', () => {
    expect(() => selectTools(tools, commonFlags({ tools: 'nope' }, {}), toolsets)).toThrow(
      /--tools: unknown tool\(s\) nope; valid: get_issue/,
    );
    expect(() => selectTools(tools, commonFlags({ toolsets: 'repos' }, {}), toolsets)).toThrow(
      /unknown toolset\(s\) repos/,
    );
    expect(() => selectTools(tools, commonFlags({ toolsets: 'x' }, {}))).toThrow(/has no toolsets/);
  });

  it('--tools naming a tool this configuration does not serve says what turns it on, not "unknown"', () => {
    const off = {
      write_query: 'start the server with --allow-writes',
      drop: 'start the server with --allow-writes',
    };
    expect(() =>
      selectTools(tools, commonFlags({ tools: 'get_issue,write_query,drop' }, {}), toolsets, off),
    ).toThrow(
      '--tools: write_query, drop are off in this configuration: start the server with --allow-writes',
    );
    // A typo is still a typo, listed with the valid names.
    expect(() => selectTools(tools, commonFlags({ tools: 'write_qurey' }, {}), toolsets, off)).toThrow(
      /unknown tool\(s\) write_qurey; valid:/,
    );
    // Excluding a tool that is not served anyway is no error.
    expect(
      names(selectTools(tools, commonFlags({ 'exclude-tools': 'write_query' }, {}), toolsets, off)),
    ).toEqual(['get_issue', 'create_issue']);
  });

  it('--tools naming only tools --read-only hides is a config error naming the conflict; a mix serves the reads', () => {
    expect(() =>
      selectTools(tools, commonFlags({ tools: 'create_issue', 'read-only': true }, {}), toolsets),
    ).toThrow(
      /--tools create_issue and --read-only contradict: .*drop --read-only, or name tools that only read/,
    );
    expect(
      names(
        selectTools(tools, commonFlags({ tools: 'create_issue,get_issue', 'read-only': true }, {}), toolsets),
      ),
    ).toEqual(['get_issue']);
  });

  it('reads the audit log path from the flag, else MCP_AUDIT_LOG', () => {
    expect(commonFlags({}, { MCP_AUDIT_LOG: '/tmp/a.log' }).auditLog).toBe('/tmp/a.log');
    expect(commonFlags({ 'audit-log': '/tmp/b.log' }, { MCP_AUDIT_LOG: '/tmp/a.log' }).auditLog).toBe(
      '/tmp/b.log',
    );
  });

  it('splits comma lists, dropping blanks', () => {
    expect(splitList(' a, b,,c ')).toEqual(['a', 'b', 'c']);
    expect(splitList(undefined)).toBeUndefined();
  });
});

describe('offReasons (issue 27: a call of a tool that is off names the flag that turns it on)', () => {
  const reasons = (values: Record<string, unknown>) => {
    const flags = commonFlags(values, {});
    return Object.fromEntries(offReasons(tools, selectTools(tools, flags, toolsets), flags));
  };
  it('names the toolset to enable, --read-only, --exclude-tools and --tools', () => {
    // --toolsets replaces the defaults, so the advice keeps the toolsets served now (issues).
    expect(reasons({})).toEqual({
      list_runs:
        'its toolset actions is not enabled: start the server with --toolsets issues,actions (or --toolsets all)',
    });
    expect(reasons({ 'read-only': true, toolsets: 'all' })).toEqual({
      create_issue: 'the server runs with --read-only, which hides every tool that can change something',
    });
    expect(reasons({ 'exclude-tools': 'get_issue', toolsets: 'all' })).toEqual({
      get_issue: 'the server runs with --exclude-tools naming it',
    });
    expect(reasons({ tools: 'get_issue' })).toMatchObject({
      list_runs: 'the server runs with --tools get_issue; add list_runs there',
    });
  });
});

describe('unknownOptionMessage', () => {
  const parseError = (option: string) =>
    new Error(`Unknown option '${option}'. To specify a positional argument …`);
  const known = ['read-only', 'tools', 'exclude-tools', 'audit-log', 'db-path'];

  it('suggests the option spelled the same but for hyphens and case, or the one a prefix names', () => {
    expect(unknownOptionMessage(parseError('--readonly'), known)).toBe(
      'unknown option --readonly (did you mean --read-only?)',
    );
    expect(unknownOptionMessage(parseError('--DB_PATH'), known)).toBe(
      'unknown option --DB_PATH (did you mean --db-path?)',
    );
    expect(unknownOptionMessage(parseError('--excl'), known)).toBe(
      'unknown option --excl (did you mean --exclude-tools?)',
    );
  });

  it('suggests the nearest option for a typo a few edits away (issue 27)', () => {
    const all = [...known, 'allow-writes', 'toolsets', 'transport', 'port'];
    expect(unknownOptionMessage(parseError('--alow-writes'), all)).toBe(
      'unknown option --alow-writes (did you mean --allow-writes?)',
    );
    expect(unknownOptionMessage(parseError('--db-pth'), all)).toBe(
      'unknown option --db-pth (did you mean --db-path?)',
    );
    expect(unknownOptionMessage(parseError('--toolset'), all)).toBe(
      'unknown option --toolset (did you mean --toolsets?)',
    );
    expect(unknownOptionMessage(parseError('--trasnport'), all)).toBe(
      'unknown option --trasnport (did you mean --transport?)',
    );
    expect(unknownOptionMessage(parseError('--db-pth=~/x.db'), all)).toBe(
      'unknown option --db-pth=~/x.db (did you mean --db-path?)',
    );
  });

  it('suggests nothing when nothing is close', () => {
    expect(unknownOptionMessage(parseError('--frobnicate'), known)).toBe('unknown option --frobnicate');
  });
});

describe('declared toolsets', () => {
  const declared = defineToolsets([
    { name: 'issues', description: 'Issues', default: true },
    { name: 'actions', description: 'Actions', default: false },
  ]);

  it('help lists them with the defaults, from the declaration', () => {
    expect(toolsetsHelp(declared)).toBe('Toolsets (--toolsets; default: issues):\n  issues, actions, all');
    expect(toolsetsHelp([])).toBe('');
  });

  it('a tool naming an undeclared toolset, or none where toolsets are declared, is refused', () => {
    expect(() => checkToolsets(tools, declared)).not.toThrow();
    expect(() => checkToolsets([...tools, { name: 'x', toolset: 'repos' }], declared)).toThrow(
      'tool(s) in an undeclared toolset: x (repos); declared: issues, actions',
    );
    expect(() => checkToolsets([{ name: 'y' }], declared)).toThrow(/y \(none\)/);
    expect(() => checkToolsets([{ name: 'z', toolset: 'issues' }], [])).toThrow(/declared: none/);
    expect(() => checkToolsets([{ name: 'y' }], [])).not.toThrow();
  });
});
