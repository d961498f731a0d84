import { runServer } from '@refmcp/shared/server';
import { postgresServer } from './server.js';

await runServer(postgresServer);
