/**
 * The GitHub web origin that serves OAuth (`/login/device/code`, `/login/oauth/access_token`) for
 * an API base URL, as GitHub lays them out (and @octokit/oauth-methods maps them):
 * `https://api.github.com` → `https://github.com`; GHE.com `https://api.NAME.ghe.com` →
 * `https://NAME.ghe.com`; GitHub Enterprise Server `https://HOST/api/v3` → `https://HOST`.
 */
export function webUrlFor(apiUrl: URL): URL {
  const web = new URL(apiUrl.href);
  if (web.hostname === 'api.github.com' || /^api\.[^.]+\.ghe\.com$/.test(web.hostname))
    web.hostname = web.hostname.slice('api.'.length);
  web.pathname = web.pathname.replace(/\/+$/, '').replace(/\/api\/v3$/, '') || '/';
  web.search = '';
  web.hash = '';
  return web;
}
