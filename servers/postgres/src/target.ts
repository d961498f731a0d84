/** Where the server connects, as named in messages and resource URIs (never the password). */
export interface Target {
  host: string;
  port: number;
  database: string;
  user: string;
  /** "off", "on", "on (certificate not verified)". */
  ssl: string;
}

/** 'host:port, database "db", user "u", SSL off' — what a connection error names. */
export function describeTarget(t: Target): string {
  const at = t.host.startsWith('/') ? `socket ${t.host}/.s.PGSQL.${t.port}` : `${t.host}:${t.port}`;
  return `${at}, database "${t.database}", user "${t.user}", SSL ${t.ssl}`;
}
