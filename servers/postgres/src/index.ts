import { runServer } from '@refmcp/shared/server';
import { postgresServer } from './server.js';

void runServer(postgresServer);
