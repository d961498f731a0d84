import { runServer } from '@refmcp/shared/server';
import { sqliteServer } from './server.js';

await runServer(sqliteServer);
