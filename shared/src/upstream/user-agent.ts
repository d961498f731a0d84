/**
 * The User-Agent every upstream request carries (GitHub requires one; all APIs use it to contact
 * the operator of a misbehaving client): "refmcp-<server>/<version> (+<repo URL>) node/<version>".
 */
export const PROJECT_URL = 'https://github.com/refmcp/refmcp';

/** e.g. userAgent('github', '0.1.0') → "refmcp-github/0.1.0 (+https://github.com/refmcp/refmcp) node/v20.19.0". */
export function userAgent(server: string, version: string): string {
  return `refmcp-${server}/${version} (+${PROJECT_URL}) node/${process.version}`;
}
