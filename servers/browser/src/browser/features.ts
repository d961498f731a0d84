/**
 * The Chromium features switched off at launch, as one `--disable-features` switch.
 *
 * Chromium honours only the last `--disable-features` on its command line (checked with Chromium
 * 156: given two, the first has no effect), and Playwright already passes one. Ours comes after
 * Playwright's, so it repeats Playwright's list and adds to it; the launch test checks that the
 * browser's effective list still holds every feature Playwright disables (a Playwright upgrade that
 * changes its list fails that test, not silently).
 *
 * Added by us:
 * - RenderDocument: with it (Chromium's default), every cross-document navigation — even to the
 *   same site — builds a new renderer-side frame and WebView and tears the old one down. Without
 *   it the frame is reused across same-site navigations, as Chromium did before RenderDocument;
 *   what the page sees and what a snapshot shows are unchanged (cross-site navigations still get
 *   their own process per site isolation). Measured on the bench's navigate + snapshot of a local
 *   page: Chromium's CPU time per round 330–350 ms → 260–280 ms.
 */

/** What playwright-core 1.65.1 disables (src/server/chromium/chromiumSwitches.ts). */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
] as const;

/** What we disable on top (see the module comment). */
export const OUR_DISABLED_FEATURES = ['RenderDocument'] as const;

/** The one `--disable-features` switch the browser is launched with (after Playwright's). */
export const DISABLE_FEATURES_FLAG = `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OUR_DISABLED_FEATURES].join(',')}`;
