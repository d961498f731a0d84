/**
 * Turning a tool's `target` into one element: a ref from the latest snapshot (`e12`, `f3e12`) through
 * Playwright's `getByRef`, or else a Playwright/CSS selector. The element must
 * exist now — no silent waiting for a stale ref — and be unique.
 */
import { ToolError } from '@refmcp/shared/server';
import type { Locator } from 'playwright-core';
import { browserError } from './errors.js';
import type { Tab } from './tab.js';

/**
 * A snapshot ref: `e<n>`, or `f<s>e<n>` where `<s>` numbers the frame's document (a new number for
 * each document the main frame or an iframe shows: playwright-patches.ts), so a ref of an older page
 * never names an element of a newer one.
 */
export const REF_PATTERN = /^(?:f\d+)?e\d+$/;

/**
 * The element `target` names in `tab`; ToolError naming `argName` when none or several match, or
 * when a ref was issued by another tab's snapshot or by no snapshot of this browser (refs.ts).
 */
export async function locate(tab: Tab, target: string, argName = 'target'): Promise<Locator> {
  const page = tab.page;
  const isRef = REF_PATTERN.test(target);
  const issuer = isRef ? tab.refs.issuer(target) : tab;
  if (issuer !== tab)
    throw new ToolError(
      issuer
        ? `${argName}: ref ${target} comes from a snapshot of another tab; select that tab (browser_tabs) or take a browser_snapshot of this one and use a ref from it`
        : notOnPage(argName, target),
    );
  if (isRef && !tab.refs.inLatest(tab, target))
    throw new ToolError(
      `${argName}: ref ${target} is not in this tab's latest snapshot (it is from an older page or snapshot, or that snapshot had a target and kept only its region's refs); take a new browser_snapshot and use a ref from it`,
    );
  let locator: Locator;
  let count: number;
  try {
    locator = isRef ? page.getByRef(target) : page.locator(target);
    count = await locator.count();
  } catch (error) {
    if (isRef) count = 0;
    else
      throw new ToolError(
        `${argName}: "${target.slice(0, 200)}" is not a valid selector (${browserError('selector', error).message})`,
      );
    locator = page.locator('nonexistent');
  }
  if (count === 0) {
    throw new ToolError(
      isRef
        ? notOnPage(argName, target)
        : `${argName}: no element matches selector "${target.slice(0, 200)}"; take a browser_snapshot and use a ref from it`,
    );
  }
  if (count > 1) {
    throw new ToolError(
      `${argName}: ${count} elements match selector "${target.slice(0, 200)}"; use a ref from browser_snapshot or a more specific selector`,
    );
  }
  return locator;
}

function notOnPage(argName: string, ref: string): string {
  return `${argName}: ref ${ref} is not on the page (it is from an older snapshot or page, or never existed); take a new browser_snapshot and use a ref from it`;
}
