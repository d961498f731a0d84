import { runServer } from '@refmcp/shared/server';
import { sqliteServer } from './server.js';

void runServer(sqliteServer);
